/**
 * The node adapter with real sockets on 127.0.0.1: `listen` (loopback by default, DNS-rebinding protection on),
 * SSE written as it is produced, client disconnects, Express-style middleware, HTTP/2, and a bounded shutdown.
 */
import { Agent, request as httpRequest, type IncomingMessage } from 'node:http';
import { connect as http2Connect, createServer as createHttp2Server } from 'node:http2';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, test } from 'vitest';
import { createHttpHandler } from '../server/http-handler.js';
import {
  BOTH,
  deferred,
  initialize,
  meta,
  modernHeaders,
  SseReader,
  testHandler,
  testServer,
  viaSocket,
} from '../server/http.test-util.js';
import { listen, type Listening } from './listen.js';
import { toNodeHandler } from './to-node-handler.js';

const cleanups: Array<() => Promise<void> | void> = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

async function serve(options: Parameters<typeof testHandler>[0] = {}) {
  const setup = testHandler(options);
  const listening = await listen(setup.handler);
  cleanups.push(() => listening.close());
  return { ...setup, listening };
}

const listBody = JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list', params: { _meta: meta() } });

/** A raw request (node:http), so that any Host can be sent. */
function raw(
  listening: Listening,
  headers: Record<string, string>,
  body?: string,
  agent?: Agent,
): Promise<{ status: number; text: string }> {
  return new Promise((resolve, reject) => {
    const req = httpRequest(
      { host: '127.0.0.1', port: listening.address.port, path: '/mcp', method: body === undefined ? 'GET' : 'POST', headers, agent },
      (res) => {
        let text = '';
        res.setEncoding('utf8');
        res.on('data', (chunk: string) => (text += chunk));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, text }));
      },
    );
    req.on('error', reject);
    req.end(body);
  });
}

describe('listen', () => {
  test('binds 127.0.0.1 on a free port by default and names the endpoint', async () => {
    const { listening } = await serve();
    expect(listening.address.address).toBe('127.0.0.1');
    expect(listening.url.href).toBe(`http://127.0.0.1:${listening.address.port}/mcp`);
    const response = await fetch(listening.url, { method: 'POST', headers: modernHeaders('tools/list'), body: listBody });
    expect(response.status).toBe(200);
  });

  test('DNS-rebinding protection: a foreign Host or Origin is refused, the real ones served', async () => {
    const { listening } = await serve();
    const port = listening.address.port;
    const headers = modernHeaders('tools/list');
    expect((await raw(listening, { ...headers, host: 'evil.example.com' }, listBody)).status).toBe(403);
    expect((await raw(listening, { ...headers, host: `evil.example.com:${port}` }, listBody)).status).toBe(403);
    expect((await raw(listening, { ...headers, host: `localhost:${port}`, origin: 'http://evil.example.com' }, listBody)).status).toBe(403);
    expect((await raw(listening, { ...headers, host: `localhost:${port}`, origin: `http://localhost:${port}` }, listBody)).status).toBe(
      200,
    );
    expect((await raw(listening, { ...headers, host: `127.0.0.1:${port}` }, listBody)).status).toBe(200);
  });

  test('DNS-rebinding protection on one kept-alive socket: every request whose Host differs is checked again', async () => {
    const { listening } = await serve();
    const port = listening.address.port;
    const headers = modernHeaders('tools/list');
    let sockets = 0;
    listening.server.on('connection', () => (sockets += 1));
    const agent = new Agent({ keepAlive: true, maxSockets: 1 });
    cleanups.push(() => agent.destroy());
    const statuses: number[] = [];
    for (const host of [
      `127.0.0.1:${port}`,
      'evil.example.com',
      `127.0.0.1:${port}`,
      `evil.example.com:${port}`,
      `localhost:${port}`,
      `127.0.0.1:1`,
    ]) {
      statuses.push((await raw(listening, { ...headers, host }, listBody, agent)).status);
    }
    expect(statuses).toEqual([200, 403, 200, 403, 200, 403]);
    // The refusals are JSON-RPC answers on a connection that stays open: every request came on the same socket.
    expect(sockets).toBe(1);
  });

  test('close() ends open streams and sessions, and finishes', async () => {
    const { handler, listening } = await serve();
    const session = await initialize(viaSocket(listening.url));
    const standalone = await fetch(listening.url, { headers: { accept: 'text/event-stream', 'mcp-session-id': session } });
    const listen = await fetch(listening.url, {
      method: 'POST',
      headers: modernHeaders('subscriptions/listen'),
      body: JSON.stringify({
        jsonrpc: '2.0',
        id: 2,
        method: 'subscriptions/listen',
        params: { notifications: { toolsListChanged: true }, _meta: meta() },
      }),
    });
    const readers = [new SseReader(standalone), new SseReader(listen)];
    await Promise.all(readers.map((reader) => reader.next()));
    expect(handler.stats).toEqual({ sessions: 1, openStreams: 2 });
    await listening.close();
    await Promise.all(readers.map((reader) => reader.all().catch(() => [])));
    expect(handler.stats).toEqual({ sessions: 0, openStreams: 0 });
    expect(listening.server.listening).toBe(false);
  });
});

