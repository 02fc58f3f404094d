// Reconnection in legacy sessions: a POST stream the server closed after a priming event (2025-11-25 polling) is
// resumed with GET and Last-Event-ID, again and again if need be; the standalone GET stream comes back with the
// last id it saw; retries are bounded; the delay honours the server's `retry` and is never shorter than it.
import type { ServerResponse } from 'node:http';
import fc from 'fast-check';
import { afterEach, describe, expect, test } from 'vitest';
import { Backoff } from '../../src/client/backoff.js';
import { closeAllServers, event, json, result, sse, type Recorded } from './http-server.test-util.js';
import { FAST, session } from './legacy-session.test-util.js';
import { closeAllTransports } from './transport.test-util.js';

afterEach(async () => {
  await closeAllTransports();
  await closeAllServers();
});

describe('resumption', () => {
  test('a POST stream closed after its priming event is resumed with GET + Last-Event-ID, after the server’s retry', async () => {
    let call: Recorded | undefined;
    const { server, driven } = await session(
      (request, res) => {
        if (request.method === 'POST') {
          call = request;
          sse(res);
          res.write('id: ev-1\nretry: 20\ndata: \n\n');
          return void res.end();
        }
        // The resumed stream replays from after ev-1, and stays open: the client ends it once answered.
        sse(res);
        res.write('id: ev-2\nretry: 20\ndata: \n\n');
        event(
          res,
          { jsonrpc: '2.0', id: (call!.json as { id: number }).id, result: { content: [{ type: 'text', text: 'resumed' }] } },
          'ev-3',
        );
      },
      { standaloneStream: false },
    );
    const answer = await driven.request(7, 'tools/call', { name: 'test_reconnection' });
    expect(answer.result).toEqual({ content: [{ type: 'text', text: 'resumed' }] });
    const gets = server.requests.filter((r) => r.method === 'GET');
    expect(gets).toHaveLength(1);
    expect(gets[0]!.headers).toMatchObject({ 'last-event-id': 'ev-1', 'mcp-session-id': 'sess', accept: 'text/event-stream' });
    expect(server.requests.indexOf(gets[0]!)).toBeGreaterThan(server.requests.indexOf(call!));
  });

  test('a resumed stream that closes again is resumed from its own last id; a server that refuses GET ends it clearly', async () => {
    let round = 0;
    const { server, driven } = await session(
      (request, res) => {
        sse(res);
        round += 1;
        if (round < 3) return void (res.write(`id: r${round}\ndata: \n\n`), res.end());
        event(res, { jsonrpc: '2.0', id: 1, result: {} }, 'r3');
        res.end();
      },
      { standaloneStream: false },
    );
    expect((await driven.request(1, 'tools/call', { name: 'x' })).result).toEqual({});
    expect(server.requests.filter((r) => r.method === 'GET').map((r) => r.headers['last-event-id'])).toEqual(['r1', 'r2']);

    const refusing = await session(
      (request, res) => {
        if (request.method === 'GET') return void (res.writeHead(405), res.end());
        sse(res);
        res.write('id: only\ndata: \n\n');
        res.end();
      },
      { standaloneStream: false },
    );
    await expect(refusing.driven.request(1, 'tools/call', { name: 'x' })).rejects.toMatchObject({
      code: 'CONNECTION_CLOSED',
      message: expect.stringContaining('does not resume'),
    });
  });

  test('resumption gives up after the configured retries when every GET fails', async () => {
    const { server, driven } = await session(
      (request, res) => {
        if (request.method === 'GET') return void (res.writeHead(503), res.end());
        sse(res);
        res.write('id: x\ndata: \n\n');
        res.end();
      },
      { standaloneStream: false },
    );
    await expect(driven.request(1, 'tools/call', { name: 'x' })).rejects.toMatchObject({ code: 'CONNECTION_CLOSED' });
    expect(server.requests.filter((r) => r.method === 'GET')).toHaveLength(FAST.maxRetries + 1);
  });

  test('a POST stream that ends without any event id is lost: CONNECTION_CLOSED, no GET', async () => {
    const { server, driven } = await session((_request, res) => void (sse(res), res.end()), { standaloneStream: false });
    await expect(driven.request(1, 'tools/call', { name: 'x' })).rejects.toMatchObject({ code: 'CONNECTION_CLOSED' });
    expect(server.requests.some((r) => r.method === 'GET')).toBe(false);
  });

  test('the standalone stream reconnects with the last id it saw, and gives up (reporting it) after the retries', async () => {
    let gets = 0;
    const streams: ServerResponse[] = [];
    const { server, driven } = await session((request, res) => {
      if (request.method !== 'GET') return void (res.writeHead(200), res.end());
      gets += 1;
      if (gets === 1) {
        sse(res);
        event(res, { jsonrpc: '2.0', method: 'notifications/resources/list_changed' }, 'g-7');
        streams.push(res);
        return void res.end();
      }
      res.writeHead(500);
      res.end();
    });
    await driven.delivered((m) => m.method === 'notifications/resources/list_changed');
    await server.next((r) => r.method === 'GET' && r.headers['last-event-id'] === 'g-7');
    await driven.reported((e) => /not reopening/.test(e.message));
    expect(server.requests.filter((r) => r.method === 'GET').length).toBe(1 + FAST.maxRetries + 1);
  });
});

