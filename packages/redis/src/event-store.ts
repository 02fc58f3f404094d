/**
 * The event store on Redis Streams: one stream per SSE stream of a legacy session, its entry ids derived from the
 * event's sequence number (`0-<seq+1>`), so a replay is one `XRANGE` and a gap (events trimmed) is seen by comparing
 * the first entry kept with the one asked for. Every stream is capped (`MAXLEN`) and expires (`PEXPIRE` on each
 * write); a small set per session names its streams for `deleteSession`.
 */
import type { EventReplay, EventStore, StoredEvent } from '@wiremcp/transport-http';
import type { Redis } from 'ioredis';

/** Options of {@link RedisEventStore}. */
export interface RedisEventStoreOptions {
  /** Prefix of every key (default `wiremcp:`); one prefix per deployment. */
  readonly prefix?: string;
  /** Events kept per stream (default 512; the oldest go first). */
  readonly maxEventsPerStream?: number;
  /** A stream not written to for this long is forgotten (default 5 minutes). */
  readonly ttlMs?: number;
}

/** The entry id of an event (`seq` 0 is entry `0-1`: Redis refuses `0-0`). */
function entryId(seq: number): string {
  return `0-${seq + 1}`;
}

function seqOf(entry: string): number {
  return Number(entry.slice(entry.indexOf('-') + 1)) - 1;
}

type Entry = [id: string, fields: string[]];

/** See the module comment; the contract is {@link EventStore}'s. */
export class RedisEventStore implements EventStore {
  readonly #redis: Redis;
  readonly #prefix: string;
  readonly #max: number;
  readonly #ttlMs: number;

  constructor(redis: Redis, options: RedisEventStoreOptions = {}) {
    this.#redis = redis;
    this.#prefix = options.prefix ?? 'wiremcp:';
    this.#max = Math.max(1, options.maxEventsPerStream ?? 512);
    this.#ttlMs = Math.max(1000, options.ttlMs ?? 5 * 60_000);
  }

  #key(sessionId: string, streamId: string): string {
    return `${this.#prefix}ev:${sessionId}:${streamId}`;
  }

  #index(sessionId: string): string {
    return `${this.#prefix}evs:${sessionId}`;
  }

  async append(event: StoredEvent): Promise<void> {
    const key = this.#key(event.sessionId, event.streamId);
    const index = this.#index(event.sessionId);
    const ttl = String(this.#ttlMs);
    const pipeline = this.#redis.pipeline().xadd(key, 'MAXLEN', String(this.#max), entryId(event.seq), 'd', event.data);
    // The stream's description outlives the events trimmed from its head: a key of its own, expiring with them.
    if (event.info !== undefined) pipeline.set(`${key}:info`, event.info, 'PX', ttl, 'NX');
    const results = await pipeline.pexpire(key, ttl).pexpire(`${key}:info`, ttl).sadd(index, event.streamId).pexpire(index, ttl).exec();
    const failed = results?.find(([error]) => error !== null)?.[0];
    // An event appended twice (a retry) is refused by Redis as not newer: the stream already holds it.
    if (failed && !/equal or smaller/.test(failed.message)) throw failed;
  }

  async replay(sessionId: string, streamId: string, afterSeq: number): Promise<EventReplay | undefined> {
    if (!Number.isInteger(afterSeq) || afterSeq < -1) return undefined;
    const key = this.#key(sessionId, streamId);
    const results = await this.#redis
      .pipeline()
      .xrange(key, '-', '+', 'COUNT', '1')
      .xrange(key, `(${entryId(afterSeq)}`, '+')
      .exists(`${key}:done`)
      .get(`${key}:info`)
      .exec();
    if (results === null) return undefined;
    for (const [error] of results) if (error) throw error;
    const first = results[0]![1] as Entry[];
    const after = results[1]![1] as Entry[];
    // Unknown or expired stream, or the events right after `afterSeq` already trimmed: no partial replay.
    if (first.length === 0 || seqOf(first[0]![0]) > afterSeq + 1) return undefined;
    const events = after.map(([id, fields]) => ({ seq: seqOf(id), data: fields[1] ?? '' }));
    const info = results[3]![1] as string | null;
    return info === null ? { events, complete: results[2]![1] === 1 } : { events, complete: results[2]![1] === 1, info };
  }

  async complete(sessionId: string, streamId: string): Promise<void> {
    await this.#redis.set(`${this.#key(sessionId, streamId)}:done`, '1', 'PX', this.#ttlMs);
  }

  async deleteSession(sessionId: string): Promise<void> {
    const index = this.#index(sessionId);
    const streams = await this.#redis.smembers(index);
    const keys = streams.flatMap((streamId) => {
      const key = this.#key(sessionId, streamId);
      return [key, `${key}:done`, `${key}:info`];
    });
    await this.#redis.del(index, ...keys);
  }
}
