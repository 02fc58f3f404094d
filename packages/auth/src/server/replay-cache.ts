/**
 * Remembers DPoP proof identifiers (`jti`) until their proofs would be too old anyway, so a captured proof cannot be
 * replayed within its validity window (RFC 9449 §11.1).
 */

/** A store of seen proof identifiers. Implement it over a shared store (e.g. Redis `SET NX PX`) for several instances. */
export interface ReplayCache {
  /**
   * Records `id` until `expiresAt` (ms since the epoch). Resolves true when `id` was not seen before (the proof is
   * fresh), false when it was (a replay).
   */
  remember(id: string, expiresAt: number): Promise<boolean>;
}

/**
 * An in-memory {@link ReplayCache} with a hard size bound. When full, expired entries are dropped first, then the
 * oldest ones; an evicted identifier could be replayed only while its proof is still within the accepted age, so size
 * the bound for the expected proof rate times that window.
 */
export class MemoryReplayCache implements ReplayCache {
  readonly #entries = new Map<string, number>();
  readonly #maxEntries: number;
  readonly #now: () => number;

  constructor(options: { maxEntries?: number; now?: () => number } = {}) {
    this.#maxEntries = Math.max(1, options.maxEntries ?? 100_000);
    this.#now = options.now ?? Date.now;
  }

  /** Number of remembered identifiers. */
  get size(): number {
    return this.#entries.size;
  }

  remember(id: string, expiresAt: number): Promise<boolean> {
    const now = this.#now();
    const seen = this.#entries.get(id);
    if (seen !== undefined && seen > now) return Promise.resolve(false);
    if (seen !== undefined) this.#entries.delete(id);
    if (this.#entries.size >= this.#maxEntries) this.#evict(now);
    this.#entries.set(id, expiresAt);
    return Promise.resolve(true);
  }

  #evict(now: number): void {
    for (const [key, expiry] of this.#entries) {
      if (expiry <= now) this.#entries.delete(key);
    }
    // Map iteration is insertion order: the first keys are the oldest.
    for (const key of this.#entries.keys()) {
      if (this.#entries.size < this.#maxEntries) break;
      this.#entries.delete(key);
    }
  }
}
