// The Streamable HTTP client transport in a legacy session (2025-03-26 … 2025-11-25): the session id and version
// echoed, JSON or SSE answers, 202s, server requests on any stream answered by POST, the standalone GET stream
// (405 tolerated), DELETE on close, session expiry (an error, or a transparent new session), legacy
// cancellation, batches only on 2025-03-26.
import type { ServerResponse } from 'node:http';
import { afterEach, describe, expect, test } from 'vitest';
import { StreamableHttpClientTransport, type StreamableHttpClientOptions } from '../../src/client/index.js';
import { closeAllServers, event, json, methodOf, result, sse, startServer, type Recorded } from './http-server.test-util.js';
import { closeAllTransports, drive, turns } from './transport.test-util.js';

afterEach(async () => {
  await closeAllTransports();
  await closeAllServers();
});

const INIT = { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 't', version: '1' } };
const initResult = (version = '2025-11-25') => ({
  protocolVersion: version,
  capabilities: { tools: {} },
  serverInfo: { name: 's', version: '1' },
});

/** A scripted legacy server: `session` ids handed out in turn; `answer` serves requests in the session. */
async function legacyServer(
  answer: (request: Recorded, res: ServerResponse) => void,
  options: { version?: string; getStream?: (res: ServerResponse) => void } = {},
) {
  const ids = ['s-1', 's-2', 's-3'];
  let live = new Set<string>();
  const server = await startServer((request, res) => {
    const session = request.headers['mcp-session-id'];
    if (methodOf(request) === 'initialize') {
      const id = ids.shift()!;
      live.add(id);
      return json(res, 200, result(request, initResult(options.version)), { 'mcp-session-id': id });
    }
    if (session === undefined) return json(res, 400, { jsonrpc: '2.0', id: null, error: { code: -32000, message: 'No session' } });
    if (!live.has(session)) return void (res.writeHead(404), res.end());
    if (request.method === 'GET') {
      if (!options.getStream) return void (res.writeHead(405), res.end());
      return options.getStream(res);
    }
    if (request.method === 'DELETE') return void (res.writeHead(200), res.end());
    const body = request.json as { id?: unknown; method?: unknown };
    if (!Array.isArray(body) && (body.id === undefined || body.method === undefined)) return void (res.writeHead(202), res.end());
    answer(request, res);
  });
  return { server, expire: () => (live = new Set()) };
}

async function initialized(url: string, options: StreamableHttpClientOptions = {}) {
  const driven = await drive(new StreamableHttpClientTransport(url, options));
  const init = await driven.request(0, 'initialize', INIT);
  await driven.transport.send({ jsonrpc: '2.0', method: 'notifications/initialized' });
  return { driven, init };
}

