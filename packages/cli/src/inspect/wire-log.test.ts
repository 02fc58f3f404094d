import { describe, expect, test } from 'vitest';
import { MAX_BODY_CHARS, MAX_ENTRIES, WireLog, wireFetch } from './wire-log.js';

describe('WireLog', () => {
  test('fills in method, id and the latency of a response; a server request and the client answer pair up too', () => {
    const log = new WireLog();
    log.message('out', { jsonrpc: '2.0', id: 1, method: 'tools/list' });
    log.message('in', { jsonrpc: '2.0', id: 1, method: 'roots/list' });
    log.message('out', { jsonrpc: '2.0', id: 1, result: { roots: [] } });
    log.message('in', { jsonrpc: '2.0', id: 1, result: { tools: [] } });
    const [request, asked, answered, response] = log.entries();
    expect(request).toMatchObject({ seq: 1, dir: 'out', method: 'tools/list', id: 1 });
    expect(asked).toMatchObject({ dir: 'in', method: 'roots/list' });
    expect(answered!.latencyMs).toBeGreaterThanOrEqual(0);
    expect(response!.latencyMs).toBeGreaterThanOrEqual(0);
  });

  test('stays bounded: old entries dropped and counted, long bodies cut and marked', () => {
    const log = new WireLog();
    for (let i = 0; i < MAX_ENTRIES + 10; i++) log.message('out', { jsonrpc: '2.0', method: 'notifications/x' });
    expect(log.entries()).toHaveLength(MAX_ENTRIES);
    expect(log.dropped).toBe(10);
    const entry = log.add({ dir: 'in', kind: 'message', body: 'y'.repeat(MAX_BODY_CHARS + 5) });
    expect(entry.body).toHaveLength(MAX_BODY_CHARS);
    expect(entry.truncated).toBe(true);
  });

  test('the fetch tap records request, response and SSE events with ids, redacts credentials, passes the body through', async () => {
    const log = new WireLog();
    const sse =
      'id: e1\nevent: message\ndata: {"jsonrpc":"2.0","id":3,"result":{}}\n\nid: e2\ndata: {"jsonrpc":"2.0","method":"notifications/progress"}\n\n';
    const fetch = wireFetch(
      log,
      async () => new Response(sse, { headers: { 'content-type': 'text/event-stream', 'mcp-session-id': 's1' } }),
    );
    const response = await fetch('http://127.0.0.1:1/mcp', {
      method: 'POST',
      headers: { authorization: 'Bearer secret', 'mcp-protocol-version': '2025-11-25' },
      body: '{"jsonrpc":"2.0","id":3,"method":"tools/list"}',
    });
    expect(await response.text()).toBe(sse);
    const [request, head, first, second] = log.entries();
    expect(request).toMatchObject({ kind: 'http-request', method: 'tools/list', http: { method: 'POST' } });
    expect(request!.headers).toEqual({ authorization: '[redacted]', 'mcp-protocol-version': '2025-11-25' });
    expect(head).toMatchObject({ kind: 'http-response', http: { status: 200, of: 1 }, headers: { 'mcp-session-id': 's1' } });
    expect(first).toMatchObject({ kind: 'sse', sse: { id: 'e1', event: 'message' }, id: 3 });
    expect(first!.latencyMs).toBeGreaterThanOrEqual(0);
    expect(second).toMatchObject({ kind: 'sse', sse: { id: 'e2' }, method: 'notifications/progress' });
  });

  test('a JSON response body is recorded once the body has been read', async () => {
    const log = new WireLog();
    const fetch = wireFetch(log, async () => Response.json({ jsonrpc: '2.0', id: 1, result: {} }));
    await (await fetch('http://127.0.0.1:1/mcp', { method: 'POST', body: '{"jsonrpc":"2.0","id":1,"method":"ping"}' })).json();
    expect(log.entries().map((entry) => entry.kind)).toEqual(['http-request', 'http-response', 'message']);
    expect(log.entries()[2]).toMatchObject({ id: 1, dir: 'in' });
  });
});
