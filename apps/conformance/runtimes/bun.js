// The everything server on Bun's own HTTP server (`Bun.serve`): `bun bun.js [host] [port]`.
// Prints `listening <url>` on stdout once bound; logs go to stderr.
import { everythingHandler } from './everything-handler.js';

const [hostname = '127.0.0.1', port = '0'] = process.argv.slice(2);
const report = (error) => console.error('handler error:', error);
let serve;
const server = Bun.serve({ hostname, port: Number(port), idleTimeout: 0, fetch: (request) => serve(request) });
serve = everythingHandler({ localAddress: server.hostname, localPort: server.port }, report);
console.log(`listening http://${server.hostname}:${server.port}/mcp`);
process.on('SIGTERM', () => void server.stop(true).then(() => process.exit(0)));
