/**
 * Many deadlines, one timer: what bounds slow request bodies without a timer per request. Entries are kept in
 * insertion order; since every entry of one {@link Deadlines} has the same duration, that is also deadline order, so
 * a tick expires a prefix of the map and stops at the first live entry. The timer stops at the first tick that finds
 * no entry (not when the last one is cleared: one request at a time would start and stop it for every request), and
 * never keeps the process alive.
 */

/** A handle to cancel a deadline before it fires. */
export interface Deadline {
  clear(): void;
}

/** A set of deadlines that all last `durationMs`, checked every `resolutionMs`. */
export class Deadlines {
  readonly #durationMs: number;
  readonly #resolutionMs: number;
  readonly #entries = new Map<object, { readonly at: number; readonly fire: () => void }>();
  readonly #now: () => number;
  #timer: ReturnType<typeof setInterval> | undefined;

  constructor(durationMs: number, options: { resolutionMs?: number; now?: () => number } = {}) {
    this.#durationMs = durationMs;
    this.#resolutionMs = options.resolutionMs ?? Math.max(10, Math.min(1000, Math.floor(durationMs / 4)));
    this.#now = options.now ?? Date.now;
  }

  /** Entries waiting (for tests). */
  get size(): number {
    return this.#entries.size;
  }

  /** Calls `fire` once, about `durationMs` from now, unless cleared first. */
  add(fire: () => void): Deadline {
    const key = {};
    this.#entries.set(key, { at: this.#now() + this.#durationMs, fire });
    if (this.#timer === undefined) {
      this.#timer = setInterval(() => this.#tick(), this.#resolutionMs);
      (this.#timer as { unref?: () => void }).unref?.();
    }
    return { clear: () => this.#remove(key) };
  }

  /** Fires nothing more and stops the timer. */
  clear(): void {
    this.#entries.clear();
    this.#stop();
  }

  #remove(key: object): void {
    this.#entries.delete(key);
  }

  #stop(): void {
    if (this.#timer !== undefined) clearInterval(this.#timer);
    this.#timer = undefined;
  }

  #tick(): void {
    const now = this.#now();
    for (const [key, entry] of this.#entries) {
      if (entry.at > now) break;
      this.#entries.delete(key);
      try {
        entry.fire();
      } catch {
        // A deadline's action is a cancellation; it has nobody to report to.
      }
    }
    if (this.#entries.size === 0) this.#stop();
  }
}
