/**
 * `wiremcp-grammar`: the §A13 grammar server over this process's stdin and stdout. The process side (flags,
 * help, signals, exit codes, messages on stderr) is `runServerMain`'s; a table that does not load stops it with
 * exit code 1 and the problems on stderr.
 */
import { runServerMain } from '@wiremcp/process';
import { OPTIONS, USAGE, parseCliArgs } from './cli-args.js';
import { createGrammarServer, GRAMMAR_SERVER_INFO } from './grammar-server.js';
import { loadTable } from './table/index.js';

void runServerMain({
  name: 'wiremcp-grammar',
  version: GRAMMAR_SERVER_INFO.version,
  usage: USAGE,
  options: OPTIONS,
  parseArgs: parseCliArgs,
  // With --metrics or --otel: the server's requests and sessions are measured, traced, or both.
  createServer: ({ table }, { onInternalError, instrumentation }) =>
    createGrammarServer(table === undefined ? loadTable() : loadTable(table), {
      onInternalError,
      ...(instrumentation === undefined ? {} : { instrumentation }),
    }),
});
