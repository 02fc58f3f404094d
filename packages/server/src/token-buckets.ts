/**
 * Token buckets: the store interface a rate limiter takes tokens from, and the in-memory store. A bucket holds up to
 * `capacity` tokens, refills continuously at `capacity` per `periodMs`, and starts full. The memory store keeps at
 * most `maxBuckets` buckets (least recently used evicted first) and shortens long keys to a bounded form, so hostile
 * keys (a client sending a new huge principal name with every request) cannot grow memory without bound.
 */
import { LocalError } from '@wiremcp/protocol';

/** One bucket's rate: `capacity` tokens per `periodMs`, bursts of up to `capacity`. */
export interface BucketRate {
  readonly capacity: number;
  readonly periodMs: number;
}

/** What taking one token gave. */
export interface TakeResult {
  /** A token was taken: the request may go on. */
  readonly allowed: boolean;
  /** Tokens left after this take (rounded down). */
  readonly remaining: number;
  /** When refused: the time until one token is available, in ms (≥ 1). 0 when allowed. */
  readonly retryAfterMs: number;
}

/**
 * Where buckets live. `take` takes one token from the bucket `key` (creating it full) atomically — a store shared by
 * several processes (Redis) must not let two of them take the same last token. It may reject or never settle (a
 * store that is down or hung): the rate limiter bounds the wait and applies its failure policy.
 */
export interface BucketStore {
  take(key: string, rate: BucketRate): TakeResult | Promise<TakeResult>;
}

/** Options of {@link MemoryBucketStore}. */
export interface MemoryBucketStoreOptions {
  /** Most buckets kept at once (default 10 000); the least recently used one is dropped first (it refills as new). */
  readonly maxBuckets?: number;
  /** The clock, in ms (default `Date.now`). A clock that goes back refills nothing; it never takes tokens away. */
  readonly now?: () => number;
}

/** Keys longer than this are kept as a prefix and a hash of the whole key. */
export const MAX_KEY_CHARS = 200;

/** A 53-bit FNV-1a-style hash of `text`, as base-36 (two 32-bit lanes with different offsets). */
function hashKey(text: string): string {
  let a = 0x811c9dc5;
  let b = 0x01000193 ^ text.length;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    a = Math.imul(a ^ c, 0x01000193) >>> 0;
    b = Math.imul(b ^ c, 0x5bd1e995) >>> 0;
  }
  return ((b & 0x1fffff) * 0x100000000 + a).toString(36);
}

/** `key` itself when short, else its first characters and a hash of all of it: a bounded size for any key. */
export function boundedKey(key: string): string {
  return key.length <= MAX_KEY_CHARS ? key : `${key.slice(0, MAX_KEY_CHARS - 16)}#${hashKey(key)}`;
}

/** Throws `INVALID_ARGUMENT` unless `rate` has a positive integer capacity and a positive finite period. */
export function checkRate(rate: BucketRate): void {
  if (!Number.isSafeInteger(rate.capacity) || rate.capacity < 1 || !(rate.periodMs > 0) || !Number.isFinite(rate.periodMs)) {
    throw new LocalError(
      'INVALID_ARGUMENT',
      `a rate needs an integer capacity ≥ 1 and a period > 0 ms, not ${rate.capacity}/${rate.periodMs}ms`,
    );
  }
}

interface Bucket {
  tokens: number;
  at: number;
}

/** Buckets in this process's memory: one process's limit (use a shared store for a cluster). */
export class MemoryBucketStore implements BucketStore {
  readonly #buckets = new Map<string, Bucket>();
  readonly #max: number;
  readonly #now: () => number;

  constructor(options: MemoryBucketStoreOptions = {}) {
    const max = options.maxBuckets ?? 10_000;
    if (!Number.isSafeInteger(max) || max < 1) throw new LocalError('INVALID_ARGUMENT', `maxBuckets must be an integer ≥ 1, not ${max}`);
    this.#max = max;
    this.#now = options.now ?? Date.now;
  }

  /** Buckets held now (at most `maxBuckets`). */
  get size(): number {
    return this.#buckets.size;
  }

  take(key: string, rate: BucketRate): TakeResult {
    const now = this.#now();
    const id = boundedKey(key);
    let bucket = this.#buckets.get(id);
    if (bucket === undefined) {
      bucket = { tokens: rate.capacity, at: now };
      if (this.#buckets.size >= this.#max) this.#buckets.delete(this.#buckets.keys().next().value!);
    } else {
      // Re-inserted below: the Map's order is least recently used first.
      this.#buckets.delete(id);
      refill(bucket, rate, now);
    }
    this.#buckets.set(id, bucket);
    return takeOne(bucket, rate);
  }
}

/** Adds what accrued since the bucket was last seen; a clock that went back (or is not finite) adds nothing. */
function refill(bucket: Bucket, rate: BucketRate, now: number): void {
  if (!Number.isFinite(now)) return;
  const elapsed = now - bucket.at;
  if (elapsed > 0) {
    bucket.tokens = Math.min(rate.capacity, bucket.tokens + (elapsed * rate.capacity) / rate.periodMs);
    bucket.at = now;
  } else if (elapsed < 0) {
    // The clock went back: restart accrual from the new reading rather than wait for the old one to come again.
    bucket.at = now;
  }
}

function takeOne(bucket: Bucket, rate: BucketRate): TakeResult {
  if (bucket.tokens >= 1) {
    bucket.tokens -= 1;
    return { allowed: true, remaining: Math.floor(bucket.tokens), retryAfterMs: 0 };
  }
  const wait = Math.max(1, Math.ceil(((1 - bucket.tokens) * rate.periodMs) / rate.capacity));
  return { allowed: false, remaining: 0, retryAfterMs: wait };
}