test('close() is bounded: a request that never finishes is cut after shutdownGraceMs, which cancels it', async () => {
  const setup = testHandler();
  const listening = await listen(setup.handler, { shutdownGraceMs: 100 });
  const pending = fetch(listening.url, {
    method: 'POST',
    headers: modernHeaders('tools/call', 'wait'),
    body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'wait', arguments: {}, _meta: meta() } }),
  }).catch((error: unknown) => error);
  await setup.probe.started.promise;
  await listening.close();
  expect(await pending).toBeInstanceOf(Error);
  await setup.probe.abort.promise;
  expect(setup.probe.aborted).toBe(1);
});

describe('streams and disconnects', () => {
  test('SSE events reach the client as they are sent, before the response ends', async () => {
    const { listening, probe } = await serve();
    const response = await fetch(listening.url, {
      method: 'POST',
      headers: modernHeaders('tools/call', 'wait'),
      body: JSON.stringify({
        jsonrpc: '2.0',
        id: 1,
        method: 'tools/call',
        params: { name: 'wait', arguments: {}, _meta: meta({ progressToken: 1 }) },
      }),
    });
    const reader = new SseReader(response);
    expect((await reader.next())?.message?.method).toBe('notifications/progress');
    probe.release.resolve();
    expect((await reader.all()).at(-1)?.message).toMatchObject({ id: 1, result: { content: [{ text: 'released' }] } });
  });

  test('a client that disconnects aborts the 2026-07-28 request it was waiting for', async () => {
    const { listening, probe } = await serve();
    const controller = new AbortController();
    const pending = fetch(listening.url, {
      method: 'POST',
      headers: modernHeaders('tools/call', 'wait'),
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'wait', arguments: {}, _meta: meta() } }),
      signal: controller.signal,
    });
    await probe.started.promise;
    controller.abort();
    await expect(pending).rejects.toThrow();
    await probe.abort.promise;
    expect(probe.aborted).toBe(1);
  });
});

