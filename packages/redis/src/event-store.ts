/**
 * The event store on Redis Streams: one stream per SSE stream of a legacy session, its entry ids derived from the
 * event's sequence number (`0-<seq+1>`), so a replay is one `XRANGE` and a gap (events trimmed) is seen by comparing
 * the first entry kept with the one asked for. Every stream is capped (`MAXLEN`) and expires (`PEXPIRE` on each
 * write); a small set per session names its streams for `deleteSession`. One sorted set names every stream of the
 * deployment with its expiry time, so that what the store holds (`held`, a metric) is sampled without a `SCAN`.
 */
import type { EventReplay, EventStore, EventStoreHeld, StoredEvent } from '@wiremcp/transport-http';
import type { Redis } from 'ioredis';

/** Options of {@link RedisEventStore}. */
export interface RedisEventStoreOptions {
  /** Prefix of every key (default `wiremcp:`); one prefix per deployment. */
  readonly prefix?: string;
  /** Events kept per stream (default 512; the oldest go first). */
  readonly maxEventsPerStream?: number;
  /** A stream not written to for this long is forgotten (default 5 minutes). */
  readonly ttlMs?: number;
  /** `held()` samples Redis at most this often, in ms (default 5 000); each sample reads at most 1 000 streams. */
  readonly heldSampleMs?: number;
  /** Clock, in ms (default `Date.now`): when a stream expires, for `held`. */
  readonly now?: () => number;
}

/** Streams whose length a sample reads; beyond, the count is scaled from them. */
const SAMPLED_STREAMS = 1000;
/** Every this many appends, the expired names are pruned from the sorted set (it is also pruned at each sample). */
const PRUNE_EVERY = 256;

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
  readonly #sampleMs: number;
  readonly #now: () => number;
  #appends = 0;
  #held: EventStoreHeld | undefined;
  #sampledAt = -Infinity;
  #sampling: Promise<EventStoreHeld | undefined> | undefined;

  constructor(redis: Redis, options: RedisEventStoreOptions = {}) {
    this.#redis = redis;
    this.#prefix = options.prefix ?? 'wiremcp:';
    this.#max = Math.max(1, options.maxEventsPerStream ?? 512);
    this.#ttlMs = Math.max(1000, options.ttlMs ?? 5 * 60_000);
    this.#sampleMs = Math.max(0, options.heldSampleMs ?? 5000);
    this.#now = options.now ?? Date.now;
  }

  /** The sorted set naming every stream (its key), scored by when it expires. */
  get #streams(): string {
    return `${this.#prefix}evidx`;
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
    // The stream's description outlives the events trimmed from its head: a key of its own, expiring with them. A
    // process taking the stream over writes its own (the latest wins).
    if (event.info !== undefined) pipeline.set(`${key}:info`, event.info, 'PX', ttl);
    const now = this.#now();
    pipeline.zadd(this.#streams, String(now + this.#ttlMs), key).pexpire(this.#streams, ttl);
    if (++this.#appends % PRUNE_EVERY === 0) pipeline.zremrangebyscore(this.#streams, '-inf', String(now));
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
    const pipeline = this.#redis.pipeline().del(index, ...keys);
    if (streams.length > 0) pipeline.zrem(this.#streams, ...streams.map((streamId) => this.#key(sessionId, streamId)));
    const results = await pipeline.exec();
    const failed = results?.find(([error]) => error !== null)?.[0];
    if (failed) throw failed;
  }

  /**
   * Events held by the deployment (every process shares the count), from the last sample: a sample older than
   * `heldSampleMs` is refreshed in the background. `undefined` until the first sample, or after a failed one.
   */
  held(): EventStoreHeld | undefined {
    if (this.#now() - this.#sampledAt >= this.#sampleMs) void this.sampleHeld().catch(() => {});
    return this.#held;
  }

  /**
   * Samples Redis now: expired names pruned, the streams counted, and the lengths of at most 1 000 of them summed
   * (scaled to the count beyond that). Concurrent calls share one sample.
   */
  sampleHeld(): Promise<EventStoreHeld | undefined> {
    this.#sampling ??= this.#sample().finally(() => (this.#sampling = undefined));
    return this.#sampling;
  }

  async #sample(): Promise<EventStoreHeld | undefined> {
    this.#sampledAt = this.#now();
    try {
      const results = await this.#redis
        .pipeline()
        .zremrangebyscore(this.#streams, '-inf', String(this.#sampledAt))
        .zcard(this.#streams)
        .zrange(this.#streams, 0, SAMPLED_STREAMS - 1)
        .exec();
      for (const [error] of results ?? []) if (error) throw error;
      const count = Number(results?.[1]?.[1] ?? 0);
      const keys = (results?.[2]?.[1] ?? []) as string[];
      let events = 0;
      if (keys.length > 0) {
        const lengths = keys.reduce((pipeline, key) => pipeline.xlen(key), this.#redis.pipeline());
        for (const [error, length] of (await lengths.exec()) ?? []) if (!error) events += Number(length);
      }
      if (keys.length > 0 && count > keys.length) events = Math.round((events * count) / keys.length);
      this.#held = { events };
    } catch {
      // Redis did not answer: the point is left out until a sample succeeds.
      this.#held = undefined;
    }
    return this.#held;
  }
}
