/**
 * The task store on Redis: one string key per task holding its record as JSON, expiring with the task's TTL
 * (counted from `createdAt`), a sorted set of every task in creation order (the bound) and one per owner (the
 * pages of `list`). Creation and each change run as Lua scripts, so every process sees one order of writes: an
 * `update` reads the record, computes the patch in this process, and writes it only if the record is still the
 * one it read (compare-and-set), retrying on a conflicting write. Each change is published on one channel per
 * deployment in the same script; `watch` listens there, so it reports changes made by any process.
 *
 * A running task holds a lease, a key expiring after `leaseMs` that the process running it renews: when that
 * process dies the lease lapses, and the next process to read the task (`get`, `list`) or to watch it (checked
 * every `leaseMs`) marks it `failed`, by a compare-and-set that also checks the lease is still gone, so a task
 * is failed once and never while its process renews the lease.
 */
import {
  TaskCursorError,
  TaskStoreFullError,
  TERMINAL_STATUSES,
  type TaskPage,
  type TaskPatch,
  type TaskRecord,
  type TaskStore,
} from '@wiremcp/server';
import type { Redis } from 'ioredis';

/** Options of {@link RedisTaskStore}. */
export interface RedisTaskStoreOptions {
  /** Prefix of every key and of the channel (default `wiremcp:`); one prefix per deployment. */
  readonly prefix?: string;
  /** Most tasks held at once (default 1000). When full, the oldest terminal task makes room; else `create` rejects. */
  readonly maxTasks?: number;
  /**
   * Lifetime of a running task's lease without renewal, in ms (default 10 000): how long a task whose process died
   * stays `working` at most before it is failed. The running process renews it every third of that.
   */
  readonly leaseMs?: number;
}

const DEFAULT_MAX_TASKS = 1000;
const DEFAULT_LEASE_MS = 10_000;
/** What a task whose process died says, as its status message and error. */
const LAPSED = 'The server process running this task stopped before it finished (its lease lapsed)';
/** Attempts of an `update` whose record keeps changing under it before it gives up. */
const MAX_UPDATE_ATTEMPTS = 32;

// KEYS: all-index, owners hash, owner index, task key, sequence, lease key. ARGV: task id, record JSON, ttl ms
// (0 = none), max tasks, key prefix of tasks, lease ms. Drops index entries of expired tasks, makes room by evicting the oldest terminal
// task, then writes. Returns 1, 0 when full, -1 for a duplicate id.
const CREATE = `
if redis.call('EXISTS', KEYS[4]) == 1 then return -1 end
local ids = redis.call('ZRANGE', KEYS[1], 0, -1)
local live = 0
local evict = nil
local function drop(id)
  local index = redis.call('HGET', KEYS[2], id)
  if index then redis.call('ZREM', index, id) end
  redis.call('HDEL', KEYS[2], id)
  redis.call('ZREM', KEYS[1], id)
end
for _, id in ipairs(ids) do
  local text = redis.call('GET', ARGV[5] .. id)
  if not text then drop(id) else
    live = live + 1
    if evict == nil then
      local status = cjson.decode(text).status
      if status == 'completed' or status == 'failed' or status == 'cancelled' then evict = id end
    end
  end
end
if live >= tonumber(ARGV[4]) then
  if evict == nil then return 0 end
  redis.call('DEL', ARGV[5] .. evict)
  drop(evict)
end
if tonumber(ARGV[3]) > 0 then redis.call('SET', KEYS[4], ARGV[2], 'PX', ARGV[3]) else redis.call('SET', KEYS[4], ARGV[2]) end
redis.call('SET', KEYS[6], '1', 'PX', ARGV[6])
local seq = redis.call('INCR', KEYS[5])
redis.call('ZADD', KEYS[1], seq, ARGV[1])
redis.call('ZADD', KEYS[3], seq, ARGV[1])
redis.call('HSET', KEYS[2], ARGV[1], KEYS[3])
return 1`;

// KEYS: task key. ARGV: the JSON read, the JSON to write, channel. Writes (keeping the TTL) only if unchanged.
const COMPARE_AND_SET = `
if redis.call('GET', KEYS[1]) ~= ARGV[1] then return 0 end
redis.call('SET', KEYS[1], ARGV[2], 'KEEPTTL')
redis.call('PUBLISH', ARGV[3], ARGV[2])
return 1`;

