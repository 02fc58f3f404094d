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

/**
 * Runs `fn` after the event loop's pending I/O: `setImmediate` where there is one (Node, Deno, Bun: it runs after the
 * turn's I/O, which due timers precede), else a new task. Looked up by name: this package uses no Node global as such
 * (it runs where there is none; the surface test holds it to that).
 */
const immediate = (globalThis as Record<string, unknown>)['setImmediate'] as ((fn: () => void) => unknown) | undefined;
const nextTurn: (fn: () => void) => void = immediate === undefined ? (fn) => void setTimeout(fn, 0) : (fn) => void immediate(fn);

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
  // The end of each rule's bucket key (`<kind>:<who>` comes first), made once.
  const suffixes = labels.map((label, i) => `\u0000${i}:${label}`);
  let down = false;
  // The last key prefix and the bucket keys made from it, each made when a request first needs it: requests of one
  // principal (or of everyone, when there is no key: stdio, or no authentication) reuse them instead of building a
  // string per rule per request, and interleaved principals build only the keys of the rules that apply.
  let lastWho: string | undefined;
  let lastKeys: (string | undefined)[] = [];
  /** The bucket key of rule `i` for `who`, from `keys` (the cache of that `who`). */
  const keyAt = (keys: (string | undefined)[], who: string, i: number): string => (keys[i] ??= `${kind}:${who}${suffixes[i]!}`);

  const failed = (error: unknown): undefined => {
    if (!down) {
      down = true;
      report(
        new Error(
          `rate limit store failed (${error instanceof Error ? error.message : String(error)}); failing ${failClosed ? 'closed' : 'open'}`,
        ),
      );
    }
    return undefined;
  };
  const answered = (result: TakeResult): TakeResult => {
    if (down) {
      down = false;
      report(new Error('rate limit store answering again'));
    }
    return result;
  };

  /** A store's pending take, bounded in time; `undefined` when it failed or was late (reported once per outage). */
  const bounded = async (taken: Promise<TakeResult>): Promise<TakeResult | undefined> => {
    let timer: ReturnType<typeof setTimeout> | undefined;
    try {
      return answered(
        await Promise.race([
          taken,
          new Promise<never>((_, reject) => {
            // Once due, the event loop first reads what arrived (the next turn's I/O comes first): a process that got
            // no CPU for longer than the timeout must not take a store that answered in time for a failed one.
            timer = setTimeout(
              () => nextTurn(() => reject(new StoreTimeout(`the rate limit store did not answer within ${timeoutMs} ms`))),
              timeoutMs,
            );
          }),
        ]),
      );
    } catch (error) {
      return failed(error);
    } finally {
      clearTimeout(timer);
    }
  };

  /** One take: the result itself from a store that answers at once (the memory store), else a promise of it. */
  const take = (key: string, rule: RateLimitRule): TakeResult | undefined | Promise<TakeResult | undefined> => {
    let taken: TakeResult | Promise<TakeResult>;
    try {
      taken = store.take(key, rule);
    } catch (error) {
      return failed(error);
    }
    return taken instanceof Promise ? bounded(taken) : answered(taken);
  };

  /** Applies one take's result: throws the refusal, or says whether the request may go on to the next rule. */
  const judge = (result: TakeResult | undefined, i: number): void => {
    if (result === undefined) {
      if (failClosed) throw new RateLimitedError(1000, UNAVAILABLE);
      return;
    }
    if (!result.allowed) throw new RateLimitedError(result.retryAfterMs, labels[i]!);
  };

  /** The rules from `from` on, once a store answered later: each take awaited in turn. */
  const rest = async (
    context: MiddlewareContext,
    next: () => Promise<JsonObject>,
    who: string,
    keys: (string | undefined)[],
    from: number,
  ): Promise<JsonObject> => {
    for (let i = from; i < rules.length; i++) {
      const rule = rules[i]!;
      if (rule.method !== '*' && rule.method !== context.method) continue;
      if (rule.name !== undefined && rule.name !== context.name) continue;
      judge(await take(keyAt(keys, who, i), rule), i);
    }
    return next();
  };

  return (context, next): Promise<JsonObject> => {
    let who: string | undefined;
    let keys: (string | undefined)[] = lastKeys;
    try {
      for (let i = 0; i < rules.length; i++) {
        const rule = rules[i]!;
        if (rule.method !== '*' && rule.method !== context.method) continue;
        if (rule.name !== undefined && rule.name !== context.name) continue;
        if (who === undefined) {
          who = keyOf(context) ?? ANYONE;
          if (who !== lastWho) {
            lastWho = who;
            lastKeys = new Array<string | undefined>(rules.length);
          }
          keys = lastKeys;
        }
        const result = take(keyAt(keys, who, i), rule);
        if (result instanceof Promise) {
          const from = i;
          const taker = who;
          const cache = keys;
          return result.then((answer) => {
            judge(answer, from);
            return rest(context, next, taker, cache, from + 1);
          });
        }
        judge(result, i);
      }
    } catch (error) {
      return Promise.reject(error);
    }
    return next();
  };
}