describe('an event sent again with an id already seen', () => {
  test('the standalone stream hands each event id over once, across resumptions', async () => {
    let gets = 0;
    const { server, driven } = await session((request, res) => {
      if (request.method !== 'GET') return void (res.writeHead(200), res.end());
      gets += 1;
      sse(res);
      if (gets === 1) {
        event(res, { jsonrpc: '2.0', method: 'notifications/tools/list_changed' }, 's_1');
        event(res, { jsonrpc: '2.0', method: 'notifications/resources/updated', params: { uri: 'test://a' } }, 's_2');
        return void res.end();
      }
      // The resumption repeats the events up to the client's Last-Event-ID (s_2), then goes on.
      event(res, { jsonrpc: '2.0', method: 'notifications/tools/list_changed' }, 's_1');
      event(res, { jsonrpc: '2.0', method: 'notifications/resources/updated', params: { uri: 'test://a' } }, 's_2');
      event(res, { jsonrpc: '2.0', method: 'notifications/prompts/list_changed' }, 's_3');
    });
    await driven.delivered((m) => m.method === 'notifications/prompts/list_changed');
    expect(server.requests.filter((r) => r.method === 'GET').map((r) => r.headers['last-event-id'] ?? 'none')).toEqual(['none', 's_2']);
    expect(driven.messages.flatMap((m) => (m as { method?: string }).method ?? [])).toEqual([
      'notifications/tools/list_changed',
      'notifications/resources/updated',
      'notifications/prompts/list_changed',
    ]);
  });

  test('a resumed POST stream hands a progress event it already delivered over once; events without an id are all delivered', async () => {
    let call: Recorded | undefined;
    const progress = (n: number) => ({ jsonrpc: '2.0', method: 'notifications/progress', params: { progressToken: 't', progress: n } });
    const { driven } = await session(
      (request, res) => {
        sse(res);
        if (request.method === 'POST') {
          call = request;
          event(res, progress(1), 'p_1');
          event(res, progress(1));
          return void res.end();
        }
        event(res, progress(1), 'p_1');
        event(res, progress(2), 'p_2');
        event(res, { jsonrpc: '2.0', id: (call!.json as { id: number }).id, result: {} }, 'p_3');
      },
      { standaloneStream: false },
    );
    expect((await driven.request(4, 'tools/call', { name: 'x', _meta: { progressToken: 't' } })).result).toEqual({});
    const heard = driven.messages.filter((m) => (m as { method?: string }).method === 'notifications/progress');
    expect(heard.map((m) => (m as { params: { progress: number } }).params.progress)).toEqual([1, 1, 2]);
  });
});

describe('Backoff', () => {
  test('the first reconnection after a retry waits exactly retry; later ones never less than retry, never more than the bound', () => {
    fc.assert(
      fc.property(
        fc.record({ initialDelayMs: fc.nat(5000), maxDelayMs: fc.nat(60_000), growFactor: fc.double({ min: 1, max: 4, noNaN: true }) }),
        fc.option(fc.nat(100_000), { nil: undefined }),
        fc.nat(20),
        fc.double({ min: 0, max: 0.999, noNaN: true }),
        (options, retry, attempt, random) => {
          const backoff = new Backoff(options, () => random);
          const delay = backoff.delay(attempt, retry);
          if (retry !== undefined && attempt === 0) expect(delay).toBe(retry);
          if (retry !== undefined) expect(delay).toBeGreaterThanOrEqual(retry);
          expect(delay).toBeLessThanOrEqual(Math.max(retry ?? 0, Math.round(options.maxDelayMs)));
          expect(delay).toBeGreaterThanOrEqual(0);
        },
      ),
    );
  });

  test('grows exponentially with jitter between half and all of the step', () => {
    const backoff = new Backoff({ initialDelayMs: 1000, growFactor: 2, maxDelayMs: 10_000 }, () => 0);
    expect([0, 1, 2, 3, 4, 5].map((n) => backoff.delay(n, undefined))).toEqual([500, 1000, 2000, 4000, 5000, 5000]);
    expect(new Backoff({ initialDelayMs: 1000 }, () => 0.999).delay(0, undefined)).toBe(1000);
    expect(() => new Backoff({ growFactor: 0.5 })).toThrow(expect.objectContaining({ code: 'INVALID_ARGUMENT' }));
  });
});
