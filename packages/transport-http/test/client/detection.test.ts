// Era detection over HTTP with the real McpClient and McpServer: a modern-only, a legacy-only (Streamable HTTP
// sessions) and a 2024-11-05-only endpoint are each found in the spec's order, with the fewest requests, and the
// kind found is remembered per endpoint.
import { afterEach, describe, expect, test } from 'vitest';
import { McpClient, MemoryEraCache } from '@wiremcp/client';
import { McpServer } from '@wiremcp/server';
import { httpTransportFactory, MemoryHttpTransportCache } from '../../src/client/index.js';
import { closeAllServers, json, methodOf, startServer, type Recorded } from './http-server.test-util.js';
import { modernOnly, sseOnly, streamableOnly } from './mcp-endpoints.test-util.js';

const clients: McpClient[] = [];
afterEach(async () => {
  await Promise.all(clients.splice(0).map((c) => c.close()));
  await closeAllServers();
});

function makeServer(): McpServer {
  const server = new McpServer({ name: 'detect', version: '1.0.0' });
  server.registerTool(
    { name: 'add', inputSchema: { type: 'object', properties: { a: { type: 'number' }, b: { type: 'number' } }, required: ['a', 'b'] } },
    ({ a, b }: { a: number; b: number }) => ({ content: [{ type: 'text', text: String(a + b) }] }),
  );
  return server;
}

function client(): McpClient {
  const c = new McpClient({ name: 'detector', version: '1.0.0' }, { onError: () => undefined });
  clients.push(c);
  return c;
}

const trace = (requests: Recorded[]): string[] => requests.map((r) => `${r.method} ${r.url} ${methodOf(r) ?? ''}`.trim());

