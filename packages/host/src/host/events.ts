/**
 * A small typed event emitter: `on(event, listener)` returns the function that removes the listener. A listener that
 * throws does not stop the others; its error goes to `onListenerError`.
 */

/** Removes the listener it was returned for. Idempotent. */
export type Unsubscribe = () => void;

/** Listeners per event name of `Events` (a map of event name → payload type). */
export class TypedEvents<Events extends object> {
  readonly #listeners = new Map<keyof Events, Set<(payload: never) => void>>();
  readonly #onListenerError: (error: unknown) => void;

  constructor(onListenerError: (error: unknown) => void) {
    this.#onListenerError = onListenerError;
  }

  /** Adds a listener; returns its remover. */
  on<K extends keyof Events>(event: K, listener: (payload: Events[K]) => void): Unsubscribe {
    let set = this.#listeners.get(event);
    if (set === undefined) this.#listeners.set(event, (set = new Set()));
    const entry = listener as (payload: never) => void;
    set.add(entry);
    return () => {
      set.delete(entry);
      if (set.size === 0 && this.#listeners.get(event) === set) this.#listeners.delete(event);
    };
  }

  /** Calls every listener of `event` with `payload`, in the order they were added. */
  emit<K extends keyof Events>(event: K, payload: Events[K]): void {
    const set = this.#listeners.get(event);
    if (set === undefined) return;
    for (const listener of [...set]) {
      try {
        (listener as (payload: Events[K]) => void)(payload);
      } catch (error) {
        this.#onListenerError(error);
      }
    }
  }

  /** How many listeners are registered (all events). */
  get size(): number {
    let count = 0;
    for (const set of this.#listeners.values()) count += set.size;
    return count;
  }

  /** Removes every listener. */
  clear(): void {
    this.#listeners.clear();
  }
}