// KEYS: task key, lease key. ARGV: the JSON read, the failed record's JSON, channel. Fails the task only if its
// lease is still gone and the record unchanged.
const FAIL_LAPSED = `
if redis.call('EXISTS', KEYS[2]) == 1 then return 0 end
if redis.call('GET', KEYS[1]) ~= ARGV[1] then return 0 end
redis.call('SET', KEYS[1], ARGV[2], 'KEEPTTL')
redis.call('PUBLISH', ARGV[3], ARGV[2])
return 1`;

function parse(text: string | null): TaskRecord | undefined {
  if (text === null) return undefined;
  try {
    return JSON.parse(text) as TaskRecord;
  } catch {
    return undefined;
  }
}

/** See the module comment; the contract is {@link TaskStore}'s. Call {@link RedisTaskStore.start} before `watch`. */
export class RedisTaskStore implements TaskStore {
  readonly #redis: Redis;
  readonly #subscriber: Redis;
  readonly #prefix: string;
  readonly #channel: string;
  readonly #max: number;
  readonly #watchers = new Map<string, Set<(record: TaskRecord) => void>>();
  /** See {@link TaskStore.leaseMs}. */
  readonly leaseMs: number;
  /** Checks the leases of watched tasks while any is watched. */
  #sweeper: ReturnType<typeof setInterval> | undefined;

  /**
   * `redis` is any command connection; `subscriber` a connection in subscriber mode (it may be shared with the
   * session bus: each listens to its own channel only).
   */
  constructor(redis: Redis, subscriber: Redis, options: RedisTaskStoreOptions = {}) {
    const max = options.maxTasks ?? DEFAULT_MAX_TASKS;
    if (!Number.isSafeInteger(max) || max < 1) throw new RangeError(`maxTasks must be an integer ≥ 1, not ${String(max)}`);
    this.#redis = redis;
    this.#subscriber = subscriber;
    this.#prefix = options.prefix ?? 'wiremcp:';
    this.#channel = `${this.#prefix}tasks`;
    this.#max = max;
    const leaseMs = options.leaseMs ?? DEFAULT_LEASE_MS;
    if (!Number.isSafeInteger(leaseMs) || leaseMs < 3) throw new RangeError(`leaseMs must be an integer ≥ 3, not ${String(leaseMs)}`);
    this.leaseMs = leaseMs;
    subscriber.on('message', (channel: string, text: string) => {
      if (channel !== this.#channel) return;
      const record = parse(text);
      if (record === undefined || typeof record.taskId !== 'string') return;
      for (const listener of [...(this.#watchers.get(record.taskId) ?? [])]) listener(record);
    });
  }

  /** Subscribes to the change channel; resolves once Redis confirmed it. */
  async start(): Promise<void> {
    await this.#subscriber.subscribe(this.#channel);
  }

  #key(taskId: string): string {
    return `${this.#prefix}task:${taskId}`;
  }

  #leaseKey(taskId: string): string {
    return `${this.#prefix}task:${taskId}:lease`;
  }

  #ownerIndex(owner: string | undefined): string {
    return owner === undefined ? `${this.#prefix}tasks:none` : `${this.#prefix}tasks:owner:${owner}`;
  }

  async create(record: TaskRecord): Promise<void> {
    const ttl = record.ttlMs === null ? 0 : Math.max(1, Date.parse(record.createdAt) + record.ttlMs - Date.now());
    const outcome = await this.#redis.eval(
      CREATE,
      6,
      `${this.#prefix}tasks:all`,
      `${this.#prefix}tasks:owners`,
      this.#ownerIndex(record.owner),
      this.#key(record.taskId),
      `${this.#prefix}tasks:seq`,
      this.#leaseKey(record.taskId),
      record.taskId,
      JSON.stringify(record),
      ttl,
      this.#max,
      `${this.#prefix}task:`,
      this.leaseMs,
    );
    if (outcome === -1) throw new RangeError('Duplicate task id');
    if (outcome === 0) throw new TaskStoreFullError(this.#max);
  }

  async get(taskId: string): Promise<TaskRecord | undefined> {
    const [text, lease] = await this.#redis.mget(this.#key(taskId), this.#leaseKey(taskId));
    return this.#checked(taskId, text ?? null, lease ?? null);
  }

  async renewLease(taskId: string): Promise<void> {
    await this.#redis.set(this.#leaseKey(taskId), '1', 'PX', this.leaseMs);
  }

  async endLease(taskId: string): Promise<void> {
    await this.#redis.del(this.#leaseKey(taskId));
  }

  /** The record read as `text`, failed first when it is running and its lease (read as `lease`) lapsed. */
  async #checked(taskId: string, text: string | null, lease: string | null): Promise<TaskRecord | undefined> {
    const record = parse(text);
    if (record === undefined || lease !== null || TERMINAL_STATUSES.has(record.status)) return record;
    const failed: TaskRecord = {
      ...record,
      status: 'failed',
      statusMessage: LAPSED,
      error: { code: -32603, message: LAPSED },
      lastUpdatedAt: new Date().toISOString(),
      inputRequests: {},
      inputResponses: {},
    };
    const written = await this.#redis.eval(
      FAIL_LAPSED,
      2,
      this.#key(taskId),
      this.#leaseKey(taskId),
      text!,
      JSON.stringify(failed),
      this.#channel,
    );
    // Lost the race (the task changed, or its lease came back): what is there now is the answer.
    return written === 1 ? failed : parse(await this.#redis.get(this.#key(taskId)));
  }