describe('legacy sessions', () => {
  test('initialize captures the session and version; later requests echo both; JSON and SSE answers; close sends DELETE', async () => {
    const { server } = await legacyServer((request, res) => {
      if (methodOf(request) === 'tools/list') return json(res, 200, result(request, { tools: [] }));
      sse(res);
      event(res, { jsonrpc: '2.0', method: 'notifications/message', params: { level: 'info', data: 'working' } });
      event(res, result(request, { content: [] }));
      res.end();
    });
    const { driven, init } = await initialized(server.url, { standaloneStream: false });
    expect(init.result).toEqual(initResult());
    expect(driven.transport.sessionId).toBe('s-1');
    expect(driven.transport.protocolVersion).toBe('2025-11-25');
    expect((await driven.request(1, 'tools/list', {})).result).toEqual({ tools: [] });
    expect((await driven.request(2, 'tools/call', { name: 'x' })).result).toEqual({ content: [] });
    expect(driven.messages).toContainEqual({ jsonrpc: '2.0', method: 'notifications/message', params: { level: 'info', data: 'working' } });
    await driven.transport.close();
    const [initialize, ...rest] = server.requests;
    expect(initialize!.headers['mcp-session-id']).toBeUndefined();
    expect(initialize!.headers['mcp-protocol-version']).toBeUndefined();
    expect(initialize!.headers.accept).toBe('application/json, text/event-stream');
    expect(rest.map((r) => `${r.method} ${methodOf(r) ?? ''}`.trim())).toEqual([
      'POST notifications/initialized',
      'POST tools/list',
      'POST tools/call',
      'DELETE',
    ]);
    for (const r of rest) expect(r.headers).toMatchObject({ 'mcp-session-id': 's-1', 'mcp-protocol-version': '2025-11-25' });
  });

  test('a server request on a POST stream is delivered, and its answer POSTed in the session', async () => {
    const { server } = await legacyServer((request, res) => {
      if (methodOf(request) === 'tools/call') {
        sse(res);
        event(res, { jsonrpc: '2.0', id: 'srv-1', method: 'roots/list' });
        void server
          .next((r) => (r.json as { id?: unknown }).id === 'srv-1')
          .then(() => {
            event(res, result(request, { content: [{ type: 'text', text: 'done' }] }));
            res.end();
          });
      }
    });
    const { driven } = await initialized(server.url, { standaloneStream: false });
    const call = driven.request(1, 'tools/call', { name: 'needs-roots' });
    const asked = await driven.delivered((m) => m.method === 'roots/list');
    await driven.transport.send({ jsonrpc: '2.0', id: asked.id as string, result: { roots: [] } }, { relatedRequestId: 1 });
    expect((await call).result).toEqual({ content: [{ type: 'text', text: 'done' }] });
    const posted = server.requests.find((r) => (r.json as { id?: unknown }).id === 'srv-1')!;
    expect(posted.headers['mcp-session-id']).toBe('s-1');
  });

  test('the standalone GET stream opens after notifications/initialized and delivers; a 405 is accepted quietly', async () => {
    let stream: ServerResponse | undefined;
    const { server } = await legacyServer(() => undefined, {
      getStream: (res) => {
        stream = res;
        sse(res);
        event(res, { jsonrpc: '2.0', method: 'notifications/tools/list_changed' }, 'g-1');
      },
    });
    const { driven } = await initialized(server.url);
    await driven.delivered((m) => m.method === 'notifications/tools/list_changed');
    const get = server.requests.find((r) => r.method === 'GET')!;
    expect(get.headers).toMatchObject({ accept: 'text/event-stream', 'mcp-session-id': 's-1', 'mcp-protocol-version': '2025-11-25' });
    expect(stream).toBeDefined();

    const refused = await legacyServer(() => undefined);
    const other = await initialized(refused.server.url);
    await refused.server.next((r) => r.method === 'GET');
    await turns(10);
    expect(refused.server.requests.filter((r) => r.method === 'GET')).toHaveLength(1);
    expect(other.driven.errors).toEqual([]);
  });

  test('404 on the session: SESSION_EXPIRED, and the transport closes with that reason (no DELETE)', async () => {
    const { server, expire } = await legacyServer((request, res) => json(res, 200, result(request, {})));
    const { driven } = await initialized(server.url, { standaloneStream: false });
    expire();
    await expect(driven.request(1, 'tools/list', {})).rejects.toMatchObject({ code: 'SESSION_EXPIRED' });
    await turns();
    expect(driven.closed).toBe(true);
    expect(driven.transport.closeReason).toMatchObject({ code: 'SESSION_EXPIRED' });
    await expect(driven.transport.send({ jsonrpc: '2.0', id: 2, method: 'tools/list' })).rejects.toMatchObject({ code: 'NOT_CONNECTED' });
    expect(server.requests.some((r) => r.method === 'DELETE')).toBe(false);
  });

  test('404 with onSessionExpired "reinitialize": the same initialize again, then the request, transparently', async () => {
    const { server, expire } = await legacyServer((request, res) => json(res, 200, result(request, { tools: [] })));
    const { driven } = await initialized(server.url, { standaloneStream: false, onSessionExpired: 'reinitialize' });
    expire();
    const [a, b] = await Promise.all([driven.request(1, 'tools/list', {}), driven.request(2, 'tools/list', {})]);
    expect(a.result).toEqual({ tools: [] });
    expect(b.result).toEqual({ tools: [] });
    expect(driven.transport.sessionId).toBe('s-2');
    const initializes = server.requests.filter((r) => methodOf(r) === 'initialize');
    expect(initializes).toHaveLength(2);
    expect((initializes[1]!.json as { params: unknown }).params).toEqual(INIT);
    expect(typeof (initializes[1]!.json as { id: unknown }).id).toBe('string');
    expect(server.requests.filter((r) => methodOf(r) === 'notifications/initialized')).toHaveLength(2);
    // The engine saw its own responses only: not the private initialize.
    expect(driven.messages.filter((m) => (m as { id?: unknown }).id !== 0)).toEqual([
      { jsonrpc: '2.0', id: 1, result: { tools: [] } },
      { jsonrpc: '2.0', id: 2, result: { tools: [] } },
    ]);
  });

  test('a JSON-RPC error body in the session is the answer; initialize refused is an HTTP_ERROR with its status', async () => {
    const { server } = await legacyServer((request, res) =>
      json(res, 400, { jsonrpc: '2.0', id: (request.json as { id: number }).id, error: { code: -32602, message: 'Unknown tool' } }),
    );
    const { driven } = await initialized(server.url, { standaloneStream: false });
    expect((await driven.request(1, 'tools/call', { name: 'nope' })).error).toEqual({ code: -32602, message: 'Unknown tool' });
    const refused = await startServer((_r, res) =>
      json(res, 404, { jsonrpc: '2.0', id: 0, error: { code: -32601, message: 'Method not found' } }),
    );
    const other = await drive(new StreamableHttpClientTransport(refused.url));
    await expect(other.request(0, 'initialize', INIT)).rejects.toMatchObject({ code: 'HTTP_ERROR', details: { status: 404 } });
    const badSession = await startServer((request, res) => json(res, 200, result(request, initResult()), { 'mcp-session-id': 'bad id' }));
    const third = await drive(new StreamableHttpClientTransport(badSession.url));
    await expect(third.request(0, 'initialize', INIT)).rejects.toMatchObject({ code: 'PROTOCOL_VIOLATION' });
  });

  test('cancellation aborts the POST, and notifications/cancelled is posted in the session', async () => {
    const { server } = await legacyServer((_request, res) => sse(res));
    const { driven } = await initialized(server.url, { standaloneStream: false });
    const call = driven.request(1, 'tools/call', { name: 'slow' });
    await server.next((r) => methodOf(r) === 'tools/call');
    driven.transport.cancelRequest(1);
    await expect(call).rejects.toMatchObject({ code: 'REQUEST_CANCELLED' });
    await driven.transport.send({ jsonrpc: '2.0', method: 'notifications/cancelled', params: { requestId: 1, reason: 'user' } });
    const cancelled = await server.next((r) => methodOf(r) === 'notifications/cancelled');
    expect(cancelled.headers['mcp-session-id']).toBe('s-1');
  });

  test('batches: only on 2025-03-26, answered as a JSON array', async () => {
    const { server } = await legacyServer(
      (request, res) => {
        const batch = request.json as Array<{ id: number }>;
        json(
          res,
          200,
          batch.map((m) => ({ jsonrpc: '2.0', id: m.id, result: { n: m.id } })),
        );
      },
      { version: '2025-03-26' },
    );
    const { driven } = await initialized(server.url, { standaloneStream: false });
    await driven.transport.send([
      { jsonrpc: '2.0', id: 1, method: 'ping' },
      { jsonrpc: '2.0', id: 2, method: 'ping' },
    ]);
    expect(driven.messages.slice(-2)).toEqual([
      { jsonrpc: '2.0', id: 1, result: { n: 1 } },
      { jsonrpc: '2.0', id: 2, result: { n: 2 } },
    ]);
    const modernOnly = await legacyServer(() => undefined);
    const other = await initialized(modernOnly.server.url, { standaloneStream: false });
    await expect(other.driven.transport.send([{ jsonrpc: '2.0', method: 'notifications/x' }])).rejects.toMatchObject({
      code: 'INVALID_ARGUMENT',
    });
  });
});
