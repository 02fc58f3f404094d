/**
 * The task store on Redis: one string key per task holding its record as JSON, expiring with the task's TTL
 * (counted from `createdAt`), a sorted set of every task in creation order (the bound) and one per owner (the
 * pages of `list`). Creation and each change run as Lua scripts, so every process sees one order of writes: an
 * `update` reads the record, computes the patch in this process, and writes it only if the record is still the
 * one it read (compare-and-set), retrying on a conflicting write. Each change is published on one channel per
 * deployment in the same script; `watch` listens there, so it reports changes made by any process.
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
}

const DEFAULT_MAX_TASKS = 1000;
/** Attempts of an `update` whose record keeps changing under it before it gives up. */
const MAX_UPDATE_ATTEMPTS = 32;

// KEYS: all-index, owners hash, owner index, task key, sequence. ARGV: task id, record JSON, ttl ms (0 = none),
// max tasks, key prefix of tasks. Drops index entries of expired tasks, makes room by evicting the oldest terminal
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

  #ownerIndex(owner: string | undefined): string {
    return owner === undefined ? `${this.#prefix}tasks:none` : `${this.#prefix}tasks:owner:${owner}`;
  }

  async create(record: TaskRecord): Promise<void> {
    const ttl = record.ttlMs === null ? 0 : Math.max(1, Date.parse(record.createdAt) + record.ttlMs - Date.now());
    const outcome = await this.#redis.eval(
      CREATE,
      5,
      `${this.#prefix}tasks:all`,
      `${this.#prefix}tasks:owners`,
      this.#ownerIndex(record.owner),
      this.#key(record.taskId),
      `${this.#prefix}tasks:seq`,
      record.taskId,
      JSON.stringify(record),
      ttl,
      this.#max,
      `${this.#prefix}task:`,
    );
    if (outcome === -1) throw new RangeError('Duplicate task id');
    if (outcome === 0) throw new TaskStoreFullError(this.#max);
  }

  async get(taskId: string): Promise<TaskRecord | undefined> {
    return parse(await this.#redis.get(this.#key(taskId)));
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
      const texts = await this.#redis.mget(ids.map((id) => this.#key(id)));
      for (let i = 0; i < ids.length; i += 1) {
        const record = parse(texts[i] ?? null);
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
    return () => {
      listeners.delete(listener);
      if (listeners.size === 0 && this.#watchers.get(taskId) === listeners) this.#watchers.delete(taskId);
    };
  }
}
