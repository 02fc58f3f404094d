/**
 * `rateLimit`: a middleware that counts requests in token buckets — per principal, session, client address or any
 * key — and refuses those over a limit with `RateLimitedError` (`-32029`, `data.retryAfterMs`; 429 and
 * `Retry-After` over HTTP). The buckets live in a `BucketStore`: this process's memory by default, or Redis
 * (`@wiremcp/redis`) so several processes enforce one limit. A store that fails or does not answer in time never
 * holds a request: the limiter lets it through (`failure: 'open'`, the default) or refuses it (`'closed'`).
 */
import { ErrorCode, LocalError, RpcError, type JsonObject } from '@wiremcp/protocol';
import type { Middleware, MiddlewareContext } from './middleware.js';
import { checkRules, parseRateLimits, ruleLabel, type RateLimitRule } from './rate-limit-rules.js';
import { MemoryBucketStore, type BucketStore, type TakeResult } from './token-buckets.js';

/** Whose requests share a bucket. */
export type RateLimitKey = 'principal' | 'session' | 'address' | ((context: MiddlewareContext) => string | undefined);

/** Options of {@link rateLimit}. */
export interface RateLimitOptions {
  /** The limits: rule objects, or their text form (`tools/call=10/s,*=100/m`, see `parseRateLimits`). */
  readonly rules: readonly RateLimitRule[] | string;
  /**
   * Whose requests share a bucket (default `principal`). Requests without that key (no authentication, stdio, no
   * session, a Unix socket) share one bucket per rule: on stdio that is the one client.
   */
  readonly by?: RateLimitKey;
  /** Where the buckets live (default: a `MemoryBucketStore` of this process). */
  readonly store?: BucketStore;
  /** What a failing or slow store means: `open` lets requests through (default), `closed` refuses them. */
  readonly failure?: 'open' | 'closed';
  /** Longest wait for the store, in ms (default 250); then the `failure` policy applies. */
  readonly storeTimeoutMs?: number;
  /** Receives store failures (one report per outage, one when it is over). Default: `console.error`. */
  readonly onStoreError?: (error: unknown) => void;
}

/** Why a request was refused, in `RateLimitedError.data`. */
export interface RateLimitedData {
  /** When to try again, in ms. */
  readonly retryAfterMs: number;
  /** The same in whole seconds, rounded up (what `Retry-After` says over HTTP). */
  readonly retryAfter: number;
  /** The rule that refused it (`tools/call=10/1000ms`), or `store-unavailable` under `failure: 'closed'`. */
  readonly limit: string;
}

/** The error a refused request is answered with: code `-32029`, {@link RateLimitedData} as data. */
export class RateLimitedError extends RpcError {
  declare readonly data: RateLimitedData;

  constructor(retryAfterMs: number, limit: string) {
    const retryAfter = Math.max(1, Math.ceil(retryAfterMs / 1000));
    super(ErrorCode.RateLimited, `Rate limit exceeded (${limit}); retry in ${retryAfter} s`, { retryAfterMs, retryAfter, limit });
    this.name = 'RateLimitedError';
  }
}

const ANYONE = '-';
const UNAVAILABLE = 'store-unavailable';

function keyFunction(by: RateLimitKey): (context: MiddlewareContext) => string | undefined {
  if (typeof by === 'function') return by;
  if (by === 'principal') return (context) => context.principalKey;
  if (by === 'session') return (context) => context.sessionId;
  if (by === 'address') return (context) => context.clientAddress;
  throw new LocalError('INVALID_ARGUMENT', `rateLimit 'by' must be principal, session, address or a function, not ${String(by)}`);
}

class StoreTimeout extends Error {}

/** Builds the rate-limiting middleware; throws `INVALID_ARGUMENT` for bad rules or options. */
export function rateLimit(options: RateLimitOptions): Middleware {
  const rules = typeof options.rules === 'string' ? parseRateLimits(options.rules) : options.rules;
  checkRules(rules);
  const keyOf = keyFunction(options.by ?? 'principal');
  const kind = typeof options.by === 'function' ? 'key' : (options.by ?? 'principal');
  const store = options.store ?? new MemoryBucketStore();
  const failClosed = options.failure === 'closed';
  if (options.failure !== undefined && options.failure !== 'open' && !failClosed) {
    throw new LocalError('INVALID_ARGUMENT', `rateLimit 'failure' must be open or closed, not ${String(options.failure)}`);
  }
  const timeoutMs = options.storeTimeoutMs ?? 250;
  if (!(timeoutMs > 0) || !Number.isFinite(timeoutMs))
    throw new LocalError('INVALID_ARGUMENT', `storeTimeoutMs must be > 0, not ${timeoutMs}`);
  const report = options.onStoreError ?? ((error: unknown) => console.error(error));
  const labels = rules.map(ruleLabel);
  let down = false;

  /** One take, bounded in time; `undefined` when the store failed (reported once per outage). */
  const take = async (key: string, rule: RateLimitRule): Promise<TakeResult | undefined> => {
    let timer: ReturnType<typeof setTimeout> | undefined;
    try {
      const taken = store.take(key, rule);
      const result =
        taken instanceof Promise
          ? await Promise.race([
              taken,
              new Promise<never>((_, reject) => {
                timer = setTimeout(() => reject(new StoreTimeout(`the rate limit store did not answer within ${timeoutMs} ms`)), timeoutMs);
              }),
            ])
          : taken;
      if (down) {
        down = false;
        report(new Error('rate limit store answering again'));
      }
      return result;
    } catch (error) {
      if (!down) {
        down = true;
        report(
          new Error(
            `rate limit store failed (${error instanceof Error ? error.message : String(error)}); failing ${failClosed ? 'closed' : 'open'}`,
          ),
        );
      }
      return undefined;
    } finally {
      clearTimeout(timer);
    }
  };

  return async (context, next): Promise<JsonObject> => {
    let who: string | undefined;
    for (let i = 0; i < rules.length; i++) {
      const rule = rules[i]!;
      if (rule.method !== '*' && rule.method !== context.method) continue;
      if (rule.name !== undefined && rule.name !== context.name) continue;
      who ??= keyOf(context) ?? ANYONE;
      const result = await take(`${kind}:${who}\u0000${i}:${labels[i]}`, rule);
      if (result === undefined) {
        if (failClosed) throw new RateLimitedError(1000, UNAVAILABLE);
        continue;
      }
      if (!result.allowed) throw new RateLimitedError(result.retryAfterMs, labels[i]!);
    }
    return next();
  };
}
