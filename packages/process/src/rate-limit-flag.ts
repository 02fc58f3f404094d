/**
 * `--rate-limit RULES` (repeatable) and `--rate-limit-by principal|session|address`: token-bucket limits on the
 * server's requests — `rateLimit` of `@wiremcp/server`, installed with the server's `use` — refused with `-32029`
 * and a retry hint (over HTTP: 429 and `Retry-After`). With `--redis` the buckets live in that Redis
 * (`RedisBucketStore`), so every process of a cluster takes from the same buckets and a limit holds across them;
 * otherwise in this process's memory. The rules are parsed when the command line is (a bad one is a usage error,
 * with examples), by the same `parseRateLimits` the library uses.
 */
import { parseRateLimits, rateLimit, RATE_LIMIT_EXAMPLES, type BucketStore, type Middleware, type RateLimitRule } from '@wiremcp/server';
import { UsageError, type FlagValues, type ServerFlags } from './server-flags.js';

/** The flags of the limiter. */
export const RATE_LIMIT_FLAGS: ServerFlags = {
  'rate-limit': { type: 'string', multiple: true },
  'rate-limit-by': { type: 'string' },
};

/** Their usage lines. */
export const RATE_LIMIT_USAGE =
  '  --rate-limit METHOD[:NAME]=COUNT/UNIT[,…]\n' +
  '              limit requests with token buckets (repeatable; UNIT s, m, h or d),\n' +
  `              e.g. ${RATE_LIMIT_EXAMPLES[0]} or '${RATE_LIMIT_EXAMPLES[2]}';\n` +
  '              refused requests get error -32029 with a retry hint (HTTP: 429 and\n' +
  '              Retry-After); with --redis the buckets are shared by every process\n' +
  '  --rate-limit-by principal|session|address\n' +
  '              whose requests share a bucket (default principal: the authenticated\n' +
  '              client; requests without one share one bucket per rule)\n';

const KEYS = ['principal', 'session', 'address'] as const;

/** What the flags ask for. */
export interface RateLimitSettings {
  readonly rules: readonly RateLimitRule[];
  readonly by: (typeof KEYS)[number];
}

/** The limiter of the command line, `undefined` without `--rate-limit`; a `UsageError` (with examples) for a bad one. */
export function parseRateLimitFlags(values: FlagValues): RateLimitSettings | undefined {
  const texts = values['rate-limit'] as string[] | undefined;
  const by = values['rate-limit-by'];
  if (texts === undefined) {
    if (by !== undefined) throw new UsageError('--rate-limit-by applies to --rate-limit only');
    return undefined;
  }
  if (by !== undefined && !(KEYS as readonly unknown[]).includes(by)) {
    throw new UsageError(`--rate-limit-by must be principal, session or address, got ${JSON.stringify(String(by).slice(0, 40))}`);
  }
  const rules: RateLimitRule[] = [];
  for (const text of texts) {
    try {
      rules.push(...parseRateLimits(text));
    } catch (error) {
      // Its errors name the bad entry (cut short) and give examples.
      throw new UsageError(`--rate-limit: ${error instanceof Error ? error.message : String(error)}`);
    }
  }
  return { rules, by: (by as RateLimitSettings['by'] | undefined) ?? 'principal' };
}

/**
 * Installs the limiter on `server` (its `use`, as an `McpServer` has), its buckets in `store` when given (shared by
 * the processes of a cluster), in memory otherwise. Store failures go to `report`; while the store fails, requests
 * are let through (a limiter must not take the service down with it). Throws when the server takes no middleware.
 */
export function installRateLimit(
  server: unknown,
  settings: RateLimitSettings,
  store: BucketStore | undefined,
  report: (error: unknown) => void,
): void {
  const use = (server as { use?: unknown } | undefined)?.use;
  if (typeof use !== 'function') throw new Error('--rate-limit needs a server that takes middleware (an McpServer, with use())');
  const middleware: Middleware = rateLimit({
    rules: settings.rules,
    by: settings.by,
    onStoreError: report,
    // A shared store is a Redis whose client already bounds each command (2 s by default): the limiter waits as
    // long, so a burst on a busy machine is counted rather than let through by a shorter timeout.
    ...(store === undefined ? {} : { store, storeTimeoutMs: 2000 }),
  });
  use.call(server, middleware);
}
