/**
 * The standalone stream's hand-over between two processes (two handlers sharing a session store, an event store and
 * a bus), with the order in which the holder hears the bus under the test's control: an update raised on the holder
 * before the `handover`, in the window after the bus ordered the `handover` but before the holder heard it, or after
 * it heard it, reaches the client exactly once, under one event id.
 */
import { afterEach, describe, expect, test } from 'vitest';
import type { McpServer } from '@wiremcp/server';
import type { HttpHandler } from './http-handler.js';
import { MemoryEventStore, type StoredEvent } from './event-store.js';
import { ENDPOINT, SseReader, type TestEvent } from './http.test-util.js';
import { HoldingBus, listenedOnFirst, twoProcesses } from './bus.test-util.js';

let handlers: HttpHandler[] = [];
afterEach(async () => {
  await Promise.all(handlers.map((handler) => handler.close(0)));
  handlers = [];
});

/** The processes' shared event store, whose appends fail while `failing` is set. */
class FailingStore extends MemoryEventStore {
  failing = false;
  failed = 0;
  override append(event: StoredEvent): void {
    if (!this.failing) return super.append(event);
    this.failed += 1;
    throw new Error('event store unreachable');
  }
}

function pair(eventStore?: FailingStore) {
  const bus = new HoldingBus({ deferred: true });
  // The owner checks stay out of the way: the holder's answer, not its silence, ends each takeover here.
  const made = twoProcesses(bus, { streamOwnerCheckMs: 1000, ...(eventStore === undefined ? {} : { eventStore }) });
  handlers = made.handlers;
  return { a: handlers[0]!, b: handlers[1]!, holder: made.origins[0]!, servers: made.servers, bus };
}

const updates = (events: readonly TestEvent[]) => events.filter((event) => event.message?.method === 'notifications/resources/updated');

describe('an update raised on the holder of the standalone stream while a takeover is ordered', () => {
  for (const when of ['before the handover', 'after the handover, before the holder heard it', 'after the holder heard it'] as const) {
    test(`${when}: heard once`, async () => {
      const { a, b, holder, servers, bus } = pair();
      const [onA, onB] = servers;
      const uri = 'x://window';
      const { headers, listen } = await listenedOnFirst(a, b, uri);
      let raised = 0;
      const raise = (server: McpServer): void => {
        raised += 1;
        server.notifyResourceUpdated(uri);
      };
      raise(onA);
      raise(onB); // heard by A, which holds the stream
      await listen.take(3);
      await listen.cancel(); // the client's connection broke: it resumes on B
      const lastId = listen.events.at(-1)!.id!;

      if (when === 'before the handover') raise(onA); // published before the `handover`
      bus.hold(holder); // A reads nothing more for now
      const resumed = new SseReader(
        await b(new Request(ENDPOINT, { headers: { ...headers, accept: 'text/event-stream', 'last-event-id': lastId } })),
      );
      expect(bus.sent.filter((message) => message.kind === 'handover')).toHaveLength(1);
      if (when === 'after the handover, before the holder heard it') raise(onA); // stored by A, published after the `handover`
      raise(onB); // B's from here
      bus.deliverHeld(holder); // A hears the `handover` (and what came after it)
      if (when === 'after the holder heard it') raise(onA); // A holds nothing: B hears it
      onB.notifyToolListChanged(); // the end mark
      for (let event = await resumed.next(); event?.message?.method !== 'notifications/tools/list_changed'; event = await resumed.next())
        expect(event, 'the resumed stream ended before the end mark').toBeDefined();

      const heard = [...listen.events, ...resumed.events];
      expect(updates(heard).length, `${raised} raised`).toBe(raised);
      const ids = heard.map((event) => event.id).filter((id) => id !== undefined);
      expect(new Set(ids).size).toBe(ids.length);
      await resumed.cancel();
    });
  }
});

test('an update raised in the window whose append fails on the holder: the taker still sends its copy (heard once)', async () => {
  const store = new FailingStore();
  const { a, b, holder, servers, bus } = pair(store);
  const [onA, onB] = servers;
  const uri = 'x://window';
  const { headers, listen } = await listenedOnFirst(a, b, uri);
  onA.notifyResourceUpdated(uri);
  await listen.take(2);
  await listen.cancel();
  const lastId = listen.events.at(-1)!.id!;
  bus.hold(holder);
  const resumed = new SseReader(
    await b(new Request(ENDPOINT, { headers: { ...headers, accept: 'text/event-stream', 'last-event-id': lastId } })),
  );
  // In the window: the holder stores the update (its append fails) and publishes it after the `handover`.
  store.failing = true;
  onA.notifyResourceUpdated(uri);
  store.failing = false;
  expect(store.failed).toBe(1);
  bus.deliverHeld(holder);
  onB.notifyToolListChanged(); // the end mark
  for (let event = await resumed.next(); event?.message?.method !== 'notifications/tools/list_changed'; event = await resumed.next())
    expect(event, 'the resumed stream ended before the end mark').toBeDefined();
  // Two raised: the first before the break, the second in the window (not in the store: only the taker's copy is left).
  expect(updates([...listen.events, ...resumed.events])).toHaveLength(2);
  await resumed.cancel();
});
