/**
 * The life of a server's tasks, whatever era created them: creating the record (durably, before the creating
 * request is answered), running the work in the background, writing its outcome, cancellation, inputs a running
 * task waits for (2026-07-28 `inputRequests`, answered by `tasks/update`), and waiting for a terminal status
 * (2025-11-25 `tasks/result`). Everything another process needs is in the store; only the running work's abort
 * controller and input waiters live here, driven by the store's `watch`.
 */
import { ErrorCode, LocalError, RpcError, type JsonObject } from '@wiremcp/protocol';
import { MemoryTaskStore } from './memory-task-store.js';
import { TERMINAL_STATUSES, type TaskError, type TaskPage, type TaskPatch, type TaskRecord, type TaskStore } from './task-store.js';

/** Options of a server's tasks (`ServerOptions.tasks`). */
export interface TaskOptions {
  /** Where tasks are kept (default: a {@link MemoryTaskStore} holding at most 1000 tasks). */
  store?: TaskStore;
  /** TTL of a task whose request asks for none (2026-07-28 requests never do), in ms; `null`: unlimited. Default 1 hour. */
  defaultTtlMs?: number | null;
  /** Upper bound of a requested TTL, in ms (default 24 hours). */
  maxTtlMs?: number;
  /** Suggested polling interval sent with every task, in ms (default 1000). */
  pollIntervalMs?: number;
  /** Tasks per `tasks/list` page (default 100). */
  pageSize?: number;
}

/** What the creator of a task says about it. */
export interface TaskStart {
  readonly era: 'legacy' | 'modern';
  readonly owner: string | undefined;
  readonly method: string;
  /** What the method names (the tool of a `tools/call`). */
  readonly name?: string;
  /** The TTL the request asked for (2025-11-25 `params.task.ttl`), before clamping. */
  readonly requestedTtlMs: number | undefined;
}

/** What a running task's work gets from the manager. */
export interface TaskRun {
  readonly taskId: string;
  /** Aborts when the task is cancelled or its TTL elapses. */
  readonly signal: AbortSignal;
  /** Waits for the client's answer to an input (2026-07-28): the task is `input_required` until it arrives. */
  ask(key: string, method: string, params: JsonObject): Promise<unknown>;
  /** Sets the status while the work waits on the client in another way (a legacy server→client request). */
  setStatus(status: 'working' | 'input_required', statusMessage?: string): Promise<void>;
}

const HOUR = 3_600_000;

function positiveInteger(value: number | undefined, name: string, fallback: number): number {
  const chosen = value ?? fallback;
  if (!Number.isSafeInteger(chosen) || chosen < 1) throw new LocalError('INVALID_ARGUMENT', `tasks.${name} must be an integer ≥ 1`);
  return chosen;
}

/** The error a failed task keeps: a protocol error as it is, anything else a generic internal error. */
function taskError(error: unknown): TaskError {
  if (error instanceof RpcError)
    return error.data === undefined
      ? { code: error.code, message: error.message }
      : { code: error.code, message: error.message, data: error.data };
  return { code: ErrorCode.InternalError, message: 'Internal error while running the task' };
}

/** See the module comment; one per server. */
export class TaskManager {
  readonly store: TaskStore;
  readonly pageSize: number;
  readonly #defaultTtl: number | null;
  readonly #maxTtl: number;
  readonly #pollInterval: number;
  readonly #report: (error: unknown) => void;

  constructor(options: TaskOptions, report: (error: unknown) => void) {
    this.store = options.store ?? new MemoryTaskStore();
    const ttl = options.defaultTtlMs === undefined ? HOUR : options.defaultTtlMs;
    this.#defaultTtl = ttl === null ? null : positiveInteger(ttl, 'defaultTtlMs', HOUR);
    this.#maxTtl = positiveInteger(options.maxTtlMs, 'maxTtlMs', 24 * HOUR);
    this.#pollInterval = positiveInteger(options.pollIntervalMs, 'pollIntervalMs', 1000);
    this.pageSize = positiveInteger(options.pageSize, 'pageSize', 100);
    this.#report = report;
  }

