/**
 * The worker: the everything server (an `McpServer` from the built packages) in a dedicated module worker. Each
 * `MessagePort` the page hands over is one connection, served through `MessagePortTransport`; when a connection
 * closes, the worker tells the page on its own channel (`{ closed: n }`), so a test sees the close cross threads.
 */
import { MessagePortTransport } from '@wiremcp/jsonrpc';
// The package's entry also exports the command line (Node only); the server itself is web-standard.
import { createEverythingServer } from '../../../../servers/everything/dist/everything-server.js';

// A page knows no package.json: the version is the test's.
const server = createEverythingServer({ version: '0.0.0-browser-worker' });
let connections = 0;
server.onconnectionclosed = () => postMessage({ closed: (connections -= 1) });

addEventListener('message', (event: MessageEvent) => {
  const port = event.ports[0];
  if (!port) return;
  connections += 1;
  server.connect(new MessagePortTransport(port)).then(
    () => postMessage({ connected: connections }),
    (error: unknown) => postMessage({ error: String(error) }),
  );
});
