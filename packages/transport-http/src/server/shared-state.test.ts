/**
 * One source of truth for legacy sessions served by several processes (two handlers here, sharing a session store,
 * an event store and a bus): a DELETE or a state change the store could not record is refused with 503 and never
 * acknowledged; after the bus may have lost messages, every copy held is checked against the store before it is
 * served again; a copy holding the standalone stream takes a subscription made elsewhere, and hears each resource
 * update once, wherever it was raised.
 */
import { afterEach, describe, expect, test } from 'vitest';
import { MemoryEventStore } from './event-store.js';
import type { HttpHandler } from './http-handler.js';
import { ENDPOINT, initialize, post, sessionHeaders, SseReader, testHandler } from './http.test-util.js';
import { MemoryBus } from './bus.test-util.js';
import { MemorySessionStore, type SessionState } from './session-store.js';
import type { McpServer } from '@wiremcp/server';

let handlers: HttpHandler[] = [];
afterEach(async () => {
  await Promise.all(handlers.map((handler) => handler.close(0)));
  handlers = [];
});

/** A memory store that fails every call while `down`. */
class SwitchableStore extends MemorySessionStore {
  down = false;
  override get(id: string): SessionState | undefined {
    if (this.down) throw new Error('store down');
    return super.get(id);
  }
  override set(state: SessionState): void {
    if (this.down) throw new Error('store down');
    super.set(state);
  }
  override delete(id: string): void {
    if (this.down) throw new Error('store down');
    super.delete(id);
  }
}

/** A bus that can say it lost messages. */
class LossyBus extends MemoryBus {
  readonly lostListeners = new Set<() => void>();
  onMessagesLost(listener: () => void): () => void {
    this.lostListeners.add(listener);
    return () => this.lostListeners.delete(listener);
  }
  lose(): void {
    for (const listener of this.lostListeners) listener();
  }
}

function pair() {
  const sessionStore = new SwitchableStore();
  const bus = new LossyBus();
  const eventStore = new MemoryEventStore();
  const made = [0, 1].map(() => testHandler({ sessionStore, eventStore, bus, onError: () => {} }));
  handlers = made.map((m) => m.handler);
  return { a: made[0]!.handler, b: made[1]!.handler, servers: made.map((m) => m.server) as [McpServer, McpServer], sessionStore, bus };
}

const ping = (id: number) => ({ jsonrpc: '2.0', id, method: 'ping' });
const remove = (session: string) => new Request(ENDPOINT, { method: 'DELETE', headers: sessionHeaders(session) });

describe('changes the store cannot record are not acknowledged', () => {
  test('DELETE while the store fails: 503 with Retry-After, the session lives on everywhere; then DELETE holds everywhere', async () => {
    const { a, b, sessionStore, bus } = pair();
    const session = await initialize(a);
    expect((await b(post(ping(1), sessionHeaders(session)))).status).toBe(200);
    sessionStore.down = true;
    const refused = await a(remove(session));
    expect(refused.status).toBe(503);
    expect(refused.headers.get('retry-after')).toBe('1');
    expect(bus.sent.filter((message) => message.kind === 'ended')).toEqual([]);
    sessionStore.down = false;
    for (const handler of [a, b]) expect((await handler(post(ping(2), sessionHeaders(session)))).status).toBe(200);
    expect((await b(remove(session))).status).toBe(200);
    for (const handler of [a, b]) expect((await handler(post(ping(3), sessionHeaders(session)))).status).toBe(404);
  });

  test('a subscription the store could not record: 503, and the copy that took it is dropped (no divergence)', async () => {
    const { a, sessionStore } = pair();
    const session = await initialize(a);
    sessionStore.down = true;
    const subscribe = { jsonrpc: '2.0', id: 1, method: 'resources/subscribe', params: { uri: 'x://é' } };
    const refused = await a(post(subscribe, sessionHeaders(session)));
    expect(refused.status).toBe(503);
    expect(refused.headers.get('retry-after')).toBe('1');
    while (a.stats.sessions > 0) await new Promise((resolve) => setImmediate(resolve));
    sessionStore.down = false;
    expect((await a(post(ping(2), sessionHeaders(session)))).status).toBe(200);
    expect(sessionStore.get(session)?.subscriptions).toEqual([]);
  });
});

describe('after the bus may have lost messages', () => {
  test('a copy is checked against the store before it is served: gone there, gone here; kept there, served', async () => {
    const { a, b, sessionStore, bus } = pair();
    const kept = await initialize(a);
    const deleted = await initialize(a);
    for (const session of [kept, deleted]) expect((await b(post(ping(1), sessionHeaders(session)))).status).toBe(200);
    // Deleted while B's bus was cut off: B never heard of it, and would serve its copy.
    sessionStore.delete(deleted);
    bus.lose();
    expect((await b(post(ping(2), sessionHeaders(deleted)))).status).toBe(404);
    expect((await b(post(ping(3), sessionHeaders(kept)))).status).toBe(200);
    // While the store cannot say, a copy waiting to be checked is not served either.
    bus.lose();
    sessionStore.down = true;
    expect((await b(post(ping(4), sessionHeaders(kept)))).status).toBe(503);
  });
});

describe('the copy holding the standalone stream', () => {
  test('takes a subscription made on another process, and hears each update once, wherever it was raised', async () => {
    const { a, b, servers } = pair();
    const session = await initialize(a);
    const listen = await a(new Request(ENDPOINT, { headers: { ...sessionHeaders(session), accept: 'text/event-stream' } }));
    const reader = new SseReader(listen);
    const subscribe = { jsonrpc: '2.0', id: 1, method: 'resources/subscribe', params: { uri: 'x://é' } };
    expect((await b(post(subscribe, sessionHeaders(session)))).status).toBe(200);
    // Raised on the process holding the stream (its copy took the subscription), then on the other one.
    servers[0].notifyResourceUpdated('x://é');
    servers[1].notifyResourceUpdated('x://é');
    servers[0].notifyToolListChanged();
    const events = await reader.take(4);
    expect(events.map((event) => event.message?.method ?? 'priming')).toEqual([
      'priming',
      'notifications/resources/updated',
      'notifications/resources/updated',
      'notifications/tools/list_changed',
    ]);
    await reader.cancel();
  });
});
