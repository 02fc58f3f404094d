/**
 * `wiremcp-grammar`: the §A13 grammar server over this process's stdin and stdout. Protocol bytes only on
 * stdout; everything else goes to stderr. Exits 0 once stdin closes and the requests in progress are
 * answered; SIGTERM/SIGINT close the connection and exit 0; a bad command line exits 2; a broken table
 * exits 1 with every problem (file, row, key) on stderr.
 */
import { serveProcessStdio } from '@wiremcp/transport-stdio';
import { parseCliArgs, USAGE } from './cli-args.js';
import { createGrammarServer, GRAMMAR_SERVER_INFO } from './grammar-server.js';
import { loadTable, TableError, type Table } from './table/index.js';

const NAME = 'wiremcp-grammar';

async function main(): Promise<void> {
  const parsed = parseCliArgs(process.argv.slice(2));
  if (parsed.kind === 'help') {
    process.stderr.write(USAGE);
    return;
  }
  if (parsed.kind === 'error') {
    process.stderr.write(`${NAME}: ${parsed.message}\n\n${USAGE}`);
    process.exitCode = 2;
    return;
  }
  let table: Table;
  try {
    table = parsed.options.table === undefined ? loadTable() : loadTable(parsed.options.table);
  } catch (error) {
    if (!(error instanceof TableError)) throw error;
    process.stderr.write(`${NAME}: cannot start: ${error.message}\n`);
    process.exitCode = 1;
    return;
  }
  const server = createGrammarServer(table, {
    onInternalError: (error) =>
      process.stderr.write(`${NAME}: internal error: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`),
  });
  await serveProcessStdio(server, { name: NAME, version: GRAMMAR_SERVER_INFO.version, framing: parsed.options.framing });
}

main().catch((error: unknown) => {
  process.stderr.write(`${NAME}: failed to start: ${error instanceof Error ? error.message : String(error)}\n`);
  process.exitCode = 1;
});
