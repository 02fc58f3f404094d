/**
 * Many deadlines, one timer: what bounds slow request bodies without a timer per request. Every deadline of one
 * {@link Deadlines} has the same duration, so insertion order is deadline order: entries form a doubly linked list,
 * appended at the tail, removed from anywhere in O(1), and a tick expires a prefix of it, stopping at the first live
 * entry. An entry is its own handle (one object per deadline, no map, no closure): under load most entries are
 * cleared within a millisecond and die young, where a `Map` kept its backing store growing and being copied in the
 * old generation. What expires is a target handed to one `expire` function given at construction (a body read, which is
 * cancelled), so adding a deadline makes no closure. The timer stops at the first tick that finds no entry (not when
 * the last one is cleared: one request at a time would start and stop it for every request), and never keeps the
 * process alive.
 */

/** A handle to cancel a deadline before it fires. */
export interface Deadline {
  clear(): void;
}

/** One deadline: its own list node and its own handle. */
class Entry<T> implements Deadline {
  prev: Entry<T> | undefined = undefined;
  next: Entry<T> | undefined = undefined;
  /** Set while the entry is in its list; `undefined` once cleared or fired. */
  owner: Deadlines<T> | undefined;

  constructor(
    owner: Deadlines<T>,
    readonly at: number,
    readonly target: T,
  ) {
    this.owner = owner;
  }

  clear(): void {
    this.owner?.unlink(this);
  }
}

/** A set of deadlines that all last `durationMs`, checked every `resolutionMs`; `expire` is called with each target that expires. */
export class Deadlines<T> {
  readonly #durationMs: number;
  readonly #expire: (target: T) => void;
  readonly #resolutionMs: number;
  readonly #now: () => number;
  #head: Entry<T> | undefined;
  #tail: Entry<T> | undefined;
  #size = 0;
  #timer: ReturnType<typeof setInterval> | undefined;

  constructor(durationMs: number, expire: (target: T) => void, options: { resolutionMs?: number; now?: () => number } = {}) {
    this.#durationMs = durationMs;
    this.#expire = expire;
    this.#resolutionMs = options.resolutionMs ?? Math.max(10, Math.min(1000, Math.floor(durationMs / 4)));
    this.#now = options.now ?? Date.now;
  }

  /** Entries waiting (for tests). */
  get size(): number {
    return this.#size;
  }

  /** Calls `expire(target)` once, about `durationMs` from now, unless cleared first. */
  add(target: T): Deadline {
    const entry = new Entry(this, this.#now() + this.#durationMs, target);
    const tail = this.#tail;
    if (tail === undefined) this.#head = entry;
    else {
      tail.next = entry;
      entry.prev = tail;
    }
    this.#tail = entry;
    this.#size++;
    if (this.#timer === undefined) {
      this.#timer = setInterval(() => this.#tick(), this.#resolutionMs);
      (this.#timer as { unref?: () => void }).unref?.();
    }
    return entry;
  }

  /** Fires nothing more and stops the timer. */
  clear(): void {
    for (let entry = this.#head; entry !== undefined;) {
      const next = entry.next;
      entry.owner = entry.prev = entry.next = undefined;
      entry = next;
    }
    this.#head = this.#tail = undefined;
    this.#size = 0;
    this.#stop();
  }

  /** Takes `entry` out of the list (internal: called by the entry's own `clear`). */
  unlink(entry: Entry<T>): void {
    const { prev, next } = entry;
    if (prev === undefined) this.#head = next;
    else prev.next = next;
    if (next === undefined) this.#tail = prev;
    else next.prev = prev;
    entry.owner = entry.prev = entry.next = undefined;
    this.#size--;
  }

  #stop(): void {
    if (this.#timer !== undefined) clearInterval(this.#timer);
    this.#timer = undefined;
  }

  #tick(): void {
    const now = this.#now();
    for (let entry = this.#head; entry !== undefined && entry.at <= now; entry = this.#head) {
      this.unlink(entry);
      try {
        this.#expire(entry.target);
      } catch {
        // A deadline's action is a cancellation; it has nobody to report to.
      }
    }
    if (this.#size === 0) this.#stop();
  }
}
