/**
 * A legacy stream resumed on another process than the one running it (two handlers sharing a session store, an
 * event store and a bus that can tell which process is alive): followed live there until its end; ended with an
 * error for the request still owed once the process running it died; a standalone stream taken over; a request of
 * a session that ended on its process ends with an error too. And a 2024-11-05 HTTP+SSE session: a message POSTed
 * to the other process reaches the one holding the stream, until that one died (then 404).
 */
import { afterEach, describe, expect, test } from 'vitest';
import { MemoryEventStore } from './event-store.js';
import type { HttpHandler } from './http-handler.js';
import { ENDPOINT, initialize, MemoryBus, post, sessionHeaders, SseReader, testHandler, type Probe } from './http.test-util.js';
import type { BusMessage } from './session-bus.js';
import { MemorySessionStore } from './session-store.js';
import type { McpServer } from '@wiremcp/server';

let handlers: HttpHandler[] = [];
afterEach(async () => {
  await Promise.all(handlers.map((handler) => handler.close(0)));
  handlers = [];
});

/** A bus that knows who joined, and can cut a process off (it "dies": hears nothing, counts as dead). */
class LivenessBus extends MemoryBus {
  readonly joined = new Set<string>();
  readonly dead = new Set<string>();
  join(origin: string): void {
    this.joined.add(origin);
  }
  alive(origin: string): boolean {
    return this.joined.has(origin) && !this.dead.has(origin);
  }
  override subscribe(listener: (message: BusMessage) => void): () => void {
    // Each handler subscribes once, right after it is created; its origin is known once it joined.
    const joinedBefore = new Set(this.joined);
    return super.subscribe((message) => {
      const mine = [...this.joined].find((origin) => !joinedBefore.has(origin));
      if (mine !== undefined && this.dead.has(mine)) return;
      listener(message);
    });
  }
}

function pair() {
  const sessionStore = new MemorySessionStore();
  const eventStore = new MemoryEventStore();
  const bus = new LivenessBus({ deferred: true });
  const made = [0, 1].map(() => {
    const before = new Set(bus.joined);
    const handler = testHandler({ sessionStore, eventStore, bus, streamOwnerCheckMs: 20, legacySse: true, onError: () => {} });
    const origin = [...bus.joined].find((o) => !before.has(o))!;
    return { ...handler, origin };
  });
  handlers = made.map((m) => m.handler);
  return {
    a: made[0]!.handler,
    b: made[1]!.handler,
    origins: made.map((m) => m.origin),
    servers: made.map((m) => m.server) as [McpServer, McpServer],
    probes: made.map((m) => m.probe) as [Probe, Probe],
    bus,
  };
}

const get = (session: string, lastEventId: string) =>
  new Request(ENDPOINT, { headers: { ...sessionHeaders(session), accept: 'text/event-stream', 'last-event-id': lastEventId } });
const waitCall = (id: number) => ({
  jsonrpc: '2.0',
  id,
  method: 'tools/call',
  params: { name: 'wait', arguments: {}, _meta: { progressToken: 'w' } },
});

describe('a request stream resumed on another process', () => {
  test('while its process runs it: followed live until its result, each event once', async () => {
    const { a, b, probes } = pair();
    const session = await initialize(a);
    const first = new SseReader(await a(post(waitCall(1), sessionHeaders(session))));
    const seen = await first.take(2); // priming, progress
    await probes[0].started.promise;
    await first.cancel();
    const resumed = new SseReader(await b(get(session, seen.at(-1)!.id!)));
    probes[0].release.resolve();
    const rest = await resumed.all();
    expect(rest.map((event) => event.message?.id)).toEqual([1]);
    expect(rest[0]!.message).toMatchObject({ result: { content: [{ text: 'released' }] } });
  });

  test('once its process died: ended with an error saying so, which a later resumption replays', async () => {
    const { a, b, bus, origins, probes } = pair();
    const session = await initialize(a);
    const first = new SseReader(await a(post(waitCall(1), sessionHeaders(session))));
    const seen = await first.take(2);
    await probes[0].started.promise;
    await first.cancel();
    bus.dead.add(origins[0]!);
    const rest = await new SseReader(await b(get(session, seen.at(-1)!.id!))).all();
    expect(rest.map((event) => event.message)).toEqual([
      { jsonrpc: '2.0', id: 1, error: expect.objectContaining({ code: -32603, data: { reason: 'server-process-lost' } }) },
    ]);
    const again = await new SseReader(await b(get(session, seen.at(-1)!.id!))).all();
    expect(again.map((event) => event.message)).toEqual(rest.map((event) => event.message));
  });

  test('a streamed request whose session ended on its process ends with an error, not silence', async () => {
    const { a, probes } = pair();
    const session = await initialize(a);
    const stream = new SseReader(await a(post(waitCall(1), sessionHeaders(session))));
    await probes[0].started.promise;
    await a.close(0);
    const events = await stream.all();
    const messages = events.filter((event) => event.message !== undefined);
    expect(messages.at(-1)?.message).toMatchObject({ id: 1, error: { code: -32603, data: { reason: 'session-ended' } } });
    // A closing handler ends its streams with a last retry hint, so that clients reconnect (to another process).
    expect(events.at(-1)).toMatchObject({ retry: expect.any(Number) });
  });
});

