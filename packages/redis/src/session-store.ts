/**
 * The session store on Redis: one string key per legacy session holding its state as JSON, expiring after the
 * handler's idle timeout unless written or touched. A deleted session leaves a tombstone for as long, so a late
 * write from another process (a state change racing the `DELETE`) cannot bring it back. Given the bus channel, each
 * change is announced on it in the same atomic step (a script, a transaction): a change Redis carries out late — a
 * command that timed out while Redis hung, then ran — is still announced, so no process keeps a stale copy.
 */
import type { SessionState, SessionStore } from '@wiremcp/transport-http';
import type { Redis } from 'ioredis';

/** Options of {@link RedisSessionStore}. */
export interface RedisSessionStoreOptions {
  /** Prefix of every key (default `wiremcp:`); one prefix per deployment. */
  readonly prefix?: string;
  /** A session neither written nor touched for this long expires (default 30 minutes: the handler's idle timeout). */
  readonly ttlMs?: number;
  /** The session bus's channel: each change is announced there too, atomically with it (see the module comment). */
  readonly channel?: string;
}

// Sets the state unless the session was deleted (KEYS[2], the tombstone, exists); then announces it on ARGV[3]
// (when given) with the message ARGV[4].
const SET_UNLESS_DELETED = `
if redis.call('EXISTS', KEYS[2]) == 1 then return 0 end
redis.call('SET', KEYS[1], ARGV[1], 'PX', ARGV[2])
if ARGV[3] ~= '' then redis.call('PUBLISH', ARGV[3], ARGV[4]) end
return 1`;

/** See the module comment; the contract is {@link SessionStore}'s. */
export class RedisSessionStore implements SessionStore {
  readonly #redis: Redis;
  readonly #prefix: string;
  readonly #ttlMs: number;
  readonly #channel: string | undefined;

  constructor(redis: Redis, options: RedisSessionStoreOptions = {}) {
    this.#redis = redis;
    this.#prefix = options.prefix ?? 'wiremcp:';
    this.#ttlMs = Math.max(1000, options.ttlMs ?? 30 * 60_000);
    this.#channel = options.channel;
  }

  /** True when given the bus channel: every change is announced there (see `SessionStore.announcesChanges`). */
  get announcesChanges(): boolean {
    return this.#channel !== undefined;
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

  async set(state: SessionState, origin = 'store'): Promise<void> {
    const notice = this.#channel === undefined ? '' : JSON.stringify({ kind: 'state', origin, sessionId: state.id, state });
    const key = this.#key(state.id);
    await this.#redis.eval(SET_UNLESS_DELETED, 2, key, `${key}:gone`, JSON.stringify(state), this.#ttlMs, this.#channel ?? '', notice);
  }

  async touch(id: string): Promise<void> {
    await this.#redis.pexpire(this.#key(id), this.#ttlMs);
  }

  async delete(id: string, origin = 'store'): Promise<void> {
    const transaction = this.#redis
      .multi()
      .del(this.#key(id))
      .set(`${this.#key(id)}:gone`, '1', 'PX', this.#ttlMs);
    if (this.#channel !== undefined) transaction.publish(this.#channel, JSON.stringify({ kind: 'ended', origin, sessionId: id }));
    const results = await transaction.exec();
    // A transaction that could not run (the connection lost mid-way) resolves with null: the delete did not happen.
    if (results === null) throw new Error('The session could not be deleted: the Redis transaction was aborted');
    for (const [error] of results) if (error) throw error;
  }
}
