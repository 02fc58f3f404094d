/**
 * Two handlers (two processes, in one test) sharing a session store, an event store and a bus, with every request
 * of a session alternating between them: a server→client request answered on the other one, a cancellation sent to
 * the other one, a standalone-stream message raised on the one not holding the stream, a DELETE seen everywhere,
 * idle copies dropped locally only, and 503 when the session store fails.
 */
import { afterEach, describe, expect, test } from 'vitest';
import { MemoryEventStore } from './event-store.js';
import type { HttpHandler } from './http-handler.js';
import { ENDPOINT, initialize, post, sessionHeaders, SseReader, testHandler, type Probe } from './http.test-util.js';
import { MemoryBus } from './bus.test-util.js';
import { tagRequestId, untagRequestId } from './session-bus.js';
import { MemorySessionStore, type SessionState } from './session-store.js';
import type { McpServer } from '@wiremcp/server';

let handlers: HttpHandler[] = [];
afterEach(async () => {
  await Promise.all(handlers.map((handler) => handler.close(0)));
  handlers = [];
});

function pair(options: { sessionIdleTimeoutMs?: number } = {}) {
  const sessionStore = new MemorySessionStore();
  const eventStore = new MemoryEventStore();
  const bus = new MemoryBus();
  const made = [0, 1].map(() => testHandler({ sessionStore, eventStore, bus, ...options }));
  handlers = made.map((m) => m.handler);
  return {
    a: made[0]!.handler,
    b: made[1]!.handler,
    servers: made.map((m) => m.server) as [McpServer, McpServer],
    probes: made.map((m) => m.probe) as [Probe, Probe],
    sessionStore,
    bus,
  };
}

const tool = (id: number, name: string, meta?: Record<string, unknown>) => ({
  jsonrpc: '2.0',
  id,
  method: 'tools/call',
  params: { name, arguments: {}, ...(meta ? { _meta: meta } : {}) },
});

describe('request ids tagged with their process', () => {
  test('round trip, numbers and strings; untagged and malformed ids are not taken for tags', () => {
    expect(untagRequestId(tagRequestId('p1', 7))).toEqual({ origin: 'p1', id: 7 });
    expect(untagRequestId(tagRequestId('p1', 'x~y'))).toEqual({ origin: 'p1', id: 'x~y' });
    for (const id of [7, 'plain', '~n1', 'p1~n', 'p1~q3', 'p1~nabc', null]) expect(untagRequestId(id)).toBeUndefined();
  });
});

