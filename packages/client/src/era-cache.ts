/**
 * Remembering which era a server speaks, so that later connections skip the `server/discover` probe (which costs
 * a full probe timeout against a legacy server that never answers it). The spec asks clients to cache the era per
 * process (stdio) or per origin (HTTP) and to re-probe when the assumption fails.
 */
import type { Era } from '@wiremcp/protocol';
import type { DiscoverResult } from './types.js';

/** What is remembered about one server. */
export interface CachedEra {
  /** The era the server spoke. */
  readonly era: Era;
  /** The revision negotiated last time (the modern one used, or the legacy one initialize answered). */
  readonly protocolVersion: string;
  /** Modern: the last discover result and until when it is fresh (epoch ms, from its `ttlMs`). */
  readonly discover?: { readonly result: DiscoverResult; readonly freshUntil: number };
}

/**
 * A store of detected eras keyed by a server key (a command line, a URL). Implementations may be synchronous or
 * asynchronous (a file, `localStorage`, a database); errors they throw make the client probe as if nothing was
 * cached.
 */
export interface EraCache {
  get(serverKey: string): CachedEra | undefined | Promise<CachedEra | undefined>;
  set(serverKey: string, value: CachedEra): void | Promise<void>;
  delete(serverKey: string): void | Promise<void>;
}

/** An in-memory {@link EraCache} with an optional bound on the number of servers remembered. */
export class MemoryEraCache implements EraCache {
  readonly #entries = new Map<string, CachedEra>();
  readonly #max: number;

  /** `maxEntries` bounds memory (oldest entries are forgotten first); default 1 000. */
  constructor(maxEntries = 1000) {
    this.#max = maxEntries;
  }

  /** Number of servers remembered. */
  get size(): number {
    return this.#entries.size;
  }

  get(serverKey: string): CachedEra | undefined {
    return this.#entries.get(serverKey);
  }

  set(serverKey: string, value: CachedEra): void {
    this.#entries.delete(serverKey);
    this.#entries.set(serverKey, value);
    if (this.#entries.size > this.#max) {
      const oldest = this.#entries.keys().next().value as string;
      this.#entries.delete(oldest);
    }
  }

  delete(serverKey: string): void {
    this.#entries.delete(serverKey);
  }
}

/** The cache entry describing a negotiated connection (modern: with the discover result and its freshness). */
export function cacheEntry(negotiated: { era: Era; protocolVersion: string; discover?: DiscoverResult }, now = Date.now()): CachedEra {
  const discover = negotiated.discover;
  if (!discover) return { era: negotiated.era, protocolVersion: negotiated.protocolVersion };
  const ttl = typeof discover.ttlMs === 'number' && discover.ttlMs > 0 ? discover.ttlMs : 0;
  return { era: negotiated.era, protocolVersion: negotiated.protocolVersion, discover: { result: discover, freshUntil: now + ttl } };
}

/** Runs an era-cache operation; a failing cache behaves like an empty one. */
export async function cacheCall<T>(operation: () => T | Promise<T>): Promise<T | undefined> {
  try {
    return await operation();
  } catch {
    return undefined;
  }
}
