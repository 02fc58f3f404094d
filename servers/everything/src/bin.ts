/**
 * `wiremcp-everything`: the everything server over this process's stdin and stdout. The process side (flags,
 * help, signals, exit codes, messages on stderr) is `runServerMain`'s.
 */
import { runServerMain } from '@wiremcp/process';
import { OPTIONS, USAGE, parseCliArgs } from './cli-args.js';
import { createEverythingServer, EVERYTHING_SERVER_INFO } from './everything-package.js';

void runServerMain({
  name: 'wiremcp-everything',
  version: EVERYTHING_SERVER_INFO.version,
  usage: USAGE,
  options: OPTIONS,
  parseArgs: parseCliArgs,
  // With --redis, every process signs input-required requestState with the deployment's shared key and keeps its
  // tasks in the shared store.
  createServer: ({ pageSize }, { onInternalError, requestState, tasks, instrumentation }) =>
    createEverythingServer({
      pageSize,
      onInternalError,
      ...(requestState === undefined ? {} : { requestState }),
      ...(tasks === undefined ? {} : { tasks }),
      // With --metrics: the server's requests and sessions are measured.
      ...(instrumentation === undefined ? {} : { instrumentation }),
    }),
});
