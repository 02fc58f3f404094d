/**
 * Lists and reads as the client serves them: one page, every page (following cursors, restarting once when a
 * cached cursor has gone stale), and `resources/read` — modern results reused while their `ttlMs` says they are
 * fresh.
 */
import type { Era } from '@wiremcp/protocol';
import type { ListOptions } from './options.js';
import { collectPagesWithRestart } from './pagination.js';
import type { ResultCache } from './result-cache.js';
import type { Session } from './session.js';
import type { PaginatedResult, ReadResourceResult, ResultOf } from './types.js';

/** A list method. */
export type ListMethod = 'tools/list' | 'resources/list' | 'resources/templates/list' | 'prompts/list';

/** Runs a call on the current session (rejecting when there is none). */
export type SessionCall = <T>(method: string, run: (session: Session) => Promise<T>) => Promise<T>;

/** See the module comment. */
export class ListReader {
  readonly #cache: ResultCache;
  readonly #settings: { readonly cacheResults: boolean; readonly maxPages: number };
  readonly #call: SessionCall;
  readonly #era: () => Era | undefined;

  constructor(
    cache: ResultCache,
    settings: { readonly cacheResults: boolean; readonly maxPages: number },
    call: SessionCall,
    era: () => Era | undefined,
  ) {
    this.#cache = cache;
    this.#settings = settings;
    this.#call = call;
    this.#era = era;
  }

  /** One page of `method`, from the cache while fresh (modern) unless `options.fresh`. */
  page<M extends ListMethod>(method: M, cursor: string | undefined, options: ListOptions | undefined): Promise<ResultOf<M>> {
    return this.#call(method, (s) => {
      const cacheable = this.#settings.cacheResults && s.era === 'modern';
      return this.#cache.through(method, cursor ?? '', cacheable, options?.fresh === true, () =>
        s.request(method, cursor === undefined ? undefined : { cursor }, options),
      ) as Promise<ResultOf<M>>;
    });
  }

  /** Every item of `method`, following cursors (bounded by `maxPages`). */
  all<M extends ListMethod, R extends PaginatedResult & ResultOf<M>, T>(
    method: M,
    pick: (page: R) => T[],
    options: ListOptions | undefined,
  ): Promise<T[]> {
    const cached = this.#settings.cacheResults && this.#era() === 'modern' && !options?.fresh;
    const fetch = (cursor: string | undefined, fresh: boolean) =>
      this.page(method, cursor, fresh ? { ...options, fresh } : options) as Promise<R>;
    return collectPagesWithRestart(method, fetch, pick, this.#settings.maxPages, cached ? () => this.#cache.drop(method) : undefined);
  }

  /** `resources/read` (modern: cached while fresh, input rounds served by the handlers; only first rounds are cached). */
  read(uri: string, options: ListOptions | undefined): Promise<ReadResourceResult> {
    return this.#call('resources/read', (s) => {
      const cacheable = this.#settings.cacheResults && s.era === 'modern';
      const hit = cacheable && !options?.fresh ? this.#cache.get('resources/read', uri) : undefined;
      if (hit) return Promise.resolve(hit as ReadResourceResult);
      const store = cacheable ? (result: object) => this.#cache.put('resources/read', uri, result) : undefined;
      return s.requestWithInputs('resources/read', { uri }, options, store) as Promise<ReadResourceResult>;
    });
  }
}
