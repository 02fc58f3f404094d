/**
 * `resources/directory/read` on a server: one handler per server that asks each registered reader in turn, so a
 * skill catalogue and a server's own directories (any scheme) share the method. Declaring `directoryRead` is the
 * Skills extension's business; this module only serves the method.
 */
import { invalidParams, truncateInput, type JsonObject } from '@wiremcp/protocol';
import type { HandlerContext, McpServer } from '@wiremcp/server';
import { pageOf } from './cursor.js';
import { DIRECTORY_READ, type DirectoryEntry } from './wire.js';

/** Lists the direct children of directory `uri`, or returns `undefined` when it serves no directory there. */
export type DirectoryReader = (
  uri: string,
  context: HandlerContext,
) => DirectoryEntry[] | undefined | Promise<DirectoryEntry[] | undefined>;

/** Options of {@link serveDirectoryRead}. */
export interface DirectoryReadOptions {
  /** Children per page (default 100). */
  pageSize?: number;
  /** Caching hint of 2026-07-28 results (default `{ttlMs: 0, cacheScope: 'public'}`). */
  cache?: { ttlMs: number; cacheScope: 'public' | 'private' };
}

const readers = new WeakMap<McpServer, DirectoryReader[]>();

/**
 * Serves `resources/directory/read` on `server` from `reader` (with any readers added before). A URI no reader
 * knows, or one that is not a directory, is answered with `-32602`.
 */
export function serveDirectoryRead(server: McpServer, reader: DirectoryReader, options: DirectoryReadOptions = {}): void {
  const list = readers.get(server);
  if (list !== undefined) {
    list.push(reader);
    return;
  }
  const all = [reader];
  readers.set(server, all);
  const size = options.pageSize ?? 100;
  if (!Number.isInteger(size) || size < 1) throw new TypeError('pageSize must be an integer ≥ 1');
  const cache = options.cache ?? { ttlMs: 0, cacheScope: 'public' };
  server.setRequestHandler(DIRECTORY_READ, async (params, context) => {
    const uri = (params as JsonObject | undefined)?.uri;
    if (typeof uri !== 'string' || uri === '') throw invalidParams('resources/directory/read needs params.uri, a string');
    for (const read of all) {
      const children = await read(uri, context);
      if (children === undefined) continue;
      const { page, nextCursor } = pageOf(`dir:${uri}`, children, (params as JsonObject).cursor, size);
      const result: JsonObject = { resources: page as unknown as JsonObject[] };
      if (nextCursor !== undefined) result.nextCursor = nextCursor;
      if (context.era === 'modern') Object.assign(result, cache);
      return result;
    }
    throw invalidParams(`${truncateInput(uri)} is not a directory resource this server serves`, { uri: truncateInput(uri) });
  });
}
