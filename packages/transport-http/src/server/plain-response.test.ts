/**
 * The handler's plain responses: a `Response` for `instanceof` and for the fields the handler reads, header
 * semantics as `Headers` has them, anything else served by a real response, and `withBody` turning them into real
 * web responses with the same status, headers and body.
 */
import { describe, expect, test } from 'vitest';
import { PlainHeaders, PlainResponse, RAW_BODY } from './plain-response.js';
import { emptyResponse, isNotHandled, jsonResponse, NOT_HANDLED, rawBodyOf, rpcErrorResponse, withBody } from './responses.js';

function entriesOf(headers: Headers): Array<[string, string]> {
  const entries: Array<[string, string]> = [];
  headers.forEach((value, name) => entries.push([name, value]));
  return entries;
}

describe('PlainHeaders', () => {
  test('names are case-insensitive; append joins with a comma; entries come in name order', () => {
    const headers = new PlainHeaders({ 'Content-Type': 'application/json', Vary: 'Accept' });
    headers.append('VARY', 'Origin');
    headers.set('Mcp-Session-Id', 'abc');
    expect(headers.get('vary')).toBe('Accept, Origin');
    expect(headers.has('mcp-session-id')).toBe(true);
    headers.delete('mcp-session-id');
    expect(headers.get('Mcp-Session-Id')).toBeNull();
    expect([...headers]).toEqual([
      ['content-type', 'application/json'],
      ['vary', 'Accept, Origin'],
    ]);
    const web = new Headers({ 'Content-Type': 'application/json', Vary: 'Accept' });
    web.append('vary', 'Origin');
    expect([...headers]).toEqual(entriesOf(web));
  });

  test('cookies stay separate, as Headers keeps them', () => {
    const headers = new PlainHeaders();
    headers.append('set-cookie', 'a=1');
    headers.append('Set-Cookie', 'b=2');
    expect(headers.getSetCookie()).toEqual(['a=1', 'b=2']);
    expect(headers.get('set-cookie')).toBe('a=1, b=2');
    expect([...headers]).toEqual([
      ['set-cookie', 'a=1'],
      ['set-cookie', 'b=2'],
    ]);
  });
});

describe('PlainResponse', () => {
  test('is a Response, and serves what it does not define through a real one', async () => {
    const response = rpcErrorResponse(404, 7, -32601, 'Method not found');
    expect(response).toBeInstanceOf(Response);
    expect(response).toBeInstanceOf(PlainResponse);
    expect(response.status).toBe(404);
    expect(response.ok).toBe(false);
    expect(response.body).toBeNull();
    expect(response.headers.get('content-type')).toBe('application/json');
    expect(response.clone().status).toBe(404);
    expect(await response.json()).toEqual({ jsonrpc: '2.0', id: 7, error: { code: -32601, message: 'Method not found' } });
    expect(response.bodyUsed).toBe(true);
  });

  test('jsonResponse keeps its text for the node adapter; emptyResponse has none', () => {
    const json = jsonResponse(200, '{"a":1}', { 'mcp-session-id': 's1' });
    expect(rawBodyOf(json)).toBe('{"a":1}');
    expect((json as unknown as PlainResponse)[RAW_BODY]).toBe('{"a":1}');
    expect(json.headers.get('mcp-session-id')).toBe('s1');
    const empty = emptyResponse(405, { allow: 'POST' });
    expect(rawBodyOf(empty)).toBeUndefined();
    expect(empty.headers.get('allow')).toBe('POST');
  });
});

describe('withBody', () => {
  test('makes a real web response with the same status, headers and body', async () => {
    const plain = jsonResponse(200, '{"ok":true}');
    plain.headers.set('access-control-allow-origin', 'http://localhost:3000');
    plain.headers.append('vary', 'Origin');
    const real = withBody(plain);
    expect(real).not.toBeInstanceOf(PlainResponse);
    expect(real.status).toBe(200);
    expect(Object.fromEntries(entriesOf(real.headers))).toEqual({
      'access-control-allow-origin': 'http://localhost:3000',
      'content-type': 'application/json',
      vary: 'Origin',
    });
    expect(await real.text()).toBe('{"ok":true}');
    expect(rawBodyOf(real)).toBe('{"ok":true}');
  });

  test('keeps the not-handled mark, gives empty responses no body, and passes real responses through', async () => {
    const notFound = rpcErrorResponse(404, null, -32600, 'Not found') as Response & { [NOT_HANDLED]?: true };
    notFound[NOT_HANDLED] = true;
    expect(isNotHandled(withBody(notFound))).toBe(true);
    const empty = withBody(emptyResponse(204));
    expect(empty.status).toBe(204);
    expect(empty.body).toBeNull();
    const real = new Response('x', { status: 201 });
    expect(withBody(real)).toBe(real);
    expect(await withBody(real).text()).toBe('x');
  });
});
