// The everything server on Deno's own HTTP server (`Deno.serve`): `deno run --allow-net deno.js [host] [port]`.
// Prints `listening <url>` on stdout once bound; logs go to stderr.
import { everythingHandler } from './everything-handler.js';

const [hostname = '127.0.0.1', port = '0'] = Deno.args;
const report = (error) => console.error('handler error:', error);
let serve;
const server = Deno.serve(
  {
    hostname,
    port: Number(port),
    onListen: (address) => {
      serve = everythingHandler({ localAddress: address.hostname, localPort: address.port }, report);
      console.log(`listening http://${address.hostname}:${address.port}/mcp`);
    },
  },
  (request) => serve(request),
);
Deno.addSignalListener('SIGTERM', () => void server.shutdown().then(() => Deno.exit(0)));
