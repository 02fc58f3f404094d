/**
 * The session store on Redis: one string key per legacy session holding its state as JSON, expiring after the
 * handler's idle timeout unless written or touched. A deleted session leaves a tombstone for as long, so a late
 * write from another process (a state change racing the `DELETE`) cannot bring it back.
 */
import type { SessionState, SessionStore } from '@wiremcp/transport-http';
import type { Redis } from 'ioredis';

/** Options of {@link RedisSessionStore}. */
export interface RedisSessionStoreOptions {
  /** Prefix of every key (default `wiremcp:`); one prefix per deployment. */
  readonly prefix?: string;
  /** A session neither written nor touched for this long expires (default 30 minutes: the handler's idle timeout). */
  readonly ttlMs?: number;
}

// Sets the state unless the session was deleted (KEYS[2], the tombstone, exists).
const SET_UNLESS_DELETED = `if redis.call('EXISTS', KEYS[2]) == 0 then redis.call('SET', KEYS[1], ARGV[1], 'PX', ARGV[2]) end return 1`;

/** See the module comment; the contract is {@link SessionStore}'s. */
export class RedisSessionStore implements SessionStore {
  readonly #redis: Redis;
  readonly #prefix: string;
  readonly #ttlMs: number;

  constructor(redis: Redis, options: RedisSessionStoreOptions = {}) {
    this.#redis = redis;
    this.#prefix = options.prefix ?? 'wiremcp:';
    this.#ttlMs = Math.max(1000, options.ttlMs ?? 30 * 60_000);
  }

  #key(id: string): string {
    return `${this.#prefix}session:${id}`;
  }

  async get(id: string): Promise<SessionState | undefined> {
    const text = await this.#redis.get(this.#key(id));
    if (text === null) return undefined;
    try {
      const state = JSON.parse(text) as SessionState;
      return state.id === id ? state : undefined;
    } catch {
      return undefined;
    }
  }

  async set(state: SessionState): Promise<void> {
    await this.#redis.eval(SET_UNLESS_DELETED, 2, this.#key(state.id), `${this.#key(state.id)}:gone`, JSON.stringify(state), this.#ttlMs);
  }

  async touch(id: string): Promise<void> {
    await this.#redis.pexpire(this.#key(id), this.#ttlMs);
  }

  async delete(id: string): Promise<void> {
    await this.#redis
      .pipeline()
      .del(this.#key(id))
      .set(`${this.#key(id)}:gone`, '1', 'PX', this.#ttlMs)
      .exec();
  }
}
