/**
 * Tasks as the client sees them, whatever era the server speaks: one `ClientTask` shape read from the 2025-11-25
 * `Task` (`ttl`, `pollInterval`, wrapped as `{task}` on creation) or the 2026-07-28 extension's flat task
 * (`ttlMs`, `pollIntervalMs`, with `inputRequests`, `result` or `error` inlined by `tasks/get`).
 */
import { LocalError, type Era } from '@wiremcp/protocol';
import type { InputRequest, JsonObject } from './types.js';

/** The identifier of the 2026-07-28 tasks extension. */
export const TASKS_EXTENSION = 'io.modelcontextprotocol/tasks';

/** The status of a task; `completed`, `failed` and `cancelled` are terminal. */
export type ClientTaskStatus = 'working' | 'input_required' | 'completed' | 'failed' | 'cancelled';

/** A task, in one shape for both eras. */
export interface ClientTask {
  readonly taskId: string;
  readonly status: ClientTaskStatus;
  readonly statusMessage?: string;
  /** ISO 8601. */
  readonly createdAt: string;
  /** ISO 8601. */
  readonly lastUpdatedAt: string;
  /** Retention from creation in ms (`null`: unlimited). */
  readonly ttlMs: number | null;
  /** Suggested polling interval in ms. */
  readonly pollIntervalMs?: number;
  /** 2026-07-28, `input_required`: what the task waits for, by key (answer with `tasks.update`). */
  readonly inputRequests?: Readonly<Record<string, InputRequest>>;
  /** 2026-07-28, `completed`: the result of the call. */
  readonly result?: JsonObject;
  /** 2026-07-28, `failed`: the JSON-RPC error of the call. */
  readonly error?: { readonly code: number; readonly message: string; readonly data?: unknown };
}

const STATUSES: ReadonlySet<string> = new Set(['working', 'input_required', 'completed', 'failed', 'cancelled']);

/** True for `completed`, `failed` and `cancelled`. */
export function isTerminal(status: ClientTaskStatus): boolean {
  return status === 'completed' || status === 'failed' || status === 'cancelled';
}

function object(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** Reads a task off the wire (`era` decides the field names); `INVALID_RESULT` when it is not one. */
export function readTask(raw: unknown, era: Era, method: string): ClientTask {
  const bad = (why: string) =>
    new LocalError('INVALID_RESULT', `The task in the result of '${method}' is malformed: ${why}`, { details: raw });
  if (!object(raw)) throw bad('not an object');
  const { taskId, status, statusMessage, createdAt, lastUpdatedAt } = raw;
  if (typeof taskId !== 'string' || taskId.length === 0) throw bad('taskId');
  if (typeof status !== 'string' || !STATUSES.has(status)) throw bad('status');
  if (typeof createdAt !== 'string' || typeof lastUpdatedAt !== 'string') throw bad('createdAt/lastUpdatedAt');
  const ttl = era === 'modern' ? raw.ttlMs : raw.ttl;
  if (ttl !== null && (typeof ttl !== 'number' || ttl < 0)) throw bad(era === 'modern' ? 'ttlMs' : 'ttl');
  const poll = era === 'modern' ? raw.pollIntervalMs : raw.pollInterval;
  const task: Record<string, unknown> = { taskId, status, createdAt, lastUpdatedAt, ttlMs: ttl };
  if (typeof statusMessage === 'string') task.statusMessage = statusMessage;
  if (typeof poll === 'number' && poll >= 0) task.pollIntervalMs = poll;
  if (era === 'modern') {
    if (status === 'input_required') {
      if (!object(raw.inputRequests)) throw bad('inputRequests');
      task.inputRequests = raw.inputRequests;
    }
    if (status === 'completed' && raw.result !== undefined) {
      if (!object(raw.result)) throw bad('result');
      task.result = raw.result;
    }
    if (status === 'failed' && raw.error !== undefined) {
      const error = raw.error;
      if (!object(error) || typeof error.code !== 'number' || typeof error.message !== 'string') throw bad('error');
      task.error = error;
    }
  }
  return task as unknown as ClientTask;
}
