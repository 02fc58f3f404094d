// The info a request's messages carry: headers built on first read, copies that keep them, and an object V8 keeps
// in fast mode (a getter written in an object literal puts every info in dictionary mode, with a per-request
// accessor that kept the whole request alive through young-generation collections: 10× the old-space growth).
import { setFlagsFromString } from 'node:v8';
import { describe, expect, test } from 'vitest';
import { WebHttpRequest } from './fetch-adapter.js';
import { httpMessageInfo } from './message-info.js';

function request(headers: Record<string, string>): WebHttpRequest {
  return new WebHttpRequest(new Request('http://127.0.0.1/mcp', { method: 'POST', headers }));
}

describe('httpMessageInfo', () => {
  test('headers: lower-cased names, read once, kept by a copy; auth and session fields as given', () => {
    const r = request({ 'Mcp-Method': 'tools/call', 'X-Trace': 'a' });
    const info = httpMessageInfo(r, { sub: 'alice' }, { sessionId: 's1', principalKey: 'k' });
    expect(info.headers).toMatchObject({ 'mcp-method': 'tools/call', 'x-trace': 'a' });
    expect(info.headers).toBe(info.headers);
    expect({ ...info }).toMatchObject({ headers: { 'x-trace': 'a' }, auth: { sub: 'alice' }, sessionId: 's1', principalKey: 'k' });
    expect(Object.keys(httpMessageInfo(r, undefined)).sort()).toEqual(['headers', 'transport']);
    expect(httpMessageInfo(r, undefined).transport).toBe('http');
  });

  test('every info is a fast-mode object of one shape (no per-request accessor)', () => {
    setFlagsFromString('--allow-natives-syntax');
    const fast = new Function('o', 'return %HasFastProperties(o)') as (o: object) => boolean;
    const sameMap = new Function('a', 'b', 'return %HaveSameMap(a, b)') as (a: object, b: object) => boolean;
    const a = httpMessageInfo(request({ a: '1' }), { sub: 'x' });
    const b = httpMessageInfo(request({ b: '2' }), { sub: 'y' });
    expect(fast(a)).toBe(true);
    expect(sameMap(a, b)).toBe(true);
  });
});
