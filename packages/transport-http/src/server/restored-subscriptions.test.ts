/**
 * Two handlers (two processes, in one test) sharing a session store, an event store and a bus: a legacy session's
 * resource subscription made on one process is set up on the other too when that one restores the session
 * (`onSubscribe` there), and torn down there (`onUnsubscribe`) when its copy of the session is dropped.
 */
import { McpServer } from '@wiremcp/server';
import { afterEach, describe, expect, test } from 'vitest';
import { MemoryEventStore } from './event-store.js';
import { createHttpHandler, type HttpHandler } from './http-handler.js';
import { initialize, post, sessionHeaders } from './http.test-util.js';
import { MemoryBus } from './bus.test-util.js';
import { MemorySessionStore } from './session-store.js';

let handlers: HttpHandler[] = [];
afterEach(async () => {
  await Promise.all(handlers.map((handler) => handler.close(0)));
  handlers = [];
});

/** A process: a server whose hooks log `+uri` / `-uri`. */
function processNamed(name: string, shared: { sessionStore: MemorySessionStore; eventStore: MemoryEventStore; bus: MemoryBus }) {
  const events: string[] = [];
  const server = new McpServer(
    { name, version: '1.0.0' },
    {
      onSubscribe: (uri) => void events.push(`+${uri}`),
      onUnsubscribe: (uri) => void events.push(`-${uri}`),
    },
  );
  server.registerResource({ uri: 'demo://watched', name: 'watched' }, (uri) => ({ contents: [{ uri, text: 'x' }] }));
  const handler = createHttpHandler(server, shared);
  handlers.push(handler);
  return { handler, events };
}

/** Resolves once `events` holds `count` entries (hooks of a restore run once its connection is up). */
async function until(events: readonly string[], count: number): Promise<void> {
  for (let turn = 0; events.length < count && turn < 1000; turn += 1) await new Promise((resolve) => setImmediate(resolve));
  expect(events).toHaveLength(count);
}

describe('a legacy session restored on another process', () => {
  test('onSubscribe runs there for the recorded subscriptions, onUnsubscribe when its copy is dropped', async () => {
    const shared = { sessionStore: new MemorySessionStore(), eventStore: new MemoryEventStore(), bus: new MemoryBus() };
    const a = processNamed('a', shared);
    const b = processNamed('b', shared);
    const session = await initialize(a.handler);
    const h = sessionHeaders(session);
    const subscribed = await a.handler(
      post({ jsonrpc: '2.0', id: 1, method: 'resources/subscribe', params: { uri: 'demo://watched' } }, h),
    );
    expect(subscribed.status).toBe(200);
    await subscribed.text();
    expect(a.events).toEqual(['+demo://watched']);

    // B serves the session for the first time: it restores it, subscriptions and their hooks included.
    const ping = await b.handler(post({ jsonrpc: '2.0', id: 2, method: 'ping' }, h));
    expect(ping.status).toBe(200);
    await ping.text();
    await until(b.events, 1);
    expect(b.events).toEqual(['+demo://watched']);

    // A changes the session's state: B drops its copy, ending its subscriptions.
    const level = await a.handler(post({ jsonrpc: '2.0', id: 3, method: 'logging/setLevel', params: { level: 'error' } }, h));
    expect(level.status).toBe(200);
    await level.text();
    await until(b.events, 2);
    expect(b.events).toEqual(['+demo://watched', '-demo://watched']);
    expect(a.events).toEqual(['+demo://watched']);
  });
});
