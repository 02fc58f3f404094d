/**
 * `RedisBucketStore`: token buckets in Redis, so that every process of a cluster takes from the same bucket and a
 * limit holds across all of them. One `EVALSHA` per take (the script is loaded once, resent by ioredis after a
 * Redis restart): refill from Redis's own clock (`TIME`, so the processes' clocks do not matter), take, store, and
 * expire the bucket once it would be full again — atomic, one round trip.
 */
import { boundedKey, type BucketRate, type BucketStore, type TakeResult } from '@wiremcp/server';
import type { Redis } from 'ioredis';

/** Options of {@link RedisBucketStore}. */
export interface RedisBucketStoreOptions {
  /** Prefix of the bucket keys (default `wiremcp:`), followed by `rl:`. */
  readonly prefix?: string;
}

// KEYS[1] bucket; ARGV capacity, periodMs. Tokens and time are kept in a hash; a clock that went back adds nothing.
const TAKE = `
local capacity = tonumber(ARGV[1])
local period = tonumber(ARGV[2])
local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
local state = redis.call('HMGET', KEYS[1], 'tokens', 'at')
local tokens = tonumber(state[1])
local at = tonumber(state[2])
if tokens == nil or at == nil then
  tokens = capacity
  at = now
elseif now > at then
  tokens = math.min(capacity, tokens + (now - at) * capacity / period)
  at = now
else
  at = now
end
local allowed = 0
local wait = 0
if tokens >= 1 then
  tokens = tokens - 1
  allowed = 1
else
  wait = math.max(1, math.ceil((1 - tokens) * period / capacity))
end
redis.call('HSET', KEYS[1], 'tokens', tostring(tokens), 'at', at)
redis.call('PEXPIRE', KEYS[1], math.ceil((capacity - tokens) * period / capacity) + 1000)
return { allowed, math.floor(tokens), wait }
`;

type WithTake = Redis & { wiremcpTakeToken(key: string, capacity: number, periodMs: number): Promise<[number, number, number]> };

/** See the module comment. Takes fail as the client's commands do (at once while Redis is down, after its command timeout when it hangs). */
export class RedisBucketStore implements BucketStore {
  readonly #client: WithTake;
  readonly #prefix: string;

  constructor(client: Redis, options: RedisBucketStoreOptions = {}) {
    if (typeof (client as unknown as Partial<WithTake>).wiremcpTakeToken !== 'function')
      client.defineCommand('wiremcpTakeToken', { numberOfKeys: 1, lua: TAKE });
    this.#client = client as unknown as WithTake;
    this.#prefix = `${options.prefix ?? 'wiremcp:'}rl:`;
  }

  async take(key: string, rate: BucketRate): Promise<TakeResult> {
    const [allowed, remaining, wait] = await this.#client.wiremcpTakeToken(this.#prefix + boundedKey(key), rate.capacity, rate.periodMs);
    return { allowed: allowed === 1, remaining, retryAfterMs: wait };
  }
}