  /** Creates the record; resolves once the store holds it. A full store is `-32603` for the creating request. */
  async create(start: TaskStart): Promise<TaskRecord> {
    const requested = start.requestedTtlMs;
    const ttlMs = requested === undefined ? this.#defaultTtl : Math.min(Math.max(requested, 1), this.#maxTtl);
    const now = new Date().toISOString();
    const record: TaskRecord = {
      taskId: crypto.randomUUID(),
      era: start.era,
      ...(start.owner === undefined ? {} : { owner: start.owner }),
      method: start.method,
      ...(start.name === undefined ? {} : { name: start.name }),
      status: 'working',
      createdAt: now,
      lastUpdatedAt: now,
      ttlMs,
      pollIntervalMs: this.#pollInterval,
    };
    try {
      await this.store.create(record);
    } catch (error) {
      this.#report(error);
      throw new RpcError(ErrorCode.InternalError, 'The server cannot take more tasks right now');
    }
    return record;
  }

  /**
   * Runs `work` for a created task in the background and records its outcome: a result is `completed`, a thrown
   * `RpcError` is `failed` with that error, anything else `failed` with a generic internal error. `onChange`
   * hears every change of the record (status notifications).
   */
  run(record: TaskRecord, work: (run: TaskRun) => Promise<JsonObject>, onChange?: (record: TaskRecord) => void): void {
    const taskId = record.taskId;
    const controller = new AbortController();
    const waiters = new Map<string, (answer: unknown) => void>();
    const asked = new Set<string>();
    const stop = this.store.watch(taskId, (next) => {
      if (next.status === 'cancelled') controller.abort(new LocalError('REQUEST_CANCELLED', 'The task was cancelled'));
      const responses = next.inputResponses;
      if (responses !== undefined) {
        for (const [key, resolve] of waiters) {
          if (responses[key] === undefined) continue;
          waiters.delete(key);
          resolve(responses[key]);
          void this.#update(taskId, (current) => {
            const rest = { ...current.inputResponses };
            delete rest[key];
            return { inputResponses: rest };
          });
        }
      }
      onChange?.(next);
    });
    const expiry =
      record.ttlMs === null
        ? undefined
        : setTimeout(() => controller.abort(new LocalError('REQUEST_TIMEOUT', 'The task expired')), record.ttlMs);
    const run: TaskRun = {
      taskId,
      signal: controller.signal,
      ask: (key, method, params) => {
        if (asked.has(key)) return Promise.reject(new LocalError('INVALID_ARGUMENT', `Input key '${key}' was already used in this task`));
        asked.add(key);
        return new Promise<unknown>((resolve, reject) => {
          const abort = () => {
            waiters.delete(key);
            reject(controller.signal.reason);
          };
          if (controller.signal.aborted) return abort();
          controller.signal.addEventListener('abort', abort, { once: true });
          waiters.set(key, (answer) => {
            controller.signal.removeEventListener('abort', abort);
            resolve(answer);
          });
          void this.#update(taskId, (current) => ({
            status: 'input_required',
            inputRequests: { ...current.inputRequests, [key]: { method, params } },
          }));
        });
      },
      setStatus: async (status, statusMessage) => {
        await this.#update(taskId, () => (statusMessage === undefined ? { status } : { status, statusMessage }));
      },
    };
    const endLease = this.#holdLease(taskId);
    const finish = async (patch: Parameters<TaskManager['settle']>[1]) => {
      clearTimeout(expiry);
      try {
        await this.settle(taskId, patch);
      } finally {
        stop();
        endLease();
      }
    };
    work(run)
      .then(
        (result) => finish({ status: 'completed', result }),
        (error: unknown) => {
          if (controller.signal.aborted) return finish({ status: 'cancelled' });
          if (!(error instanceof RpcError)) this.#report(error);
          return finish({ status: 'failed', error: taskError(error), statusMessage: taskError(error).message });
        },
      )
      .catch(this.#report);
  }

  /** Moves a task to a terminal status (nothing happens when it already is terminal). */
  async settle(
    taskId: string,
    patch:
      { status: 'completed'; result: JsonObject } | { status: 'failed'; error: TaskError; statusMessage: string } | { status: 'cancelled' },
  ): Promise<TaskRecord | undefined> {
    return this.#update(taskId, () => ({ ...patch, inputRequests: {}, inputResponses: {} }));
  }

  /** The task, when it exists, is live, and `owner` may see it. */
  async get(taskId: string, era: 'legacy' | 'modern', owner: string | undefined): Promise<TaskRecord | undefined> {
    const record = await this.store.get(taskId);
    return record !== undefined && record.era === era && record.owner === owner ? record : undefined;
  }

  /** Marks a task cancelled (the process running it aborts its work). Resolves the record as it is now. */
  async cancel(record: TaskRecord): Promise<TaskRecord> {
    return (await this.#update(record.taskId, () => ({ status: 'cancelled', statusMessage: 'Cancelled by the client' }))) ?? record;
  }

  /**
   * Delivers `inputResponses` to a task: answers to keys it is waiting for are taken, every other key ignored.
   * The task stays `input_required` while any input is left.
   */
  async answer(record: TaskRecord, responses: Readonly<Record<string, unknown>>): Promise<void> {
    await this.#update(record.taskId, (current) => {
      const pending = { ...current.inputRequests };
      const taken: Record<string, unknown> = { ...current.inputResponses };
      let count = 0;
      for (const [key, value] of Object.entries(responses)) {
        if (pending[key] === undefined || value === undefined) continue;
        taken[key] = value;
        delete pending[key];
        count += 1;
      }
      if (count === 0) return undefined;
      return { inputRequests: pending, inputResponses: taken, status: Object.keys(pending).length > 0 ? 'input_required' : 'working' };
    });
  }

  /** Resolves with the task once it is terminal, or `undefined` when it is gone (expired) or `signal` aborts. */
  terminal(record: TaskRecord, signal: AbortSignal): Promise<TaskRecord | undefined> {
    if (TERMINAL_STATUSES.has(record.status)) return Promise.resolve(record);
    return new Promise((resolve) => {
      const done = (value: TaskRecord | undefined) => {
        stop();
        signal.removeEventListener('abort', aborted);
        resolve(value);
      };
      const aborted = () => done(undefined);
      const stop = this.store.watch(record.taskId, (next) => {
        if (TERMINAL_STATUSES.has(next.status)) done(next);
      });
      signal.addEventListener('abort', aborted, { once: true });
      // It may have ended between the caller's read and the watch.
      this.store.get(record.taskId).then((now) => {
        if (now === undefined || TERMINAL_STATUSES.has(now.status)) done(now);
      }, aborted);
    });
  }

  /** One page of an owner's tasks. */
  list(owner: string | undefined, cursor: string | undefined): Promise<TaskPage> {
    return this.store.list(owner, cursor, this.pageSize);
  }

  /**
   * Renews the task's lease in a shared store while its work runs here (every third of the lease, so one missed
   * renewal does not lapse it); returns what ends it. A renewal that fails is reported and retried on the next tick.
   */
  #holdLease(taskId: string): () => void {
    const store = this.store;
    const leaseMs = store.leaseMs;
    if (leaseMs === undefined || store.renewLease === undefined) return () => {};
    const timer = setInterval(
      () => {
        store.renewLease!(taskId).catch(this.#report);
      },
      Math.max(1, Math.floor(leaseMs / 3)),
    );
    return () => {
      clearInterval(timer);
      store.endLease?.(taskId).catch(this.#report);
    };
  }

  #update(taskId: string, change: (current: TaskRecord) => TaskPatch | undefined): Promise<TaskRecord | undefined> {
    return this.store.update(taskId, (current) => {
      const patch = change(current);
      return patch === undefined ? undefined : { ...patch, lastUpdatedAt: new Date().toISOString() };
    });
  }
}
