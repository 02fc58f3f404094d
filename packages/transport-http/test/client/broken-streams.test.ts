// Legacy streams that break (the server process died mid-stream, a proxy cut it) rather than end: a request's
// stream is resumed with GET and Last-Event-ID from the last event that arrived, after the server's `retry`, and
// the request resolves as if nothing happened; a resumption the server refuses (4xx) fails at once and says why;
// the standalone GET stream comes back with the last id it saw, or without one when the server no longer has its
// events.
import type { ServerResponse } from 'node:http';
import { afterEach, describe, expect, test } from 'vitest';
import { closeAllServers, event, json, result, sse } from './http-server.test-util.js';
import { session } from './legacy-session.test-util.js';
import { closeAllTransports } from './transport.test-util.js';

afterEach(async () => {
  await closeAllTransports();
  await closeAllServers();
});

/** Cuts the connection under a response mid-stream (what a killed server process does). */
function breakOff(res: ServerResponse): void {
  res.socket?.destroy();
}

describe("a request's stream that breaks", () => {
  test('is resumed from the last event that arrived, and the request resolves with its result', async () => {
    const { server, driven } = await session(
      (request, res) => {
        sse(res);
        if (request.method === 'POST') {
          res.write('id: s_0\nretry: 10\ndata: \n\n');
          event(res, { jsonrpc: '2.0', method: 'notifications/progress', params: { progressToken: 'p', progress: 1 } }, 's_1');
          return void setImmediate(() => breakOff(res));
        }
        event(res, { jsonrpc: '2.0', id: 1, result: { content: [{ type: 'text', text: 'after the break' }] } }, 's_2');
        res.end();
      },
      { standaloneStream: false },
    );
    const answer = await driven.request(1, 'tools/call', { name: 'slow' });
    expect(answer.result).toEqual({ content: [{ type: 'text', text: 'after the break' }] });
    expect(server.requests.filter((r) => r.method === 'GET').map((r) => r.headers['last-event-id'])).toEqual(['s_1']);
    await driven.delivered((m) => m.method === 'notifications/progress');
  });

  test('a resumption the server refuses (400: its events are gone) fails at once, saying so', async () => {
    const { server, driven } = await session(
      (request, res) => {
        if (request.method === 'GET')
          return json(res, 400, { jsonrpc: '2.0', id: null, error: { code: -32600, message: 'Cannot resume' } });
        sse(res);
        res.write('id: s_0\nretry: 1\ndata: \n\n');
        setImmediate(() => breakOff(res));
      },
      { standaloneStream: false },
    );
    await expect(driven.request(1, 'tools/call', { name: 'x' })).rejects.toMatchObject({
      code: 'CONNECTION_CLOSED',
      message: expect.stringContaining('cannot resume it (HTTP 400)'),
    });
    expect(server.requests.filter((r) => r.method === 'GET')).toHaveLength(1);
  });

  test('a stream with no event id cannot be resumed: CONNECTION_CLOSED, no GET', async () => {
    const { server, driven } = await session(
      (_request, res) => {
        sse(res);
        event(res, { jsonrpc: '2.0', method: 'notifications/progress', params: { progressToken: 'p', progress: 1 } });
        setImmediate(() => breakOff(res));
      },
      { standaloneStream: false },
    );
    await expect(driven.request(1, 'tools/call', { name: 'x' })).rejects.toMatchObject({ code: 'CONNECTION_CLOSED' });
    expect(server.requests.some((r) => r.method === 'GET')).toBe(false);
  });
});

describe('the standalone stream that breaks', () => {
  test('comes back with the last id it saw; without one once the server no longer has its events', async () => {
    let gets = 0;
    const { server, driven } = await session((request, res) => {
      if (request.method !== 'GET') return void (res.writeHead(200), res.end());
      gets += 1;
      if (gets === 1) {
        sse(res);
        event(res, { jsonrpc: '2.0', method: 'notifications/tools/list_changed' }, 'g_3');
        return void setImmediate(() => breakOff(res));
      }
      if (gets === 2) return json(res, 400, { jsonrpc: '2.0', id: null, error: { code: -32600, message: 'Cannot resume' } });
      sse(res);
      event(res, { jsonrpc: '2.0', method: 'notifications/prompts/list_changed' }, 'h_0');
    });
    await driven.delivered((m) => m.method === 'notifications/prompts/list_changed');
    expect(server.requests.filter((r) => r.method === 'GET').map((r) => r.headers['last-event-id'] ?? 'none')).toEqual([
      'none',
      'g_3',
      'none',
    ]);
  });
});