  /** Fails the watched tasks whose lease lapsed (their watchers hear it through the channel). */
  async #sweep(): Promise<void> {
    const ids = [...this.#watchers.keys()];
    if (ids.length === 0) return;
    const texts = await this.#redis.mget(ids.flatMap((id) => [this.#key(id), this.#leaseKey(id)]));
    for (let i = 0; i < ids.length; i += 1) await this.#checked(ids[i]!, texts[2 * i] ?? null, texts[2 * i + 1] ?? null);
  }

  async update(taskId: string, change: (current: TaskRecord) => TaskPatch | undefined): Promise<TaskRecord | undefined> {
    const key = this.#key(taskId);
    for (let attempt = 0; attempt < MAX_UPDATE_ATTEMPTS; attempt += 1) {
      const text = await this.#redis.get(key);
      const current = parse(text);
      if (text === null || current === undefined || TERMINAL_STATUSES.has(current.status)) return undefined;
      const patch = change(current);
      if (patch === undefined) return undefined;
      const next: TaskRecord = { ...current, ...patch };
      const written = await this.#redis.eval(COMPARE_AND_SET, 1, key, text, JSON.stringify(next), this.#channel);
      if (written === 1) return next;
    }
    throw new Error(`The task kept changing under ${MAX_UPDATE_ATTEMPTS} attempts to update it`);
  }

  async list(owner: string | undefined, cursor: string | undefined, limit: number): Promise<TaskPage> {
    const index = this.#ownerIndex(owner);
    let from = '-inf';
    if (cursor !== undefined) {
      const [score, exists] = await Promise.all([this.#redis.zscore(index, cursor), this.#redis.exists(this.#key(cursor))]);
      if (score === null || exists === 0) throw new TaskCursorError();
      from = score;
    }
    const tasks: TaskRecord[] = [];
    // Entries of expired tasks linger in the index until the next create: skip them, reading in chunks.
    const chunk = Math.max(16, limit + 1);
    for (let offset = 0; ; offset += chunk) {
      const ids = await this.#redis.zrangebyscore(index, from, '+inf', 'LIMIT', offset, chunk);
      if (ids.length === 0) return { tasks };
      const texts = await this.#redis.mget(ids.flatMap((id) => [this.#key(id), this.#leaseKey(id)]));
      for (let i = 0; i < ids.length; i += 1) {
        const record = await this.#checked(ids[i]!, texts[2 * i] ?? null, texts[2 * i + 1] ?? null);
        if (record === undefined) continue;
        if (tasks.length === limit) return { tasks, nextCursor: record.taskId };
        tasks.push(record);
      }
      if (ids.length < chunk) return { tasks };
    }
  }

  watch(taskId: string, listener: (record: TaskRecord) => void): () => void {
    let listeners = this.#watchers.get(taskId);
    if (!listeners) this.#watchers.set(taskId, (listeners = new Set()));
    listeners.add(listener);
    if (this.#sweeper === undefined) {
      this.#sweeper = setInterval(() => {
        // An unreachable Redis fails the reads that need it; the sweep tries again on the next tick.
        this.#sweep().catch(() => {});
      }, this.leaseMs);
      this.#sweeper.unref();
    }
    return () => {
      listeners.delete(listener);
      if (listeners.size === 0 && this.#watchers.get(taskId) === listeners) this.#watchers.delete(taskId);
      if (this.#watchers.size === 0 && this.#sweeper !== undefined) {
        clearInterval(this.#sweeper);
        this.#sweeper = undefined;
      }
    };
  }
}