describe('as middleware', () => {
  test('passes requests for other paths to next(); serves its own', async () => {
    const node = toNodeHandler(createHttpHandler(testServer().server));
    const passed = deferred<string>();
    const server = (await import('node:http')).createServer((req, res) => {
      node(req, res, () => {
        passed.resolve(req.url ?? '');
        res.writeHead(418).end();
      });
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    cleanups.push(() => new Promise<void>((resolve) => server.close(() => resolve())));
    const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    expect((await fetch(`${base}/health`)).status).toBe(418);
    expect(await passed.promise).toBe('/health');
    expect((await fetch(`${base}/mcp`, { method: 'POST', headers: modernHeaders('tools/list'), body: listBody })).status).toBe(200);
  });
});

describe('any fetch handler', () => {
  test('gets a complete web Request (body, headers, a signal that aborts when the client leaves); its Response is written', async () => {
    const aborted = deferred();
    const entered = deferred();
    const node = toNodeHandler(async (request) => {
      if (request.method === 'GET') {
        request.signal.addEventListener('abort', () => aborted.resolve());
        entered.resolve();
        return new Promise<Response>(() => {});
      }
      const headers = new Headers({ 'x-seen': request.headers.get('x-test') ?? '' });
      headers.append('set-cookie', 'a=1');
      headers.append('set-cookie', 'b=2');
      return new Response(`echo ${await request.text()}`, { status: 201, headers });
    });
    const server = (await import('node:http')).createServer((req, res) => node(req, res));
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    cleanups.push(() => new Promise<void>((resolve) => server.close(() => resolve())));
    const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    const response = await fetch(`${base}/any`, { method: 'POST', headers: { 'x-test': 'yes' }, body: 'hello' });
    expect(response.status).toBe(201);
    expect(response.headers.get('x-seen')).toBe('yes');
    expect(response.headers.getSetCookie()).toEqual(['a=1', 'b=2']);
    expect(await response.text()).toBe('echo hello');
    const leaving = new AbortController();
    const pending = fetch(`${base}/wait`, { signal: leaving.signal }).catch(() => undefined);
    await entered.promise;
    leaving.abort();
    await aborted.promise;
    await pending;
    server.closeAllConnections();
  });
});

describe('HTTP/2', () => {
  test('a 2026-07-28 request and an SSE listen stream over h2c', async () => {
    const { handler, server } = testHandler();
    const h2 = createHttp2Server(toNodeHandler(handler));
    await new Promise<void>((resolve) => h2.listen(0, '127.0.0.1', resolve));
    const session = http2Connect(`http://127.0.0.1:${(h2.address() as AddressInfo).port}`);
    cleanups.push(
      () => new Promise<void>((resolve) => h2.close(() => resolve())),
      () => void session.close(),
      () => handler.close(0),
    );
    const exchange = (
      body: string,
      method: string,
    ): Promise<{ headers: Record<string, unknown>; stream: ReturnType<typeof session.request> }> =>
      new Promise((resolve) => {
        const stream = session.request({ ':method': 'POST', ':path': '/mcp', ...modernHeaders(method) });
        stream.on('response', (headers) => resolve({ headers, stream }));
        stream.end(body);
      });
    const list = await exchange(listBody, 'tools/list');
    expect(list.headers[':status']).toBe(200);
    let text = '';
    for await (const chunk of list.stream) text += String(chunk);
    expect(JSON.parse(text)).toMatchObject({ id: 1, result: { tools: expect.any(Array) } });

    const listen = await exchange(
      JSON.stringify({
        jsonrpc: '2.0',
        id: 5,
        method: 'subscriptions/listen',
        params: { notifications: { toolsListChanged: true }, _meta: meta() },
      }),
      'subscriptions/listen',
    );
    expect(listen.headers['content-type']).toBe('text/event-stream');
    const chunks = listen.stream[Symbol.asyncIterator]();
    expect(String((await chunks.next()).value)).toContain('notifications/subscriptions/acknowledged');
    server.registerTool({ name: 'h2_tool', inputSchema: { type: 'object' } }, () => ({ content: [] }));
    expect(String((await chunks.next()).value)).toContain('notifications/tools/list_changed');
    listen.stream.close();
  });
});

describe('hostile input (bounded in count and time)', () => {
  test('a declared Content-Length over the limit is refused before the body is read', async () => {
    const { listening } = await serve({ maxBodyBytes: 1024 });
    const status = await new Promise<number>((resolve, reject) => {
      const req = httpRequest({
        host: '127.0.0.1',
        port: listening.address.port,
        path: '/mcp',
        method: 'POST',
        headers: { ...modernHeaders('tools/list'), 'content-length': String(50 * 1024 * 1024) },
      });
      req.on('response', (res: IncomingMessage) => resolve(res.statusCode ?? 0));
      req.on('error', reject);
      req.write('{'); // nothing more is ever sent
    });
    expect(status).toBe(413);
  });

  test('a chunked body that grows past the limit is cut off with 413', async () => {
    const { listening } = await serve({ maxBodyBytes: 64 * 1024 });
    const status = await new Promise<number>((resolve) => {
      const req = httpRequest({
        host: '127.0.0.1',
        port: listening.address.port,
        path: '/mcp',
        method: 'POST',
        headers: modernHeaders('tools/list'),
      });
      req.on('response', (res: IncomingMessage) => resolve(res.statusCode ?? 0));
      req.on('error', () => resolve(-1));
      const chunk = 'x'.repeat(16 * 1024);
      for (let i = 0; i < 64; i++) req.write(chunk); // 1 MiB offered; the server stops reading at 64 KiB
    });
    expect(status).toBe(413);
  });

  test('a body that never finishes (slowloris) gets 408 at the body deadline', async () => {
    const { listening } = await serve({ bodyTimeoutMs: 100 });
    const status = await new Promise<number>((resolve, reject) => {
      const req = httpRequest({
        host: '127.0.0.1',
        port: listening.address.port,
        path: '/mcp',
        method: 'POST',
        headers: { ...modernHeaders('tools/list'), 'content-length': '100' },
      });
      req.on('response', (res: IncomingMessage) => resolve(res.statusCode ?? 0));
      req.on('error', reject);
      req.write('{"jsonrpc":');
    });
    expect(status).toBe(408);
  });

  test('many sessions: beyond maxSessions every initialize gets 503, and the held ones still work', async () => {
    const { listening, handler } = await serve({ maxSessions: 20 });
    const statuses = await Promise.all(
      Array.from({ length: 40 }, () =>
        fetch(listening.url, {
          method: 'POST',
          headers: { 'content-type': 'application/json', accept: BOTH },
          body: JSON.stringify({
            jsonrpc: '2.0',
            id: 1,
            method: 'initialize',
            params: { protocolVersion: '2025-11-25', capabilities: {} },
          }),
        }).then((response) => response.status),
      ),
    );
    expect(statuses.filter((status) => status === 200)).toHaveLength(20);
    expect(statuses.filter((status) => status === 503)).toHaveLength(20);
    expect(handler.stats.sessions).toBe(20);
  });

  test('many streams: beyond maxOpenStreams every listen gets 503', async () => {
    const { listening, handler } = await serve({ maxOpenStreams: 10 });
    const responses = await Promise.all(
      Array.from({ length: 15 }, (_, id) =>
        fetch(listening.url, {
          method: 'POST',
          headers: modernHeaders('subscriptions/listen'),
          body: JSON.stringify({
            jsonrpc: '2.0',
            id,
            method: 'subscriptions/listen',
            params: { notifications: { toolsListChanged: true }, _meta: meta() },
          }),
        }),
      ),
    );
    expect(responses.filter((response) => response.status === 200)).toHaveLength(10);
    expect(responses.filter((response) => response.status === 503)).toHaveLength(5);
    expect(handler.stats.openStreams).toBe(10);
    await Promise.all(responses.map((response) => response.body?.cancel()));
  });
});