describe('a legacy session served by two processes', () => {
  test('sampling asked on A, answered through B: the tool on A gets the answer', async () => {
    const { a, b } = pair();
    const session = await initialize(a, '2025-11-25', { sampling: {} });
    const stream = new SseReader(await a(post(tool(1, 'sample'), sessionHeaders(session))));
    const request = (await stream.take(2)).find((event) => event.message?.method === 'sampling/createMessage')!.message!;
    expect(untagRequestId(request.id)).toMatchObject({ id: expect.anything() });
    const answer = { role: 'assistant', content: { type: 'text', text: 'from B' }, model: 'm' };
    const accepted = await b(post({ jsonrpc: '2.0', id: request.id, result: answer }, sessionHeaders(session)));
    expect(accepted.status).toBe(202);
    const events = await stream.all();
    expect(JSON.stringify(events.at(-1)!.message)).toContain('sampled: from B');
  });

  test('notifications/cancelled sent to B stops the request running on A', async () => {
    const { a, b, probes } = pair();
    const session = await initialize(a);
    const stream = new SseReader(await a(post(tool(1, 'wait', { progressToken: 'w' }), sessionHeaders(session))));
    await probes[0].started.promise;
    const cancel = { jsonrpc: '2.0', method: 'notifications/cancelled', params: { requestId: 1 } };
    expect((await b(post(cancel, sessionHeaders(session)))).status).toBe(202);
    await probes[0].abort.promise;
    expect(probes[0].aborted).toBe(1);
    const events = await stream.all();
    expect(events.some((event) => event.message?.id === 1)).toBe(false);
  });

  test('a message for the standalone stream raised on B is sent on the GET stream held by A', async () => {
    const { a, b, servers } = pair();
    const session = await initialize(a);
    const listen = await a(new Request(ENDPOINT, { headers: { ...sessionHeaders(session), accept: 'text/event-stream' } }));
    expect(listen.status).toBe(200);
    const reader = new SseReader(listen);
    // B serves the session (restored from the store), then its server raises a list change.
    expect((await b(post({ jsonrpc: '2.0', id: 1, method: 'ping' }, sessionHeaders(session)))).status).toBe(200);
    servers[1].notifyToolListChanged();
    const events = await reader.take(2);
    expect(events.map((event) => event.message?.method ?? 'priming')).toEqual(['priming', 'notifications/tools/list_changed']);
    await reader.cancel();
  });

  test('DELETE on B ends the session on A too', async () => {
    const { a, b } = pair();
    const session = await initialize(a);
    expect((await b(post({ jsonrpc: '2.0', id: 1, method: 'ping' }, sessionHeaders(session)))).status).toBe(200);
    const deleted = await b(new Request(ENDPOINT, { method: 'DELETE', headers: sessionHeaders(session) }));
    expect(deleted.status).toBe(200);
    const after = await a(post({ jsonrpc: '2.0', id: 2, method: 'ping' }, sessionHeaders(session)));
    expect(after.status).toBe(404);
  });

  test('a state change on B is seen by A on the next request (A drops its idle copy and restores it)', async () => {
    const { a, b, sessionStore } = pair();
    const session = await initialize(a);
    const setLevel = { jsonrpc: '2.0', id: 1, method: 'logging/setLevel', params: { level: 'error' } };
    expect((await b(post(setLevel, sessionHeaders(session)))).status).toBe(200);
    expect(sessionStore.get(session)?.logLevel).toBe('error');
    expect(a.stats.sessions).toBe(0);
    expect((await a(post({ jsonrpc: '2.0', id: 2, method: 'ping' }, sessionHeaders(session)))).status).toBe(200);
    expect(a.stats.sessions).toBe(1);
  });

  test('a copy idle on A is dropped from A only: the shared state stays for B', async () => {
    const { a, b, sessionStore } = pair({ sessionIdleTimeoutMs: 100 });
    const session = await initialize(a);
    expect(a.stats.sessions).toBe(1);
    while (a.stats.sessions > 0) await new Promise((resolve) => setTimeout(resolve, 20));
    expect(sessionStore.get(session)).toBeDefined();
    expect((await b(post({ jsonrpc: '2.0', id: 1, method: 'ping' }, sessionHeaders(session)))).status).toBe(200);
  });

  test('a session store that fails gives 503 with Retry-After, for initialize and for a session held elsewhere', async () => {
    const failing = new MemorySessionStore();
    let down = false;
    const store = {
      get: (id: string) => {
        if (down) throw new Error('store down');
        return failing.get(id);
      },
      set: (state: SessionState) => {
        if (down) return Promise.reject(new Error('store down'));
        failing.set(state);
      },
      touch: () => {},
      delete: (id: string) => failing.delete(id),
    };
    const bus = new MemoryBus();
    const [a, b] = [0, 1].map(() => testHandler({ sessionStore: store, bus, onError: () => {} }).handler) as [HttpHandler, HttpHandler];
    handlers = [a, b];
    const session = await initialize(a);
    down = true;
    await expect(initialize(b)).rejects.toThrow(/initialize failed: 503 .*session store cannot be reached/);
    const elsewhere = await b(post({ jsonrpc: '2.0', id: 1, method: 'ping' }, sessionHeaders(session)));
    expect(elsewhere.status).toBe(503);
    expect(elsewhere.headers.get('retry-after')).toBe('1');
    // A holds the session: it goes on serving it.
    expect((await a(post({ jsonrpc: '2.0', id: 2, method: 'ping' }, sessionHeaders(session)))).status).toBe(200);
  });
});
