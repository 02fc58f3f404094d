/**
 * An event store that fails: every event is still sent, in order; a store that fails every append in flight at
 * once (a shared store whose connection was lost) leaves no rejection unhandled, and the failure is reported once,
 * not once per event.
 */
import { afterEach, expect, test } from 'vitest';
import { MemoryEventStore, type StoredEvent } from './event-store.js';
import type { HttpHandler } from './http-handler.js';
import { initialize, post, sessionHeaders, SseReader, testHandler } from './http.test-util.js';

let handler: HttpHandler | undefined;
afterEach(async () => {
  await handler?.close(0);
});

/** A store whose appends wait until the test settles them. */
class HeldStore extends MemoryEventStore {
  readonly waiting: { event: StoredEvent; fail: (error: Error) => void }[] = [];
  holding = true;
  override append(event: StoredEvent): void | Promise<void> {
    if (!this.holding) return super.append(event);
    return new Promise((_resolve, fail) => this.waiting.push({ event, fail }));
  }
}

test('appends failing while an earlier one is still pending: nothing unhandled, every event sent in order', async () => {
  const unhandled: unknown[] = [];
  const onUnhandled = (reason: unknown): void => void unhandled.push(reason);
  process.on('unhandledRejection', onUnhandled);
  try {
    const store = new HeldStore();
    const reported: unknown[] = [];
    ({ handler } = testHandler({ eventStore: store, onError: (error) => reported.push(error) }));
    store.holding = false;
    const session = await initialize(handler);
    store.holding = true;
    const response = await handler(
      post(
        { jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'progress', arguments: {}, _meta: { progressToken: 'p' } } },
        sessionHeaders(session),
      ),
    );
    const reader = new SseReader(response);
    const all = reader.all();
    // Priming, progress, log, response: four appends in flight, none answered.
    while (store.waiting.length < 4) await new Promise((resolve) => setImmediate(resolve));
    // The connection is lost: the later appends fail first, while the first one is still pending, then it fails too.
    for (const { fail } of store.waiting.slice(1)) fail(new Error('Connection is closed.'));
    await new Promise((resolve) => setImmediate(resolve));
    store.waiting[0]!.fail(new Error('Connection is closed.'));
    const events = await all;
    await new Promise((resolve) => setImmediate(resolve));
    expect(unhandled).toEqual([]);
    expect(events.map((event) => event.message?.method ?? (event.data === '' ? 'priming' : 'response'))).toEqual([
      'priming',
      'notifications/progress',
      'notifications/message',
      'response',
    ]);
    expect(reported).toHaveLength(1);
    expect(String(reported[0])).toMatch(/Connection is closed/);
  } finally {
    process.off('unhandledRejection', onUnhandled);
  }
});
