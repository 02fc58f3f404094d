/**
 * `wiremcp-resources-demo`: the resources demo over this process's stdin and stdout. Protocol bytes only on
 * stdout; the start line and errors go to stderr. Exits 0 once stdin closes and the requests in progress are
 * answered (the clock's timer never holds the process); SIGTERM/SIGINT end listen streams and exit 0; a bad
 * command line exits 2, a start-up failure (unreadable data) 1.
 */
import { serveProcessStdio } from '@wiremcp/transport-stdio';
import { parseCliArgs, USAGE } from './cli-args.js';
import { createResourcesDemo, RESOURCES_DEMO_INFO } from './resources-demo.js';

const NAME = 'wiremcp-resources-demo';

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
  const { listen, pageSize, tickMs } = parsed.options;
  const demo = createResourcesDemo({
    pageSize,
    tickMs,
    onInternalError: (error) =>
      process.stderr.write(`${NAME}: internal error: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`),
  });
  await serveProcessStdio(demo.server, { name: NAME, version: RESOURCES_DEMO_INFO.version, framing: listen.framing });
}

main().catch((error: unknown) => {
  process.stderr.write(`${NAME}: failed to start: ${error instanceof Error ? error.message : String(error)}\n`);
  process.exitCode = 1;
});