describe('the standalone stream resumed on another process', () => {
  test('its process alive: followed; its process dead: taken over, live from here', async () => {
    const { a, b, servers, bus, origins } = pair();
    const session = await initialize(a);
    const listen = new SseReader(await a(new Request(ENDPOINT, { headers: { ...sessionHeaders(session), accept: 'text/event-stream' } })));
    servers[0].notifyToolListChanged();
    const seen = await listen.take(2);
    await listen.cancel();
    servers[0].notifyResourceListChanged(); // raised while no connection carries it: stored by A
    const resumed = new SseReader(await b(get(session, seen.at(-1)!.id!)));
    expect((await resumed.take(1)).map((event) => event.message?.method)).toEqual(['notifications/resources/list_changed']);
    servers[1].notifyToolListChanged(); // raised on B: heard by A (the holder), forwarded to B's follower
    expect((await resumed.take(2))[1]!.message?.method).toBe('notifications/tools/list_changed');
    bus.dead.add(origins[0]!);
    // Once B took the stream over, an event raised on B reaches it from B itself.
    // (Raised again until it arrives: until B saw A die, an event raised on B reaches no stream.)
    let arrived = false;
    const third = resumed.take(3).then(() => (arrived = true));
    for (let turn = 0; turn < 200 && !arrived; turn += 1) {
      servers[1].notifyResourceListChanged();
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
    await third;
    expect(resumed.events[2]!.message?.method).toBe('notifications/resources/list_changed');
    const ids = [...seen, ...resumed.events].map((event) => event.id);
    expect(new Set(ids).size).toBe(ids.length);
    await resumed.cancel();
  });
});

describe('a 2024-11-05 HTTP+SSE session', () => {
  test('a message POSTed to another process reaches the one holding the stream; once that one died, 404', async () => {
    const { a, b, bus, origins } = pair();
    const stream = new SseReader(await a(new Request('http://localhost/sse', { headers: { accept: 'text/event-stream' } })));
    const endpoint = (await stream.next())!.data;
    const send = (handler: HttpHandler, body: unknown) =>
      handler(
        new Request(new URL(endpoint, 'http://localhost'), {
          method: 'POST',
          headers: { 'content-type': 'application/json', authorization: 'Bearer secret' },
          body: JSON.stringify(body),
        }),
      );
    const init = { protocolVersion: '2024-11-05', capabilities: {}, clientInfo: { name: 'old', version: '1' } };
    expect((await send(b, { jsonrpc: '2.0', id: 1, method: 'initialize', params: init })).status).toBe(202);
    expect((await stream.next())!.message).toMatchObject({ id: 1, result: { protocolVersion: '2024-11-05' } });
    expect((await send(b, { jsonrpc: '2.0', method: 'notifications/initialized' })).status).toBe(202);
    expect(
      (await send(b, { jsonrpc: '2.0', id: 2, method: 'tools/call', params: { name: 'echo', arguments: { text: 'via B' } } })).status,
    ).toBe(202);
    expect((await stream.next())!.message).toMatchObject({ id: 2, result: { content: [{ text: 'via B' }] } });
    // Credentials stay where they arrived.
    const handed = bus.sent.filter((message) => message.kind === 'deliver');
    expect(handed.length).toBe(3);
    expect(handed.every((message) => message.kind === 'deliver' && message.headers?.authorization === undefined)).toBe(true);
    bus.dead.add(origins[0]!);
    expect((await send(b, { jsonrpc: '2.0', id: 3, method: 'ping' })).status).toBe(404);
    await stream.cancel();
  });
});
