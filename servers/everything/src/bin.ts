/**
 * `wiremcp-everything`: the everything server over this process's stdin and stdout. Protocol bytes only on
 * stdout; everything else (startup line, errors) goes to stderr. Exits 0 once stdin closes and the requests in
 * progress are answered; SIGTERM/SIGINT cancel what is running and exit 0; a bad command line exits 2 and a
 * startup failure 1, each with a message on stderr.
 */
import { serveProcessStdio } from '@wiremcp/transport-stdio';
import { parseCliArgs, USAGE } from './cli-args.js';
import { createEverythingServer, EVERYTHING_SERVER_INFO } from './everything-server.js';

const NAME = 'wiremcp-everything';

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
  const { framing, pageSize } = parsed.options;
  const server = createEverythingServer({
    pageSize,
    onInternalError: (error) =>
      process.stderr.write(`${NAME}: internal error: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`),
  });
  await serveProcessStdio(server, { name: NAME, version: EVERYTHING_SERVER_INFO.version, framing });
}

main().catch((error: unknown) => {
  process.stderr.write(`${NAME}: failed to start: ${error instanceof Error ? error.message : String(error)}\n`);
  process.exitCode = 1;
});
