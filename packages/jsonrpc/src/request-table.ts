import type { RequestId } from '@wiremcp/protocol';

/**
 * Entries keyed by their request id, for a table with a steady churn of short-lived entries (one per request in
 * flight). It has `Map`'s contract for what it holds (one entry per id; ids compared as `Map` does, except `NaN`,
 * which only the overflow `Map` finds), but does not keep every backing table it ever had alive.
 *
 * Why not a `Map` alone: V8 rebuilds a `Map`'s backing table every few dozen additions and deletions, and a replaced
 * table keeps the entries it held (only the live table's deleted entries are cleared). While the table is young that
 * is harmless, but V8 allocates the new table in the generation of the one it replaces: once a full GC has promoted
 * the table (any full GC does: the `Map` is alive), every later table is born old, and each replaced one, dead but not
 * yet collected, keeps its requests, their promises and their results alive through every scavenge until the next
 * full GC frees it; the tables made after that are old again, so it never stops. Measured on a pipelined stdio
 * client (64 calls in flight), about 2 MB survived and was promoted at every scavenge from the first full GC on, and
 * the client's CPU per call rose by a third to a half; with this table a few tens of kilobytes survive.
 *
 * How: integer ids (a `Peer` assigns them in sequence) live in a power-of-two array of slots, at `id & mask`. A new
 * id whose slot holds an older entry still pending (a long request that many later ones overtook) moves that older
 * entry to an overflow `Map`, which holds only such stragglers and other ids (strings, large numbers); the array
 * doubles instead when a quarter of it is in use. A slot is cleared when its entry leaves, so nothing stale stays
 * reachable from it.
 */
export class RequestTable<T extends { readonly id: RequestId }> {
  #slots: Array<T | undefined>;
  #mask: number;
  /** Entries in slots (the overflow counts its own). */
  #inSlots = 0;
  #overflow: Map<RequestId, T> | undefined;

  /** `slots`: the initial array size, a power of two. */
  constructor(slots = 16) {
    this.#slots = new Array<T | undefined>(slots).fill(undefined);
    this.#mask = slots - 1;
  }

  /** How many entries the table holds. */
  get size(): number {
    return this.#inSlots + (this.#overflow === undefined ? 0 : this.#overflow.size);
  }

  /** The entry for `id`. */
  get(id: RequestId): T | undefined {
    if (typeof id === 'number' && (id | 0) === id) {
      const entry = this.#slots[id & this.#mask];
      if (entry !== undefined && entry.id === id) return entry;
    }
    const overflow = this.#overflow;
    return overflow === undefined || overflow.size === 0 ? undefined : overflow.get(id);
  }

  /** Adds `entry`, replacing the entry with the same id if there is one. */
  set(entry: T): void {
    const id = entry.id;
    const overflow = this.#overflow;
    if (typeof id !== 'number' || (id | 0) !== id || (overflow !== undefined && overflow.size !== 0 && overflow.has(id))) {
      (this.#overflow ??= new Map()).set(id, entry);
      return;
    }
    let index = id & this.#mask;
    let occupant = this.#slots[index];
    if (occupant !== undefined && occupant.id !== id) {
      if (4 * (this.#inSlots + 1) > this.#slots.length) {
        this.#grow();
        index = id & this.#mask;
        occupant = this.#slots[index];
      }
      if (occupant !== undefined && occupant.id !== id) {
        (this.#overflow ??= new Map()).set(occupant.id, occupant);
        this.#inSlots--;
        occupant = undefined;
      }
    }
    if (occupant === undefined) this.#inSlots++;
    this.#slots[index] = entry;
  }

  /** Removes the entry for `id`; false when there is none. */
  delete(id: RequestId): boolean {
    if (typeof id === 'number' && (id | 0) === id) {
      const index = id & this.#mask;
      const entry = this.#slots[index];
      if (entry !== undefined && entry.id === id) {
        this.#slots[index] = undefined;
        this.#inSlots--;
        return true;
      }
    }
    return this.#overflow !== undefined && this.#overflow.delete(id);
  }

  /** A snapshot of the entries: the overflow's in insertion order, then the slots' by ascending id. */
  values(): T[] {
    const inSlots: T[] = [];
    for (const entry of this.#slots) if (entry !== undefined) inSlots.push(entry);
    inSlots.sort((a, b) => (a.id as number) - (b.id as number));
    return this.#overflow === undefined || this.#overflow.size === 0 ? inSlots : [...this.#overflow.values(), ...inSlots];
  }

  /** Removes every entry. */
  clear(): void {
    if (this.#inSlots !== 0) this.#slots.fill(undefined);
    this.#inSlots = 0;
    this.#overflow?.clear();
  }

  /** Doubles the slots; entries in distinct slots modulo n stay in distinct slots modulo 2n. */
  #grow(): void {
    const old = this.#slots;
    const size = old.length * 2;
    const slots = new Array<T | undefined>(size).fill(undefined);
    const mask = size - 1;
    for (const entry of old) if (entry !== undefined) slots[(entry.id as number) & mask] = entry;
    // The old array may already be in the old generation: emptied, it keeps nothing alive until a full GC frees it.
    old.fill(undefined);
    this.#slots = slots;
    this.#mask = mask;
  }
}
