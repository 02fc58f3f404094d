/**
 * `wiremcp-filesystem <dir>...`: the filesystem server over this process's stdin and stdout. Protocol bytes only
 * on stdout; everything else goes to stderr. Exits 0 once stdin closes and the requests in progress are answered;
 * SIGTERM/SIGINT close the connection and exit 0 (a second one exits at once); a bad command line exits 2; no
 * usable directory exits 1. The transport is chosen by `cli-args.ts` (`TransportChoice`): stdio now, and the place
 * where `--http` is served once `@wiremcp/transport-http` exists (`filesystem.serve` takes any transport).
 */
import { createProcessStdioTransport } from '@wiremcp/transport-stdio';
import { parseCliArgs, USAGE } from './cli-args.js';
import { createFilesystemServer, FILESYSTEM_SERVER_INFO, StartupError } from './filesystem-server.js';

const NAME = 'wiremcp-filesystem';
/** How long a shutdown on a signal may take (in-flight requests get 1 s from the server). */
const SHUTDOWN_MS = 1800;

async function main(): Promise<void> {
  const parsed = parseCliArgs(process.argv.slice(2));
  if (parsed.kind === 'help') {
    process.stderr.write(USAGE);
    return;
  }
  if (parsed.kind === 'version') {
    process.stderr.write(`${NAME} ${FILESYSTEM_SERVER_INFO.version}\n`);
    return;
  }
  if (parsed.kind === 'error') {
    process.stderr.write(`${NAME}: ${parsed.message}\n\n${USAGE}`);
    process.exitCode = 2;
    return;
  }
  if (parsed.transport.kind === 'http') {
    process.stderr.write(`${NAME}: --http needs @wiremcp/transport-http, which this build does not include yet; use stdio\n`);
    process.exitCode = 2;
    return;
  }
  let filesystem;
  try {
    filesystem = await createFilesystemServer(parsed.config, { log: (line) => process.stderr.write(`${NAME}: ${line}\n`) });
  } catch (error) {
    if (!(error instanceof StartupError)) throw error;
    process.stderr.write(`${NAME}: cannot start: ${error.message}\n`);
    process.exitCode = 1;
    return;
  }
  const connection = await filesystem.serve(createProcessStdioTransport({ framing: parsed.transport.framing }));
  let stopping = false;
  const stop = (signal: NodeJS.Signals): void => {
    if (stopping) {
      process.stderr.write(`${NAME}: ${signal} again, exiting now\n`);
      process.exit(signal === 'SIGINT' ? 130 : 143);
    }
    stopping = true;
    process.stderr.write(`${NAME}: ${signal}, shutting down\n`);
    setTimeout(() => {
      process.stderr.write(`${NAME}: not stopped ${SHUTDOWN_MS} ms after ${signal}; exiting\n`);
      process.exit(1);
    }, SHUTDOWN_MS).unref();
    void connection
      .close()
      .then(() => filesystem.close())
      .finally(() => process.exit(process.exitCode ?? 0));
  };
  process.on('SIGTERM', stop);
  process.on('SIGINT', stop);
  // The start line last: a supervisor that waits for it may signal at once.
  const { roots, anchoring } = filesystem.pinned;
  process.stderr.write(
    `${NAME} ${FILESYSTEM_SERVER_INFO.version}: serving MCP on stdio (framing: ${parsed.transport.framing}); ` +
      `${roots.length} allowed director${roots.length === 1 ? 'y' : 'ies'}, ${anchoring === 'proc-fd' ? 'fd-anchored' : 'path-checked'} resolution` +
      `${parsed.config.readOnly ? ', read-only' : ''}${parsed.config.allowDelete ? ', delete allowed' : ''}, roots: ${parsed.config.roots}\n`,
  );
}

main().catch((error: unknown) => {
  process.stderr.write(`${NAME}: failed to start: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
  process.exitCode = 1;
});
