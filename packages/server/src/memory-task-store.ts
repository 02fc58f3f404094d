/**
 * The default task store: tasks in this process's memory, bounded in count, dropped once their TTL elapsed.
 * Expiry is checked when the store is used (no timers are left running), against `Date.now()`.
 */
import { LocalError } from '@wiremcp/protocol';
import {
  TaskCursorError,
  TaskStoreFullError,
  TERMINAL_STATUSES,
  type TaskPage,
  type TaskPatch,
  type TaskRecord,
  type TaskStore,
} from './task-store.js';

/** Options of {@link MemoryTaskStore}. */
export interface MemoryTaskStoreOptions {
  /** Most tasks held at once (default 1000). When full, the oldest terminal task makes room; else `create` rejects. */
  maxTasks?: number;
}

const DEFAULT_MAX_TASKS = 1000;

function expired(record: TaskRecord, now: number): boolean {
  return record.ttlMs !== null && Date.parse(record.createdAt) + record.ttlMs <= now;
}

/** See the module comment. Records are frozen copies: nothing a caller holds can change what the store keeps. */
export class MemoryTaskStore implements TaskStore {
  readonly #max: number;
  /** In creation order (a Map iterates in insertion order). */
  readonly #tasks = new Map<string, TaskRecord>();
  readonly #watchers = new Map<string, Set<(record: TaskRecord) => void>>();

  constructor(options: MemoryTaskStoreOptions = {}) {
    const max = options.maxTasks ?? DEFAULT_MAX_TASKS;
    if (!Number.isSafeInteger(max) || max < 1)
      throw new LocalError('INVALID_ARGUMENT', `maxTasks must be an integer ≥ 1, not ${String(max)}`);
    this.#max = max;
  }

  /** Live tasks held right now. */
  get size(): number {
    this.#sweep();
    return this.#tasks.size;
  }

  create(record: TaskRecord): Promise<void> {
    if (this.#tasks.has(record.taskId)) return Promise.reject(new LocalError('INVALID_ARGUMENT', 'Duplicate task id'));
    this.#sweep();
    if (this.#tasks.size >= this.#max && !this.#evictTerminal()) return Promise.reject(new TaskStoreFullError(this.#max));
    this.#tasks.set(record.taskId, Object.freeze({ ...record }));
    return Promise.resolve();
  }

  get(taskId: string): Promise<TaskRecord | undefined> {
    return Promise.resolve(this.#live(taskId));
  }

  update(taskId: string, change: (current: TaskRecord) => TaskPatch | undefined): Promise<TaskRecord | undefined> {
    const current = this.#live(taskId);
    if (current === undefined || TERMINAL_STATUSES.has(current.status)) return Promise.resolve(undefined);
    const patch = change(current);
    if (patch === undefined) return Promise.resolve(undefined);
    const next: TaskRecord = Object.freeze({ ...current, ...patch });
    this.#tasks.set(taskId, next);
    for (const listener of [...(this.#watchers.get(taskId) ?? [])]) listener(next);
    return Promise.resolve(next);
  }

  list(owner: string | undefined, cursor: string | undefined, limit: number): Promise<TaskPage> {
    this.#sweep();
    const mine = [...this.#tasks.values()].filter((record) => record.owner === owner);
    let start = 0;
    if (cursor !== undefined) {
      start = mine.findIndex((record) => record.taskId === cursor);
      if (start === -1) return Promise.reject(new TaskCursorError());
    }
    const tasks = mine.slice(start, start + limit);
    const next = mine[start + limit];
    return Promise.resolve(next === undefined ? { tasks } : { tasks, nextCursor: next.taskId });
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

  #live(taskId: string): TaskRecord | undefined {
    const record = this.#tasks.get(taskId);
    if (record !== undefined && expired(record, Date.now())) {
      this.#tasks.delete(taskId);
      return undefined;
    }
    return record;
  }

  #sweep(): void {
    const now = Date.now();
    for (const [id, record] of this.#tasks) if (expired(record, now)) this.#tasks.delete(id);
  }

  /** Drops the oldest terminal task; false when every task is still running. */
  #evictTerminal(): boolean {
    for (const [id, record] of this.#tasks) {
      if (TERMINAL_STATUSES.has(record.status)) {
        this.#tasks.delete(id);
        return true;
      }
    }
    return false;
  }
}
