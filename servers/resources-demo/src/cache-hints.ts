/**
 * Caching hints (2026-07-28, `ttlMs` and `cacheScope`), all in one table: each kind of resource gets the hint
 * that matches how it changes. `data/docs/caching.md` explains the same table to readers of the server.
 */
import type { CacheHint, ServerOptions } from '@wiremcp/server';

const HOUR = 3_600_000;

/** The hint of each kind of `resources/read` result, given to each registration as its `cache` option. */
export const READ_HINTS = {
  /** Shipped with the server: unchanged while it runs. */
  catalogue: { ttlMs: HOUR, cacheScope: 'public' },
  /** The periodic table. */
  elements: { ttlMs: 24 * HOUR, cacheScope: 'public' },
  /** Edited by tools, which announce each change (`notifications/resources/updated`). */
  notes: { ttlMs: 60_000, cacheScope: 'public' },
  /** Can change at any moment. */
  log: { ttlMs: 0, cacheScope: 'public' },
  /** Describes the request that read it, so it must not be shared with anyone else. */
  request: { ttlMs: 60_000, cacheScope: 'private' },
  /** Depends on the notes. */
  search: { ttlMs: 0, cacheScope: 'public' },
  /** The conformance suite's fixed resources. */
  fixed: { ttlMs: HOUR, cacheScope: 'public' },
  /** `test://watched-resource`: changes whenever a tool says so. */
  watched: { ttlMs: 0, cacheScope: 'public' },
} as const satisfies Record<string, CacheHint>;

/**
 * The hints of the lists and of discovery, given to `McpServer` (its `caching` option is per method). The
 * resource list changes when notes are added or removed, and `list_changed` says so; the rest is fixed.
 * Reads without a hint of their own (none here) would get `default`.
 */
export const LIST_CACHING: NonNullable<ServerOptions['caching']> = {
  'server/discover': { ttlMs: HOUR, cacheScope: 'public' },
  'tools/list': { ttlMs: HOUR, cacheScope: 'public' },
  'prompts/list': { ttlMs: HOUR, cacheScope: 'public' },
  'resources/templates/list': { ttlMs: HOUR, cacheScope: 'public' },
  'resources/list': { ttlMs: 60_000, cacheScope: 'public' },
  default: { ttlMs: 0, cacheScope: 'public' },
};
