/**
 * Two handlers (two processes) sharing stores and a bus. A copy of a legacy session that is being dropped (another
 * process recorded a new state while this copy was idle) must not serve a request that arrives meanwhile: a GET
 * served by it opened a standalone stream on a copy that was already closing, so no later state reached that stream
 * and nothing raised afterwards was sent on it.
 */
import { afterEach, describe, expect, test } from 'vitest';
import { MemoryEventStore } from './event-store.js';
import type { HttpHandler } from './http-handler.js';
import { BOTH, ENDPOINT, initialize, post, sessionHeaders, SseReader, testHandler } from './http.test-util.js';
import { MemoryBus } from './bus.test-util.js';
import type { BusMessage } from './session-bus.js';
import { MemorySessionStore } from './session-store.js';

const WATCHED = 'x://é';
let handlers: HttpHandler[] = [];
afterEach(async () => {
  await Promise.all(handlers.map((handler) => handler.close(0)));
  handlers = [];
});

/** A bus that runs `after` once every listener heard a message (the moment a process has just read it). */
class WatchedBus extends MemoryBus {
  after: ((message: BusMessage) => void) | undefined;
  override publish(message: BusMessage): void {
    super.publish(message);
    this.after?.(message);
  }
}

function processSharing(shared: { sessionStore: MemorySessionStore; eventStore: MemoryEventStore; bus: MemoryBus }) {
  const made = testHandler({ ...shared, onError: () => {} });
  handlers.push(made.handler);
  return made;
}

/** Whether `promise` settles within `turns` turns of the event loop. */
async function settlesWithin(promise: Promise<unknown>, turns: number): Promise<boolean> {
  let done = false;
  void promise.finally(() => (done = true));
  for (let turn = 0; turn < turns && !done; turn += 1) await new Promise((resolve) => setImmediate(resolve));
  return done;
}

describe('a copy of a legacy session being dropped', () => {
  test('a GET arriving while the copy closes is served by a live copy: what is raised later reaches it', async () => {
    const shared = { sessionStore: new MemorySessionStore(), eventStore: new MemoryEventStore(), bus: new WatchedBus() };
    const a = processSharing(shared);
    const b = processSharing(shared);
    const sessionId = await initialize(a.handler);
    const h = sessionHeaders(sessionId);

    // B records a new state (a log level): A's idle copy starts closing, and at that moment a GET reaches A.
    let get: Promise<Response> | undefined;
    shared.bus.after = (message) => {
      if (message.kind !== 'state' || get !== undefined) return;
      get = a.handler(new Request(ENDPOINT, { method: 'GET', headers: { ...h, accept: BOTH } }));
    };
    const level = await b.handler(post({ jsonrpc: '2.0', id: 1, method: 'logging/setLevel', params: { level: 'error' } }, h));
    expect(level.status).toBe(200);
    await level.text();
    shared.bus.after = undefined;
    expect(get).toBeDefined();
    const stream = await get!;
    expect(stream.status).toBe(200);
    const reader = new SseReader(stream);

    // A subscription made on B, then an update raised on A: it goes out on A's stream.
    const subscribed = await b.handler(post({ jsonrpc: '2.0', id: 2, method: 'resources/subscribe', params: { uri: WATCHED } }, h));
    expect(subscribed.status).toBe(200);
    await subscribed.text();
    a.server.notifyResourceUpdated(WATCHED);
    const two = reader.take(2);
    expect(await settlesWithin(two, 500)).toBe(true);
    expect((await two).map((event) => event.message?.method ?? 'priming')).toEqual(['priming', 'notifications/resources/updated']);
    await reader.cancel();
  });
});
