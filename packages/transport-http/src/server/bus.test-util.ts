/**
 * Test helpers for more than one process: buses in memory (plain, with liveness, and one that holds back what a
 * process hears, to drive a race in a chosen order) and two handlers sharing their stores and a bus.
 */
import type { McpServer } from '@wiremcp/server';
import type { HttpHandler } from './http-handler.js';
import { MemoryEventStore } from './event-store.js';
import type { HttpHandlerOptions } from './options.js';
import { MemorySessionStore } from './session-store.js';
import type { BusMessage, SessionBus } from './session-bus.js';
import { ENDPOINT, initialize, post, sessionHeaders, SseReader, testHandler, type Probe } from './http.test-util.js';

/**
 * A bus in memory: every message to every subscriber (the publisher's own included), as Redis pub/sub does; with
 * `deferred`, delivered in a microtask, as a real bus delivers after `publish` returns. Keeps what was sent.
 */
export class MemoryBus implements SessionBus {
  readonly listeners = new Set<(message: BusMessage) => void>();
  readonly sent: BusMessage[] = [];
  readonly #deferred: boolean;
  constructor(options: { deferred?: boolean } = {}) {
    this.#deferred = options.deferred ?? false;
  }
  publish(message: BusMessage): void {
    this.sent.push(message);
    const copy = structuredClone(message);
    const deliver = (): void => {
      for (const listener of this.listeners) listener(copy);
    };
    if (this.#deferred) queueMicrotask(deliver);
    else deliver();
  }
  subscribe(listener: (message: BusMessage) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }
}

/** A bus that knows who joined, and can cut a process off (it "dies": hears nothing, counts as dead). */
export class LivenessBus extends MemoryBus {
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

/**
 * A {@link LivenessBus} that can hold back what one process hears: `hold(origin)` queues its messages (in bus order),
 * `deliverHeld(origin)` hands them over and stops holding. The bus's order is unchanged: a process held is one that
 * has not read them yet.
 */
export class HoldingBus extends LivenessBus {
  readonly #held = new Map<string, (() => void)[]>();
  hold(origin: string): void {
    this.#held.set(origin, []);
  }
  deliverHeld(origin: string): void {
    const queue = this.#held.get(origin) ?? [];
    this.#held.delete(origin);
    for (const deliver of queue) deliver();
  }
  override subscribe(listener: (message: BusMessage) => void): () => void {
    const joinedBefore = new Set(this.joined);
    return super.subscribe((message) => {
      const mine = [...this.joined].find((origin) => !joinedBefore.has(origin));
      const queue = mine === undefined ? undefined : this.#held.get(mine);
      if (queue === undefined) listener(message);
      else queue.push(() => listener(message));
    });
  }
}

/**
 * A 2025-11-25 session opened on `a` and subscribed there to `uri`, with a copy on `b` (a ping), its standalone GET
 * stream open on `a` and read past its priming event: the set-up of a hand-over from `a` to `b`.
 */
export async function listenedOnFirst(
  a: HttpHandler,
  b: HttpHandler,
  uri: string,
): Promise<{ headers: Record<string, string>; listen: SseReader }> {
  const headers = sessionHeaders(await initialize(a));
  const subscribed = await a(post({ jsonrpc: '2.0', id: 1, method: 'resources/subscribe', params: { uri } }, headers));
  if (subscribed.status !== 200) throw new Error(`resources/subscribe answered ${subscribed.status}`);
  await subscribed.text();
  const pinged = await b(post({ jsonrpc: '2.0', id: 2, method: 'ping' }, headers));
  await pinged.text();
  const listen = new SseReader(await a(new Request(ENDPOINT, { headers: { ...headers, accept: 'text/event-stream' } })));
  await listen.take(1);
  return { headers, listen };
}

/**
 * Two handlers ("processes") sharing a session store, an event store and `bus` (`options` added to each); each one's
 * tag on the bus in `origins`.
 */
export function twoProcesses(bus: LivenessBus, options: HttpHandlerOptions = {}) {
  const sessionStore = new MemorySessionStore();
  const eventStore = new MemoryEventStore();
  const made = [0, 1].map(() => {
    const before = new Set(bus.joined);
    const handler = testHandler({ sessionStore, eventStore, bus, onError: () => {}, ...options });
    return { ...handler, origin: [...bus.joined].find((o) => !before.has(o))! };
  });
  return {
    handlers: made.map((m) => m.handler),
    origins: made.map((m) => m.origin),
    servers: made.map((m) => m.server) as [McpServer, McpServer],
    probes: made.map((m) => m.probe) as [Probe, Probe],
  };
}
