import type { RequestId } from '@wiremcp/protocol';
import type { BatchCollector } from './request-context.js';

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
 */
export class InflightRequests {
  readonly #byId = new Map<RequestId, InflightRequest>();
  #idleWaiters: Array<() => void> = [];

  get size(): number {
    return this.#byId.size;
  }

  has(id: RequestId): boolean {
    return this.#byId.has(id);
  }

  add(context: InflightRequest): void {
    this.#byId.set(context.id, context);
  }

  /** Resolves once no request is in flight (immediately when none is). */
  idle(): Promise<void> {
    if (this.#byId.size === 0) return Promise.resolve();
    return new Promise((resolve) => this.#idleWaiters.push(resolve));
  }

  /**
   * Ends a request; false when its response must not be sent because it was cancelled. Idle waiters are
   * released in a microtask, i.e. after the caller has handed the response to the transport.
   */
  finish(context: InflightRequest): boolean {
    if (this.#byId.get(context.id) === context) this.#byId.delete(context.id);
    if (this.#byId.size === 0 && this.#idleWaiters.length > 0) {
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
    this.#byId.get(id)?.cancel(reason);
  }

  /** Cancels and forgets every request (the connection closed) and releases idle waiters. */
  cancelAll(reason: unknown): void {
    const all = [...this.#byId.values()];
    this.#byId.clear();
    for (const context of all) context.cancel(reason);
    const waiters = this.#idleWaiters;
    this.#idleWaiters = [];
    for (const resolve of waiters) resolve();
  }
}
