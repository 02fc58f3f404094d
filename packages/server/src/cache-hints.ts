/**
 * Caching hints (2026-07-28 `ttlMs` and `cacheScope`) below the per-method level: a resource's or a template's own
 * hint for its reads, a hint a reader returns for one read, and the hint of the resource list when templates that
 * list resources declare one. Hints exist in 2026-07-28 only: on a legacy result they are taken off, never sent.
 */
import { LocalError } from '@wiremcp/protocol';
import type { CacheHint, ReadResourceResult } from './types.js';

/** Throws `INVALID_ARGUMENT` unless `hint` is a usable caching hint (`ttlMs` an integer ≥ 0, a known scope). */
export function checkCacheHint(hint: CacheHint | undefined, where: string): void {
  if (hint === undefined) return;
  const { ttlMs, cacheScope } = hint as { ttlMs?: unknown; cacheScope?: unknown };
  if (typeof ttlMs !== 'number' || !Number.isSafeInteger(ttlMs) || ttlMs < 0) {
    throw new LocalError('INVALID_ARGUMENT', `${where}: ttlMs must be an integer ≥ 0 (milliseconds)`);
  }
  if (cacheScope !== 'public' && cacheScope !== 'private') {
    throw new LocalError('INVALID_ARGUMENT', `${where}: cacheScope must be "public" or "private"`);
  }
}

/** A read result without hint fields (the same object when it has none). */
export function withoutHint(result: ReadResourceResult): ReadResourceResult {
  if (typeof result !== 'object' || result === null || (result.ttlMs === undefined && result.cacheScope === undefined)) return result;
  const { ttlMs: _ttl, cacheScope: _scope, ...rest } = result;
  return rest;
}

/**
 * A read result as the era of the request carries it: legacy without hints; 2026-07-28 with the reader's own
 * hint, else the resource's `cache` option (else nothing here: the router stamps the per-method hint).
 */
export function hintedRead(result: ReadResourceResult, cache: CacheHint | undefined, era: 'legacy' | 'modern'): ReadResourceResult {
  if (era === 'legacy') return withoutHint(result);
  if (cache === undefined || typeof result !== 'object' || result === null) return result;
  if (result.ttlMs !== undefined && result.cacheScope !== undefined) return result;
  return { ...result, ttlMs: result.ttlMs ?? cache.ttlMs, cacheScope: result.cacheScope ?? cache.cacheScope };
}

/**
 * The hint of a list combined with the hints of what contributed to it: the shortest lifetime, and `private` when
 * any part is private. Computed over the whole list, never per page, so every page of one list has one scope.
 */
export function combinedHint(base: CacheHint, parts: ReadonlyArray<CacheHint | undefined>): CacheHint {
  let { ttlMs, cacheScope } = base;
  for (const part of parts) {
    if (part === undefined) continue;
    ttlMs = Math.min(ttlMs, part.ttlMs);
    if (part.cacheScope === 'private') cacheScope = 'private';
  }
  return { ttlMs, cacheScope };
}
