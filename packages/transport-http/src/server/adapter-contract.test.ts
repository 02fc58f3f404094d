/**
 * The adapter contract and the fetch adapter: reply headers with the semantics of `Headers` (cookies apart), replies
 * turned into web responses and back, and a web request read under a limit, cancelled at a deadline, and heard when
 * its client goes away.
 */
import { describe, expect, test } from 'vitest';
import { HttpReply, ReplyHeaders } from './adapter-contract.js';
import { replyFromWeb, WebHttpRequest, webResponse } from './fetch-adapter.js';
import { emptyResponse, jsonResponse, rpcErrorResponse } from './responses.js';

function entriesOf(headers: Headers): Array<[string, string]> {
  const entries: Array<[string, string]> = [];
  headers.forEach((value, name) => entries.push([name, value]));
  return entries;
}

describe('ReplyHeaders', () => {
  test('names are case-insensitive; append joins with a comma, as Headers does', () => {
    const headers = new ReplyHeaders({ 'Content-Type': 'application/json', Vary: 'Accept' });
    headers.append('VARY', 'Origin');
    headers.set('Mcp-Session-Id', 'abc');
    expect(headers.get('vary')).toBe('Accept, Origin');
    headers.delete('mcp-session-id');
    expect(headers.get('Mcp-Session-Id')).toBeNull();
    const web = new Headers({ 'Content-Type': 'application/json', Vary: 'Accept' });
    web.append('vary', 'Origin');
    expect(entriesOf(new Headers(headers.pairs()))).toEqual(entriesOf(web));
  });

  test('cookies stay separate, as Headers keeps them', () => {
    const headers = new ReplyHeaders();
    headers.append('set-cookie', 'a=1');
    headers.append('Set-Cookie', 'b=2');
    expect(headers.cookies()).toEqual(['a=1', 'b=2']);
    expect(headers.get('set-cookie')).toBe('a=1, b=2');
    expect(headers.record).toEqual({});
    expect(new Headers(headers.pairs()).getSetCookie()).toEqual(['a=1', 'b=2']);
  });
});

describe('the fetch adapter', () => {
  test('a reply becomes a web response with the same status, headers and body', async () => {
    const reply = jsonResponse(200, '{"ok":true}');
    reply.headers.set('access-control-allow-origin', 'http://localhost:3000');
    reply.headers.append('vary', 'Origin');
    const response = webResponse(reply);
    expect(response.status).toBe(200);
    expect(Object.fromEntries(entriesOf(response.headers))).toEqual({
      'access-control-allow-origin': 'http://localhost:3000',
      'content-type': 'application/json',
      vary: 'Origin',
    });
    expect(await response.text()).toBe('{"ok":true}');
    const empty = webResponse(emptyResponse(204));
    expect(empty.status).toBe(204);
    expect(empty.body).toBeNull();
    const error = webResponse(rpcErrorResponse(404, 7, -32601, 'Method not found'));
    expect(await error.json()).toEqual({ jsonrpc: '2.0', id: 7, error: { code: -32601, message: 'Method not found' } });
  });

  test('a web response (a hook’s) becomes a reply with its status, headers, cookies and body', async () => {
    const headers = new Headers({ 'www-authenticate': 'Bearer scope="a"', 'content-type': 'application/json' });
    headers.append('set-cookie', 'a=1');
    headers.append('set-cookie', 'b=2');
    const reply = replyFromWeb(new Response('{"error":"x"}', { status: 401, headers }));
    expect(reply).toBeInstanceOf(HttpReply);
    expect(reply.status).toBe(401);
    expect(reply.headers.get('WWW-Authenticate')).toBe('Bearer scope="a"');
    expect(reply.headers.cookies()).toEqual(['a=1', 'b=2']);
    expect(await new Response(reply.body as ReadableStream).text()).toBe('{"error":"x"}');
  });

  const upload = (chunks: string[], signal?: AbortSignal) => {
    const body = new ReadableStream<Uint8Array>({
      start(controller) {
        for (const chunk of chunks) controller.enqueue(new TextEncoder().encode(chunk));
        controller.close();
      },
    });
    return new WebHttpRequest(new Request('http://localhost/mcp', { method: 'POST', body, duplex: 'half', signal } as RequestInit));
  };

  test('the body is read whole within the limit, and reading stops past it', async () => {
    const within = await upload(['{"a":', '1}']).readBody(100).bytes;
    expect(new TextDecoder().decode(within)).toBe('{"a":1}');
    expect(await upload(['12345', '67890']).readBody(8).bytes).toBeUndefined();
    const none = new WebHttpRequest(new Request('http://localhost/mcp')).readBody(8);
    expect(await none.bytes).toEqual(new Uint8Array(0));
  });

  test('a read cancelled at its deadline rejects with the reason', async () => {
    const never = new ReadableStream<Uint8Array>({ pull: () => new Promise(() => {}) });
    const request = new WebHttpRequest(new Request('http://localhost/mcp', { method: 'POST', body: never, duplex: 'half' } as RequestInit));
    const read = request.readBody(100);
    const reason = new Error('deadline');
    read.cancel(reason);
    await expect(read.bytes).rejects.toBe(reason);
  });

  test('the client going away is heard once, at once when it is already gone, and not after stopping', () => {
    const controller = new AbortController();
    const request = upload([], controller.signal);
    let heard = 0;
    const stop = request.onClientGone(() => heard++);
    let other = 0;
    request.onClientGone(() => other++)();
    controller.abort();
    controller.abort();
    expect(heard).toBe(1);
    expect(other).toBe(0);
    stop();
    let late = 0;
    request.onClientGone(() => late++);
    expect(late).toBe(1);
  });
});
