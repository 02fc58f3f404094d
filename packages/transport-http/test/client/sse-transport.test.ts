// The 2024-11-05 HTTP+SSE client transport: GET, the endpoint event (same origin only), POSTs to it, messages
// from the stream; every way it can fail to start; the end of the stream closes it.
import type { ServerResponse } from 'node:http';
import { afterEach, describe, expect, test } from 'vitest';
import { SseClientTransport } from '../../src/client/index.js';
import { closeAllServers, event, sse, startServer } from './http-server.test-util.js';
import { closeAllTransports, drive } from './transport.test-util.js';

afterEach(async () => {
  await closeAllTransports();
  await closeAllServers();
});

describe('SseClientTransport', () => {
  test('POSTs go to the endpoint the stream named; answers come on the stream', async () => {
    let stream: ServerResponse | undefined;
    const server = await startServer((request, res) => {
      if (request.method === 'GET') {
        stream = res;
        sse(res);
        res.write(': hello\n\nevent: endpoint\ndata: /messages?session=abc\n\n');
        return;
      }
      res.writeHead(202);
      res.end('Accepted');
      const body = request.json as { id?: number };
      if (body.id !== undefined) event(stream!, { jsonrpc: '2.0', id: body.id, result: { echoed: request.url } });
    }, '/sse');
    const driven = await drive(new SseClientTransport(server.url, { headers: { 'X-Key': 'k' } }));
    expect(driven.transport.endpoint?.href).toBe(`${server.origin}/messages?session=abc`);
    expect((await driven.request(1, 'initialize', {})).result).toEqual({ echoed: '/messages?session=abc' });
    const [get, post] = server.requests;
    expect(get!.headers).toMatchObject({ accept: 'text/event-stream', 'x-key': 'k' });
    expect(post!.headers).toMatchObject({ 'content-type': 'application/json', 'x-key': 'k' });
    expect(post!.json).toEqual({ jsonrpc: '2.0', id: 1, method: 'initialize', params: {} });
  });

  test('an endpoint on another origin is refused before anything is posted', async () => {
    const server = await startServer((_request, res) => {
      sse(res);
      res.write('event: endpoint\ndata: http://attacker.example/steal\n\n');
    });
    await expect(new SseClientTransport(server.url).start()).rejects.toMatchObject({
      code: 'PROTOCOL_VIOLATION',
      message: expect.stringContaining('another origin'),
    });
    expect(server.requests.map((r) => r.method)).toEqual(['GET']);
  });

  test('failures to start: an HTTP status, a content type, a stream that ends or says nothing in time', async () => {
    let mode = '';
    const server = await startServer((_request, res) => {
      if (mode === 'status') return void (res.writeHead(404), res.end());
      if (mode === 'type') return void (res.writeHead(200, { 'content-type': 'application/json' }), res.end('{}'));
      sse(res);
      if (mode === 'ends') res.end('data: {"jsonrpc":"2.0","method":"early"}\n\n');
    });
    mode = 'status';
    await expect(new SseClientTransport(server.url).start()).rejects.toMatchObject({ code: 'HTTP_ERROR', details: { status: 404 } });
    mode = 'type';
    await expect(new SseClientTransport(server.url).start()).rejects.toMatchObject({ code: 'UNSUPPORTED_CONTENT_TYPE' });
    mode = 'ends';
    await expect(new SseClientTransport(server.url).start()).rejects.toMatchObject({ code: 'CONNECTION_CLOSED' });
    mode = 'silent';
    await expect(new SseClientTransport(server.url, { endpointTimeoutMs: 30 }).start()).rejects.toMatchObject({
      code: 'CONNECTION_CLOSED',
      message: expect.stringContaining('No endpoint event'),
    });
  });

  test('the end of the stream closes the transport with CONNECTION_CLOSED; a refused POST is an HTTP_ERROR', async () => {
    let stream: ServerResponse | undefined;
    const server = await startServer((request, res) => {
      if (request.method === 'GET') {
        stream = res;
        sse(res);
        return void res.write('event: endpoint\ndata: /post\n\n');
      }
      res.writeHead(400, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ jsonrpc: '2.0', error: { code: -32600, message: 'Invalid request' } }));
    });
    const driven = await drive(new SseClientTransport(server.url));
    await expect(driven.transport.send({ jsonrpc: '2.0', method: 'notifications/initialized' })).rejects.toMatchObject({
      code: 'HTTP_ERROR',
      details: { status: 400, error: { code: -32600 } },
    });
    const closed = new Promise<void>((resolve) => (driven.transport.onclose = resolve));
    stream!.end();
    await closed;
    expect(driven.transport.closeReason).toMatchObject({ code: 'CONNECTION_CLOSED' });
    await expect(driven.transport.send({ jsonrpc: '2.0', method: 'x' })).rejects.toMatchObject({ code: 'NOT_CONNECTED' });
  });
});
