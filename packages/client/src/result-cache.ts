/**
 * A small cache of 2026-07-28 cacheable results (`tools/list`, `prompts/list`, `resources/list`,
 * `resources/templates/list`, `resources/read`), honouring the server's `ttlMs`.
 *
 * Rules from the spec's caching page: the key is the method plus the params that shape the result (cursor, uri);
 * `ttlMs` 0, negative or absent means stale at once (so legacy results are never cached); a matching `list_changed`
 * or `resources/updated` notification invalidates; each page has its own lifetime. Input-required results and the
 * results of retries are never offered to the cache (the client only caches first-round complete results).
 */
import type { CacheableResult } from '@wiremcp/protocol';

interface Entry {
  readonly value: object;
  readonly freshUntil: number;
}

/** Which cached methods a notification invalidates. */
const INVALIDATES: Readonly<Record<string, readonly string[]>> = {
  'notifications/tools/list_changed': ['tools/list'],
  'notifications/prompts/list_changed': ['prompts/list'],
  'notifications/resources/list_changed': ['resources/list', 'resources/templates/list'],
};

/** Cache of fresh results by method and key. */
export class ResultCache {
  readonly #entries = new Map<string, Map<string, Entry>>();
  readonly #now: () => number;

  constructor(now: () => number = Date.now) {
    this.#now = now;
  }

  /** The cached result of `method` for `key` while it is fresh. */
  get(method: string, key: string): object | undefined {
    const entry = this.#entries.get(method)?.get(key);
    if (!entry) return undefined;
    if (this.#now() < entry.freshUntil) return entry.value;
    this.#entries.get(method)!.delete(key);
    return undefined;
  }

  /** Stores a complete result when its `ttlMs` makes it fresh for a while. */
  put(method: string, key: string, result: object): void {
    const ttl = (result as Partial<CacheableResult>).ttlMs;
    if (typeof ttl !== 'number' || !(ttl > 0)) return;
    let entries = this.#entries.get(method);
    if (!entries) this.#entries.set(method, (entries = new Map()));
    entries.set(key, { value: result, freshUntil: this.#now() + ttl });
  }

  /** Applies a server notification: list changes drop every page of the list; an update drops that resource. */
  invalidate(method: string, params: Record<string, unknown> | undefined): void {
    if (method === 'notifications/resources/updated') {
      const uri = params?.uri;
      if (typeof uri === 'string') this.#entries.get('resources/read')?.delete(uri);
      return;
    }
    for (const target of INVALIDATES[method] ?? []) this.#entries.delete(target);
  }

  /**
   * Serves `method`/`key` from the cache while fresh (unless `fresh` asks to refetch), else loads it and stores
   * the result. With `enabled` false it only loads (legacy sessions, or caching turned off).
   */
  through<T extends object>(method: string, key: string, enabled: boolean, fresh: boolean, load: () => Promise<T>): Promise<T> {
    if (!enabled) return load();
    const hit = fresh ? undefined : this.get(method, key);
    if (hit) return Promise.resolve(hit as T);
    return load().then((result) => {
      this.put(method, key, result);
      return result;
    });
  }

  /** Drops every page of `method` (a cursor turned out invalid). */
  drop(method: string): void {
    this.#entries.delete(method);
  }

  /** Drops everything. */
  clear(): void {
    this.#entries.clear();
  }
}
