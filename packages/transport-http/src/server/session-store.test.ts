/**
 * The scale-out seam: two handlers over two servers (two "processes") sharing a session store and an event store.
 * A session opened on one is served on the other, with the state it had; a stream one ran is replayed by the other.
 */
import { afterEach, describe, expect, test } from 'vitest';
import { MemoryEventStore } from './event-store.js';
import type { HttpHandler } from './http-handler.js';
import { createHttpHandler } from './http-handler.js';
import { ENDPOINT, initialize, json, post, sessionHeaders, SseReader, testServer } from './http.test-util.js';
import { MemorySessionStore, type SessionState } from './session-store.js';

const handlers: HttpHandler[] = [];
afterEach(async () => {
  await Promise.all(handlers.splice(0).map((handler) => handler.close(0)));
});

function pair() {
  const sessionStore = new MemorySessionStore();
  const eventStore = new MemoryEventStore();
  const a = createHttpHandler(testServer().server, { sessionStore, eventStore });
  const b = createHttpHandler(testServer().server, { sessionStore, eventStore });
  handlers.push(a, b);
  return { a, b, sessionStore, eventStore };
}

describe('a shared session store', () => {
  test('records a session when it opens and when its state changes', async () => {
    const { a, sessionStore } = pair();
    const id = await initialize(a, '2025-06-18', { roots: {} });
    expect(sessionStore.get(id)).toMatchObject({
      id,
      protocolVersion: '2025-06-18',
      clientCapabilities: { roots: {} },
      clientInfo: { name: 't', version: '1' },
      initialized: true,
      subscriptions: [],
    } satisfies Partial<SessionState>);
    await a(post({ jsonrpc: '2.0', id: 1, method: 'logging/setLevel', params: { level: 'error' } }, sessionHeaders(id, '2025-06-18')));
    await a(post({ jsonrpc: '2.0', id: 2, method: 'resources/subscribe', params: { uri: 'x://é' } }, sessionHeaders(id, '2025-06-18')));
    expect(sessionStore.get(id)).toMatchObject({ logLevel: 'error', subscriptions: ['x://é'] });
  });

  test('another process serves the session: restored with its revision and state, no new handshake', async () => {
    const { a, b } = pair();
    const id = await initialize(a, '2025-06-18');
    await a(post({ jsonrpc: '2.0', id: 1, method: 'logging/setLevel', params: { level: 'error' } }, sessionHeaders(id, '2025-06-18')));
    const answer = await b(
      post(
        { jsonrpc: '2.0', id: 2, method: 'tools/call', params: { name: 'echo', arguments: { text: 'on b' } } },
        sessionHeaders(id, '2025-06-18'),
      ),
    );
    expect(answer.status).toBe(200);
    expect(await json(answer)).toMatchObject({ id: 2, result: { content: [{ text: 'on b' }] } });
    expect(b.stats.sessions).toBe(1);
    // The revision travelled: another one in the header is refused there too.
    expect((await b(post({ jsonrpc: '2.0', id: 3, method: 'tools/list' }, sessionHeaders(id, '2025-11-25')))).status).toBe(400);
  });

  test('DELETE on one process ends the session everywhere it is recorded', async () => {
    const { a, b, sessionStore } = pair();
    const id = await initialize(a);
    expect((await b(new Request(ENDPOINT, { method: 'DELETE', headers: { 'mcp-session-id': id } }))).status).toBe(200);
    expect(sessionStore.get(id)).toBeUndefined();
    expect((await b(post({ jsonrpc: '2.0', id: 1, method: 'tools/list' }, sessionHeaders(id)))).status).toBe(404);
  });

  test('a stream one process ran is replayed by the other from the shared event store, then closed', async () => {
    const { a, b } = pair();
    const id = await initialize(a);
    const events = await new SseReader(
      await a(
        post(
          { jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'progress', arguments: {}, _meta: { progressToken: 1 } } },
          sessionHeaders(id),
        ),
      ),
    ).all();
    const replay = await new SseReader(
      await b(new Request(ENDPOINT, { headers: { accept: 'text/event-stream', 'mcp-session-id': id, 'last-event-id': events[1]!.id! } })),
    ).all();
    expect(replay.map((event) => event.message?.method ?? event.message?.id)).toEqual(['notifications/message', 1]);
    expect(replay.map((event) => event.id)).toEqual(events.slice(2).map((event) => event.id));
  });
});