describe('httpTransportFactory', () => {
  test('a modern-only server: one discover POST, then calls', async () => {
    const server = await startServer(modernOnly(makeServer()));
    const factory = httpTransportFactory(server.url);
    const c = client();
    await c.connect(factory);
    expect(c.era).toBe('modern');
    expect(factory.kind).toBe('modern');
    expect((await c.callTool('add', { a: 2, b: 3 })).content).toEqual([{ type: 'text', text: '5' }]);
    expect(trace(server.requests)).toEqual(['POST /mcp server/discover', 'POST /mcp tools/call']);
  });

  test('a legacy Streamable HTTP server: discover refused, initialize opens a session; close sends DELETE', async () => {
    const endpoint = streamableOnly(makeServer);
    const server = await startServer(endpoint);
    const factory = httpTransportFactory(server.url);
    const c = client();
    await c.connect(factory);
    expect(c.era).toBe('legacy');
    expect(c.protocolVersion).toBe('2025-11-25');
    expect(factory.kind).toBe('streamable');
    expect((await c.callTool('add', { a: 40, b: 2 })).content).toEqual([{ type: 'text', text: '42' }]);
    await server.next((r) => r.method === 'GET');
    const sessionId = [...endpoint.sessions.keys()][0];
    expect(sessionId).toMatch(/^[0-9a-f-]{36}$/);
    await c.close();
    expect(trace(server.requests)).toEqual([
      'POST /mcp server/discover',
      'POST /mcp initialize',
      'POST /mcp notifications/initialized',
      'GET /mcp',
      'POST /mcp tools/call',
      'DELETE /mcp',
    ]);
    const session = server.requests[1]!;
    expect(session.headers['mcp-session-id']).toBeUndefined();
    for (const r of server.requests.slice(2)) {
      expect(r.headers['mcp-session-id']).toBe(sessionId);
      expect(r.headers['mcp-protocol-version']).toBe('2025-11-25');
    }
    expect(endpoint.sessions.size).toBe(0);
  });

  test('a 2024-11-05 HTTP+SSE server: POSTs refused, then GET yields the endpoint; the next connection goes straight to it', async () => {
    const server = await startServer(sseOnly(makeServer), '/sse');
    const cache = new MemoryHttpTransportCache();
    const factory = httpTransportFactory(server.url, { cache });
    const first = client();
    await first.connect(factory);
    expect(first.era).toBe('legacy');
    expect(first.protocolVersion).toBe('2025-11-25');
    expect(factory.kind).toBe('sse');
    expect((await first.callTool('add', { a: 1, b: 1 })).content).toEqual([{ type: 'text', text: '2' }]);
    await first.close();
    expect(trace(server.requests).slice(0, 3)).toEqual(['POST /sse server/discover', 'POST /sse initialize', 'GET /sse']);
    expect(cache.get(`${server.origin}/sse`)).toBe('sse');

    server.requests.length = 0;
    const eras = new MemoryEraCache();
    const second = new McpClient({ name: 'detector', version: '1.0.0' }, { eraCache: eras, onError: () => undefined });
    clients.push(second);
    await second.connect(httpTransportFactory(server.url, { cache }), { serverKey: factory.serverKey });
    // The modern probe is still a POST (refused), but the session initialize is skipped.
    expect(trace(server.requests).slice(0, 2)).toEqual(['POST /sse server/discover', 'GET /sse']);
    await second.close();
    // With the client's era cache as well, not even the discover probe is sent.
    server.requests.length = 0;
    await second.connect(httpTransportFactory(server.url, { cache }), { serverKey: factory.serverKey });
    expect(
      trace(server.requests)
        .filter((t) => t.startsWith('POST'))
        .map((t) => t.split(' ').pop()),
    ).toEqual(['initialize', 'notifications/initialized']);
  });

  test('a modern server that refuses this client (404 with -32601 for discover) is not mistaken for a legacy one', async () => {
    const server = await startServer((request, res) =>
      json(res, 404, { jsonrpc: '2.0', id: (request.json as { id: number }).id, error: { code: -32601, message: 'Method not found' } }),
    );
    const c = client();
    await expect(c.connect(httpTransportFactory(server.url))).rejects.toMatchObject({ code: -32601 });
    expect(trace(server.requests)).toEqual(['POST /mcp server/discover']);
  });

  test('an unsupported version answer makes the client initialize when only legacy versions are listed', async () => {
    const endpoint = streamableOnly(makeServer);
    const server = await startServer((request, res, raw) => {
      if (methodOf(request) === 'server/discover') {
        const error = {
          code: -32022,
          message: 'Unsupported protocol version',
          data: { supported: ['2025-06-18'], requested: '2026-07-28' },
        };
        return json(res, 400, { jsonrpc: '2.0', id: (request.json as { id: number }).id, error });
      }
      return endpoint(request, res, raw);
    });
    const c = client();
    await c.connect(httpTransportFactory(server.url, { standaloneStream: false }));
    expect(c.protocolVersion).toBe('2025-06-18');
    expect(trace(server.requests)).toEqual(['POST /mcp server/discover', 'POST /mcp initialize', 'POST /mcp notifications/initialized']);
  });

  test('no server at all: one attempt, a SEND_FAILED that says why, no fallback', async () => {
    const server = await startServer(() => undefined);
    const url = server.url;
    await server.close();
    const c = client();
    await expect(c.connect(httpTransportFactory(url))).rejects.toMatchObject({ code: 'SEND_FAILED' });
  });

  test('a server that refuses everything: modern, then a session, then HTTP+SSE, then the last refusal', async () => {
    const server = await startServer((_request, res) => void (res.writeHead(405), res.end()));
    const c = client();
    await expect(c.connect(httpTransportFactory(server.url))).rejects.toMatchObject({ code: 'HTTP_ERROR', details: { status: 405 } });
    expect(trace(server.requests)).toEqual(['POST /mcp server/discover', 'POST /mcp initialize', 'GET /mcp']);
    await expect(client().connect(httpTransportFactory(server.url, { legacySse: false }))).rejects.toMatchObject({
      code: 'HTTP_ERROR',
    });
  });
});
