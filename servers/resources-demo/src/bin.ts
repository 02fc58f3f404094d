/**
 * `wiremcp-resources-demo`: the resources demo over this process's stdin and stdout. The process side (flags,
 * help, signals, exit codes, messages on stderr) is `runServerMain`'s; the clock's timer never holds the process.
 */
import { runServerMain } from '@wiremcp/process';
import { OPTIONS, USAGE, parseCliArgs } from './cli-args.js';
import { createResourcesDemo, RESOURCES_DEMO_INFO } from './resources-demo.js';

void runServerMain({
  name: 'wiremcp-resources-demo',
  version: RESOURCES_DEMO_INFO.version,
  usage: USAGE,
  options: OPTIONS,
  parseArgs: parseCliArgs,
  // With --metrics or --otel: the server's requests and sessions are measured, traced, or both.
  createServer: ({ pageSize, tickMs }, { onInternalError, instrumentation }) =>
    createResourcesDemo({ pageSize, tickMs, onInternalError, ...(instrumentation === undefined ? {} : { instrumentation }) }).server,
});
