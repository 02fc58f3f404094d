import type { RequestId } from '@wiremcp/protocol';
import type { BatchCollector } from './request-context.js';
import { RequestTable } from './request-table.js';

/** What the engine tracks of a request in flight (a `RequestContext` is one). */
export interface InflightRequest {
  readonly id: RequestId;
  readonly cancelled: boolean;
  readonly batch: BatchCollector | undefined;
  cancel(reason: unknown): void;
}

/**
 * The inbound requests being handled, by id: their cancellation, and the moment none is left (for `drain()`
 * and for closing after the input ended). Nothing is scheduled per request unless someone waits.
 *
 * A request whose handler is running synchronously sits in a slot of its own ({@link begin}) and enters the
 * table by id only if its handler returns a promise ({@link suspend}): most requests are answered before their
 * handler returns, and a `Map` entry added and deleted per request made V8 grow, shrink and rehash the table over
 * and over (about 3% of a stdio server's CPU per call). Seen from outside, a request in the slot is in flight like
 * any other (`has`, `size`, `cancel`, `cancelAll`).
 */
export class InflightRequests {
  /**
   * Made when a handler first suspends (most connections never need it). A RequestTable, not a Map: a Map's replaced
   * backing tables keep finished requests alive through scavenges (see RequestTable).
   */
  #table: RequestTable<InflightRequest> | undefined;
  /** The request whose handler is running right now (not in the map); a nested one goes to the map. */
  #running: InflightRequest | undefined;
  #idleWaiters: Array<() => void> = [];

  get size(): number {
    return (this.#table?.size ?? 0) + (this.#running === undefined ? 0 : 1);
  }

  has(id: RequestId): boolean {
    const table = this.#table;
    return this.#running?.id === id || (table !== undefined && table.size !== 0 && table.get(id) !== undefined);
  }

  /** Registers a request whose handler is about to run. */
  begin(context: InflightRequest): void {
    if (this.#running === undefined) this.#running = context;
    else (this.#table ??= new RequestTable()).set(context);
  }

  /** The handler of `context` returned a promise: it stays in flight until {@link finish}. */
  suspend(context: InflightRequest): void {
    if (this.#running !== context) return;
    this.#running = undefined;
    (this.#table ??= new RequestTable()).set(context);
  }

  /** Resolves once no request is in flight (immediately when none is). */
  idle(): Promise<void> {
    if (this.size === 0) return Promise.resolve();
    return new Promise((resolve) => this.#idleWaiters.push(resolve));
  }

  /**
   * Ends a request; false when its response must not be sent because it was cancelled. Idle waiters are
   * released in a microtask, i.e. after the caller has handed the response to the transport.
   */
  finish(context: InflightRequest): boolean {
    if (this.#running === context) this.#running = undefined;
    else if (this.#table?.get(context.id) === context) this.#table.delete(context.id);
    if (this.#idleWaiters.length > 0 && this.size === 0) {
      const waiters = this.#idleWaiters;
      this.#idleWaiters = [];
      queueMicrotask(() => {
        for (const resolve of waiters) resolve();
      });
    }
    if (context.cancelled) {
      context.batch?.add(undefined);
      return false;
    }
    return true;
  }

  /**
   * Cancels request `id` (a `notifications/cancelled` from the peer): its signal aborts and its response is
   * suppressed. The entry stays until the handler settles, so `finish` accounts for it (and its batch) once.
   */
  cancel(id: RequestId, reason: unknown): void {
    const running = this.#running;
    if (running?.id === id) running.cancel(reason);
    else this.#table?.get(id)?.cancel(reason);
  }

  /** Cancels and forgets every request (the connection closed) and releases idle waiters. */
  cancelAll(reason: unknown): void {
    const all = this.#table?.values() ?? [];
    if (this.#running !== undefined) all.push(this.#running);
    this.#table?.clear();
    this.#running = undefined;
    for (const context of all) context.cancel(reason);
    const waiters = this.#idleWaiters;
    this.#idleWaiters = [];
    for (const resolve of waiters) resolve();
  }
}
