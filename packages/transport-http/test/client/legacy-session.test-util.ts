// A legacy (2025-11-25) session of the client transport against a scripted server, for the reconnection tests: the
// server answers initialize and notifications itself and hands every other request to the test's handler.
import type { ServerResponse } from 'node:http';
import { StreamableHttpClientTransport } from '../../src/client/index.js';
import { json, methodOf, result, startServer, type Recorded } from './http-server.test-util.js';
import { drive } from './transport.test-util.js';

const INIT = { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 't', version: '1' } };

/** Reconnection settings short enough for tests, with few retries. */
export const FAST = { initialDelayMs: 1, maxDelayMs: 5, maxRetries: 3 };

/**
 * Starts a scripted server and an initialized session of the client transport on it (session id `sess`, reconnection
 * `FAST` unless `options` say otherwise); `handler` serves every request but initialize and notifications.
 */
export async function session(handler: (request: Recorded, res: ServerResponse) => void, options = {}) {
  const server = await startServer((request, res) => {
    if (methodOf(request) === 'initialize') {
      return json(res, 200, result(request, { protocolVersion: '2025-11-25', capabilities: {}, serverInfo: { name: 's', version: '1' } }), {
        'mcp-session-id': 'sess',
      });
    }
    if (request.method === 'POST' && (request.json as { id?: unknown }).id === undefined) return void (res.writeHead(202), res.end());
    handler(request, res);
  });
  const driven = await drive(new StreamableHttpClientTransport(server.url, { reconnect: FAST, ...options }));
  await driven.request(0, 'initialize', INIT);
  await driven.transport.send({ jsonrpc: '2.0', method: 'notifications/initialized' });
  return { server, driven };
}
