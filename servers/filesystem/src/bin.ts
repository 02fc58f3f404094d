/**
 * `wiremcp-filesystem <dir>...`: the filesystem server over this process's stdin and stdout. Protocol bytes only
 * on stdout; everything else goes to stderr. Exits 0 once stdin closes and the requests in progress are answered;
 * SIGTERM/SIGINT close the connection and exit 0; a bad command line exits 2; no usable directory exits 1.
 */
import { serveProcessStdio } from '@wiremcp/transport-stdio';
import { parseCliArgs, USAGE } from './cli-args.js';
import { createFilesystemServer, FILESYSTEM_SERVER_INFO, StartupError } from './filesystem-server.js';

const NAME = 'wiremcp-filesystem';

async function main(): Promise<void> {
  const parsed = parseCliArgs(process.argv.slice(2));
  if (parsed.kind === 'help') {
    process.stderr.write(USAGE);
    return;
  }
  if (parsed.kind === 'version') {
    process.stderr.write(`${FILESYSTEM_SERVER_INFO.version}\n`);
    return;
  }
  if (parsed.kind === 'error') {
    process.stderr.write(`${NAME}: ${parsed.message}\n\n${USAGE}`);
    process.exitCode = 2;
    return;
  }
  if (parsed.transport.kind === 'http') {
    // The Streamable HTTP transport (@wiremcp/transport-http) plugs in here: serve `filesystem.serve` per session.
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
  const { roots, anchoring } = filesystem.pinned;
  process.stderr.write(
    `${NAME}: ${roots.length} allowed director${roots.length === 1 ? 'y' : 'ies'}, ${anchoring === 'proc-fd' ? 'fd-anchored' : 'path-checked'} resolution` +
      `${parsed.config.readOnly ? ', read-only' : ''}${parsed.config.allowDelete ? ', delete allowed' : ''}, roots: ${parsed.config.roots}\n`,
  );
  await serveProcessStdio(
    { connect: (transport) => filesystem.serve(transport) },
    {
      name: NAME,
      version: FILESYSTEM_SERVER_INFO.version,
      framing: parsed.transport.framing,
    },
  );
}

main().catch((error: unknown) => {
  process.stderr.write(`${NAME}: failed to start: ${error instanceof Error ? error.message : String(error)}\n`);
  process.exitCode = 1;
});
