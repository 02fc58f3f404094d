/**
 * `nodeFetch` against real sockets on 127.0.0.1: JSON and SSE bodies, headers in and out, abort before and after
 * the headers, a refused connection, and McpClient in both eras (sessions, SSE answers) over `createHttpHandler`.
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, test } from 'vitest';
import { McpClient } from '@wiremcp/client';
import { httpTransportFactory } from '../client/http-transport-factory.js';
import { testHandler } from '../server/http.test-util.js';
import { listen } from './listen.js';
import { nodeFetch, type NodeFetch } from './node-fetch.js';

const cleanups: Array<() => Promise<void> | void> = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

function fetcher(): NodeFetch {
  const fetch = nodeFetch();
  cleanups.push(() => fetch.close());
  return fetch;
}

async function plain(handler: (req: IncomingMessage, res: ServerResponse, body: string) => void): Promise<URL> {
  const server: Server = createServer((req, res) => {
    let body = '';
    req.setEncoding('utf8');
    req.on('data', (chunk: string) => (body += chunk));
    req.on('end', () => handler(req, res, body));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  cleanups.push(() => new Promise<void>((resolve) => server.close(() => resolve())));
  cleanups.push(() => void server.closeAllConnections());
  return new URL(`http://127.0.0.1:${(server.address() as AddressInfo).port}/mcp`);
}

describe('nodeFetch', () => {
  test('sends method, headers and body; reads status, headers and a JSON body', async () => {
    const url = await plain((req, res, body) => {
      res.writeHead(201, { 'content-type': 'application/json', 'x-echo': String(req.headers['x-test']), 'set-cookie': ['a=1', 'b=2'] });
      res.end(JSON.stringify({ method: req.method, body }));
    });
    const response = await fetcher()(url, { method: 'POST', headers: { 'x-test': 'yes' }, body: 'hello' });
    expect(response).toBeInstanceOf(Response);
    expect([response.status, response.ok, response.headers.get('x-echo'), response.headers.getSetCookie()]).toEqual([
      201,
      true,
      'yes',
      ['a=1', 'b=2'],
    ]);
    expect(await response.json()).toEqual({ method: 'POST', body: 'hello' });
    expect(response.bodyUsed).toBe(true);
    await expect(response.text()).rejects.toThrow(/already been read/);
  });

  test('each request goes to its own URL (path and query), whether given as a string or a URL, mutated or not', async () => {
    const url = await plain((req, res) => res.end(req.url));
    const fetch = fetcher();
    const get = async (input: string | URL): Promise<string> => (await fetch(input, { method: 'GET' })).text();
    const target = new URL('/a?x=1', url);
    expect([await get(url), await get(url.href), await get(target), await get(target)]).toEqual(['/mcp', '/mcp', '/a?x=1', '/a?x=1']);
    target.search = '?x=2';
    expect([await get(target), await get(`${url.origin}/b?y=2`)]).toEqual(['/a?x=2', '/b?y=2']);
  });

  test('an SSE body is readable as a stream while it is produced', async () => {
    let finish: (() => void) | undefined;
    const url = await plain((_req, res) => {
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      res.write('data: one\n\n');
      finish = () => res.end('data: two\n\n');
    });
    const response = await fetcher()(url, { method: 'GET' });
    const reader = response.body!.getReader();
    const first = await reader.read();
    expect(new TextDecoder().decode(first.value)).toBe('data: one\n\n');
    finish!();
    let rest = '';
    for (let chunk = await reader.read(); !chunk.done; chunk = await reader.read()) rest += new TextDecoder().decode(chunk.value);
    expect(rest).toBe('data: two\n\n');
  });

  test('a 204 has no body; a Headers object and a Uint8Array body are accepted', async () => {
    const url = await plain((req, res, body) => {
      res.writeHead(204, { 'x-got': `${String(req.headers['x-h'])}:${body}` });
      res.end();
    });
    const response = await fetcher()(url, {
      method: 'POST',
      headers: new Headers({ 'X-H': 'v' }),
      body: new TextEncoder().encode('bytes'),
    });
    expect([response.status, response.body, response.headers.get('x-got')]).toEqual([204, null, 'v:bytes']);
  });

  test('abort before the answer rejects with the reason; abort during the body fails the stream', async () => {
    let release: (() => void) | undefined;
    const url = await plain((req, res) => {
      if (req.url === '/mcp') return void (release = () => res.end('late'));
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      res.write('data: x\n\n');
    });
    const early = new AbortController();
    const pending = fetcher()(url, { method: 'GET', signal: early.signal });
    await expect.poll(() => release).toBeDefined();
    early.abort(new Error('stop'));
    await expect(pending).rejects.toThrow('stop');
    const late = new AbortController();
    const response = await fetcher()(new URL('/stream', url), { method: 'GET', signal: late.signal });
    const reader = response.body!.getReader();
    await reader.read();
    late.abort(new Error('gone'));
    await expect(reader.read()).rejects.toThrow();
    await expect(fetcher()(url, { method: 'GET', signal: late.signal })).rejects.toThrow('gone');
  });

  test('a refused connection is a TypeError with the network error as its cause; other schemes are refused', async () => {
    const url = await plain((_req, res) => res.end());
    const port = url.port;
    for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
    const error = (await fetcher()(`http://127.0.0.1:${port}/mcp`, { method: 'GET' }).catch((e: unknown) => e)) as TypeError;
    expect(error).toBeInstanceOf(TypeError);
    expect((error.cause as { code?: string }).code).toBe('ECONNREFUSED');
    await expect(fetcher()('file:///etc/passwd', { method: 'GET' })).rejects.toThrow(/scheme/);
  });

  test.each(['modern', 'legacy'] as const)('McpClient over httpTransportFactory with nodeFetch, %s era', async (era) => {
    const { handler } = testHandler();
    const listening = await listen(handler);
    cleanups.push(() => listening.close());
    const client = new McpClient({ name: 'node-fetch', version: '1.0.0' }, { era });
    cleanups.push(() => client.close());
    await client.connect(httpTransportFactory(listening.url, { fetch: fetcher(), standaloneStream: false }));
    expect(client.era).toBe(era);
    const calls = await Promise.all(Array.from({ length: 20 }, (_, i) => client.callTool('echo', { text: `t${i}` })));
    expect(calls.map((c) => c.content)).toEqual(Array.from({ length: 20 }, (_, i) => [{ type: 'text', text: `t${i}` }]));
  });
});
