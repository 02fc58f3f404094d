/**
 * Auto-pagination: follow `nextCursor` until the last page, with two guards against servers whose cursors loop —
 * a cursor seen twice fails at once, and a bound on the number of pages fails anything else.
 */
import { ErrorCode, LocalError, RpcError } from '@wiremcp/protocol';
import type { PaginatedResult } from './types.js';

/** Default bound on pages of one `listAll*` call. */
export const DEFAULT_MAX_PAGES = 1000;

/** Fetches every page and concatenates the items `pick` extracts from each. */
export async function collectPages<R extends PaginatedResult, T>(
  method: string,
  fetchPage: (cursor: string | undefined) => Promise<R>,
  pick: (page: R) => readonly T[] | undefined,
  maxPages: number,
): Promise<T[]> {
  const items: T[] = [];
  const seen = new Set<string>();
  let cursor: string | undefined;
  for (let pages = 1; ; pages++) {
    const page = await fetchPage(cursor);
    const found = pick(page);
    if (!Array.isArray(found)) {
      throw new LocalError('INVALID_RESULT', `A page of '${method}' has no list of items`, { details: page });
    }
    for (const item of found) items.push(item);
    const next = page.nextCursor;
    if (next === undefined || next === null) return items;
    if (typeof next !== 'string') {
      throw new LocalError('INVALID_RESULT', `A page of '${method}' has a non-string nextCursor`, { details: next });
    }
    if (seen.has(next)) {
      throw new LocalError('PROTOCOL_VIOLATION', `'${method}' returned the cursor ${JSON.stringify(next)} twice: its pagination loops`, {
        details: { method, cursor: next, pages },
      });
    }
    if (pages >= maxPages) {
      throw new LocalError('PROTOCOL_VIOLATION', `'${method}' returned more than ${maxPages} pages; giving up`, {
        details: { method, pages },
      });
    }
    seen.add(next);
    cursor = next;
  }
}

/**
 * {@link collectPages} over possibly cached pages: when the server refuses a cursor (`-32602`) that may have come
 * from a cached page, `restart` drops the cached pages and the listing starts over once, fetching fresh pages —
 * the caching rules' answer to a cursor that became invalid.
 */
export async function collectPagesWithRestart<R extends PaginatedResult, T>(
  method: string,
  fetchPage: (cursor: string | undefined, fresh: boolean) => Promise<R>,
  pick: (page: R) => readonly T[] | undefined,
  maxPages: number,
  restart: (() => void) | undefined,
): Promise<T[]> {
  try {
    return await collectPages(method, (cursor) => fetchPage(cursor, false), pick, maxPages);
  } catch (error) {
    if (!restart || !(error instanceof RpcError && error.code === ErrorCode.InvalidParams)) throw error;
    restart();
    return collectPages(method, (cursor) => fetchPage(cursor, true), pick, maxPages);
  }
}
