/**
 * Where a server keeps its tasks. The record is plain JSON (no closures, no class instances), and every method is
 * asynchronous, so that a store shared by several server processes (Redis, a database) can back the same
 * interface as the in-memory default: the process that runs a task writes its progress to the store, and any
 * process can answer `tasks/get`, `tasks/update` and `tasks/cancel` from it.
 */
import type { JsonObject } from '@wiremcp/protocol';

/** The status of a task. `completed`, `failed` and `cancelled` are terminal: a terminal task never changes again. */
export type TaskStatus = 'working' | 'input_required' | 'completed' | 'failed' | 'cancelled';

/** The terminal statuses. */
export const TERMINAL_STATUSES: ReadonlySet<TaskStatus> = new Set(['completed', 'failed', 'cancelled']);

/** One input a task waits for (a 2026-07-28 `inputRequests` entry): the server→client request it stands for. */
export interface TaskInputRequest {
  readonly method: string;
  readonly params: JsonObject;
}

/** A JSON-RPC error, as a failed task keeps it. */
export interface TaskError {
  readonly code: number;
  readonly message: string;
  readonly data?: unknown;
}

/** Everything a store keeps of one task: serialisable as it is (`JSON.stringify` round-trips it). */
export interface TaskRecord {
  /** Unguessable identifier (it is the only credential a 2026-07-28 client needs to read the task). */
  readonly taskId: string;
  /** The era of the request that created the task: it decides the wire shape of every answer about it. */
  readonly era: 'legacy' | 'modern';
  /** Who may see the task in `tasks/list` and read it (a legacy session's key); absent when the id alone suffices. */
  readonly owner?: string;
  /** The method the task runs (`tools/call`). */
  readonly method: string;
  /**
   * What the method names (the tool of a `tools/call`): the follow-ups of a task are authorized against the operation
   * that created it. Absent in records written before it was kept.
   */
  readonly name?: string;
  readonly status: TaskStatus;
  readonly statusMessage?: string;
  /** ISO 8601. */
  readonly createdAt: string;
  /** ISO 8601. */
  readonly lastUpdatedAt: string;
  /** Retention from creation in ms; `null` for unlimited. The store may drop the task once it elapsed. */
  readonly ttlMs: number | null;
  /** Suggested polling interval in ms. */
  readonly pollIntervalMs?: number;
  /** The result of the method, once `completed`. */
  readonly result?: JsonObject;
  /** The JSON-RPC error of the method, once `failed`. */
  readonly error?: TaskError;
  /** Inputs the task waits for, by key (status `input_required` while any is left). */
  readonly inputRequests?: Readonly<Record<string, TaskInputRequest>>;
  /** Answers delivered by `tasks/update` that the running task has not taken yet, by key. */
  readonly inputResponses?: Readonly<Record<string, unknown>>;
}

/** The fields `update` may change. */
export type TaskPatch = Partial<Omit<TaskRecord, 'taskId' | 'era' | 'owner' | 'method' | 'name' | 'createdAt' | 'ttlMs'>>;

/** One page of `TaskStore.list`. */
export interface TaskPage {
  readonly tasks: readonly TaskRecord[];
  /** Present when more tasks follow: pass it back as `cursor`. */
  readonly nextCursor?: string;
}

/**
 * A task store. Contract every implementation keeps:
 * - `create` resolves only once `get` of the same id resolves the record (durable create); it rejects with
 *   {@link TaskStoreFullError} when the store holds as many live tasks as it may.
 * - A record whose `ttlMs` elapsed (counted from `createdAt`) may be gone from `get`, `list` and `update`.
 * - `update` is an atomic read-modify-write: it calls `change` with the current record and applies the patch it
 *   returns, resolving with the new record. It resolves `undefined`, changing nothing, when the task is unknown or
 *   expired, when it is terminal (terminal tasks never change), or when `change` returns `undefined`. A shared
 *   store may call `change` again after a conflicting write, so `change` must be free of side effects.
 * - `list` pages the live tasks of one owner (or of no owner) in creation order; a cursor is opaque and an unknown
 *   one rejects with {@link TaskCursorError}.
 * - `watch` calls `listener` with the record after each change of that task until the returned function is called;
 *   a store shared between processes calls it for changes made by any of them.
 * - Leases (optional, for a store shared between processes): `create` gives the new task a lease of `leaseMs`, the
 *   process running the task renews it with `renewLease` (every third of `leaseMs`) until the work ends, then calls
 *   `endLease`. A task whose lease lapsed while it was not terminal (its process died) is marked `failed` by the
 *   store, atomically and once, when any process reads it (`get`, `list`) or watches it; watchers hear the change.
 */
export interface TaskStore {
  create(record: TaskRecord): Promise<void>;
  get(taskId: string): Promise<TaskRecord | undefined>;
  update(taskId: string, change: (current: TaskRecord) => TaskPatch | undefined): Promise<TaskRecord | undefined>;
  list(owner: string | undefined, cursor: string | undefined, limit: number): Promise<TaskPage>;
  watch(taskId: string, listener: (record: TaskRecord) => void): () => void;
  /** Lifetime of a running task's lease without renewal, in ms; absent when the store has no leases. */
  readonly leaseMs?: number;
  /** Renews the lease of a task this process runs. */
  renewLease?(taskId: string): Promise<void>;
  /** Ends the lease of a task whose work ended here. */
  endLease?(taskId: string): Promise<void>;
}

/** Rejection of `TaskStore.create` when the store is full. */
export class TaskStoreFullError extends Error {
  constructor(readonly limit: number) {
    super(`The task store holds its maximum of ${limit} tasks`);
    this.name = 'TaskStoreFullError';
  }
}

/** Rejection of `TaskStore.list` for a cursor the store did not issue (or that no longer points anywhere). */
export class TaskCursorError extends Error {
  constructor() {
    super('Invalid cursor');
    this.name = 'TaskCursorError';
  }
}
