// A local npm registry for the release rehearsal: Verdaccio, from npm, with the configuration file given as the
// first argument, listening on a free port of 127.0.0.1. Prints `{"port":N}` on stdout once it listens, and stops
// on SIGTERM or when its parent closes its stdin (so a test that dies does not leave it behind).
import { runServer } from 'verdaccio';

const server = await runServer(process.argv[2]);
server.listen(0, '127.0.0.1', () => {
  process.stdout.write(`${JSON.stringify({ port: server.address().port })}\n`);
});
const stop = () => {
  server.close(() => process.exit(0));
  server.closeAllConnections?.();
  setTimeout(() => process.exit(0), 2_000).unref();
};
process.on('SIGTERM', stop);
process.stdin.on('end', stop);
process.stdin.resume();
