import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { exchange, exchangeRequest, withQuery } from './http-exchange.js';

let server: Server | undefined;

afterEach(async () => {
  await new Promise<void>((resolve) => (server ? server.close(() => resolve()) : resolve()));
  server = undefined;
});

async function listen(handler: (req: IncomingMessage, body: string) => { status: number; type?: string; body: string }): Promise<string> {
  server = createServer((req, res) => {
    let body = '';
    req.on('data', (chunk: Buffer) => (body += chunk.toString('utf8')));
    req.on('end', () => {
      const answer = handler(req, body);
      res.writeHead(answer.status, answer.type ? { 'content-type': answer.type, 'x-seen-method': req.method ?? '' } : {});
      // An SSE answer stays open after its first event: the exchange must not wait for its end.
      if (answer.type === 'text/event-stream') res.write(answer.body);
      else res.end(answer.body);
    });
  });
  await new Promise<void>((resolve) => server!.listen(0, '127.0.0.1', resolve));
  server.unref();
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}/mcp`;
}

describe('exchange', () => {
  it('sends the method, headers and body as given and parses a JSON answer', async () => {
    const url = await listen((req, body) => ({
      status: 400,
      type: 'application/json',
      body: JSON.stringify({ echo: body, origin: req.headers['origin'] }),
    }));
    const response = await exchange(url, { method: 'POST', headers: { origin: 'http://x.example' }, body: 'not json' }, 2000);
    expect(response.status).toBe(400);
    expect(response.headers['x-seen-method']).toBe('POST');
    expect(response.body).toEqual({ echo: 'not json', origin: 'http://x.example' });
  });

  it('reads an SSE answer up to its first message event', async () => {
    const url = await listen(() => ({ status: 200, type: 'text/event-stream', body: ': hi\n\nid: 1\ndata: \n\ndata: {"id":2}\n\n' }));
    const response = await exchange(url, { method: 'GET', headers: {} }, 2000);
    expect(response.body).toEqual({ id: 2 });
  });

  it('gives an empty body as the empty string and text as text', async () => {
    const url = await listen((req) => ({ status: req.method === 'DELETE' ? 204 : 405, body: req.method === 'DELETE' ? '' : 'nope' }));
    expect(await exchange(url, { method: 'DELETE', headers: {} }, 2000)).toMatchObject({ status: 204, body: '' });
    expect(await exchange(url, { method: 'PUT', headers: {} }, 2000)).toMatchObject({ status: 405, body: 'nope' });
  });

  it('reads a given number of SSE events of any type', async () => {
    const url = await listen(() => ({
      status: 200,
      type: 'text/event-stream',
      body: 'event: endpoint\ndata: /messages?sessionId=a\n\n: ping\n\n',
    }));
    const response = await exchange(url, { method: 'GET', headers: {}, sseEvents: 1 }, 2000);
    expect(response.events).toEqual([{ event: 'endpoint', data: '/messages?sessionId=a' }]);
    expect(response.body).toBe('');
  });

  it.each([false, true])('reads an answer sent while the body is still uploading (chunked: %s)', async (chunked) => {
    const seen: Array<string | undefined> = [];
    server = createServer((req, res) => {
      seen.push(req.headers['content-length'] ?? req.headers['transfer-encoding']);
      // Answers at once without reading the body, then closes the connection in stages (as a 413 should).
      res.writeHead(413, { 'content-type': 'application/json', connection: 'close' });
      res.end('{"error":"too large"}');
      req.resume();
    });
    await new Promise<void>((resolve) => server!.listen(0, '127.0.0.1', resolve));
    server.unref();
    const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/mcp`;
    const body = new Uint8Array(3 * 1024 * 1024).fill(0x20);
    const response = await exchange(url, { method: 'POST', headers: {}, body, chunked }, 5000);
    expect(response).toMatchObject({ status: 413, body: { error: 'too large' } });
    expect(seen).toEqual([chunked ? 'chunked' : String(body.byteLength)]);
  });

  it('refuses a body over its upload bound without sending it', async () => {
    const url = await listen(() => ({ status: 200, body: '' }));
    await expect(exchange(url, { method: 'POST', headers: {}, body: new Uint8Array(64 * 1024 * 1024 + 1) }, 2000)).rejects.toThrow(/bound/);
  });
});

describe('withQuery and exchangeRequest', () => {
  it('lay the step over the session: set, replace and remove', () => {
    expect(withQuery('http://h/m?sessionId=a&x=1', { sessionId: null, y: '2' })).toBe('http://h/m?x=1&y=2');
    expect(withQuery('http://h/m?sessionId=a', undefined)).toBe('http://h/m?sessionId=a');
    const request = exchangeRequest(
      { method: 'POST', headers: { Accept: 'text/plain', 'mcp-session-id': null } },
      { accept: 'x', 'mcp-session-id': 's' },
    );
    expect(request).toEqual({ method: 'POST', headers: { accept: 'text/plain' } });
  });
});
