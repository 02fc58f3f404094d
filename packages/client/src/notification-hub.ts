/**
 * Typed notification listeners: `on(method, listener)` returns an unsubscribe function. Listeners for one method
 * are kept in an array (copied on change, so a listener may unsubscribe itself while being called); a listener
 * that throws is reported and does not stop the others.
 */
import type { ServerNotificationMap } from './types.js';

/** A notification as delivered to catch-all listeners. */
export interface ServerNotification {
  readonly method: string;
  readonly params: Record<string, unknown> | undefined;
}

/** A listener of one notification method. */
export type NotificationListener<P> = (params: P) => void;

/** Params of `method`: the typed shape for known methods, an open object for others. */
export type ParamsOf<M extends string> = M extends keyof ServerNotificationMap
  ? ServerNotificationMap[M]
  : Record<string, unknown> | undefined;

type Untyped = (params: unknown) => void;

/** Fan-out of server notifications to listeners. */
export class NotificationHub {
  readonly #byMethod = new Map<string, Untyped[]>();
  #all: Array<(notification: ServerNotification) => void> = [];
  readonly #report: (error: unknown) => void;
  /**
   * Called when the first listener of a method is added or the last one removed (`'*'` for catch-all listeners):
   * the client reacts by installing a handler or changing its listen stream.
   */
  onchange: ((method: string) => void) | undefined;

  constructor(report: (error: unknown) => void) {
    this.#report = report;
  }

  /** Adds a listener of `method`. */
  on<M extends string>(method: M, listener: NotificationListener<ParamsOf<M>>): () => void {
    const current = this.#byMethod.get(method) ?? [];
    this.#byMethod.set(method, [...current, listener as Untyped]);
    if (current.length === 0) this.onchange?.(method);
    let active = true;
    return () => {
      if (!active) return;
      active = false;
      const list = this.#byMethod.get(method) ?? [];
      const next = list.filter((l) => l !== listener);
      if (next.length === 0) this.#byMethod.delete(method);
      else this.#byMethod.set(method, next);
      if (next.length === 0 && list.length > 0) this.onchange?.(method);
    };
  }

  /** Adds a listener of every notification. */
  onAny(listener: (notification: ServerNotification) => void): () => void {
    this.#all = [...this.#all, listener];
    if (this.#all.length === 1) this.onchange?.('*');
    let active = true;
    return () => {
      if (!active) return;
      active = false;
      this.#all = this.#all.filter((l) => l !== listener);
      if (this.#all.length === 0) this.onchange?.('*');
    };
  }

  /** Number of listeners of `method`. */
  count(method: string): number {
    return this.#byMethod.get(method)?.length ?? 0;
  }

  /** Number of catch-all listeners. */
  anyCount(): number {
    return this.#all.length;
  }

  /** Methods that have listeners. */
  methods(): string[] {
    return [...this.#byMethod.keys()];
  }

  /** Delivers one notification. */
  emit(method: string, params: Record<string, unknown> | undefined): void {
    const listeners = this.#byMethod.get(method);
    if (listeners) {
      for (const listener of listeners) {
        try {
          listener(params);
        } catch (error) {
          this.#report(error);
        }
      }
    }
    if (this.#all.length > 0) {
      const notification: ServerNotification = { method, params };
      for (const listener of this.#all) {
        try {
          listener(notification);
        } catch (error) {
          this.#report(error);
        }
      }
    }
  }
}
