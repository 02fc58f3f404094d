/**
 * The wire shapes of tasks in each era, and the checks of what clients send about them. 2025-11-25 (core,
 * experimental): `Task` with `ttl` and `pollInterval`, `CreateTaskResult` wrapping it as `{task}`. 2026-07-28
 * (the `io.modelcontextprotocol/tasks` extension): flat `Task` fields with `ttlMs` and `pollIntervalMs`,
 * `CreateTaskResult` as `resultType: "task"` plus those fields, and `tasks/get` inlining `inputRequests`, `result`
 * or `error` by status.
 */
import { ErrorCode, invalidParams, RpcError, type JsonObject } from '@wiremcp/protocol';
import type { TaskRecord } from './task-store.js';

/** The identifier of the 2026-07-28 tasks extension. */
export const TASKS_EXTENSION = 'io.modelcontextprotocol/tasks';

/** Longest task id accepted in params (ids the server issues are UUIDs). */
const MAX_TASK_ID = 256;

/** The 2025-11-25 `Task` of a record. */
export function legacyTask(record: TaskRecord): JsonObject {
  const task: JsonObject = { taskId: record.taskId, status: record.status };
  if (record.statusMessage !== undefined) task.statusMessage = record.statusMessage;
  task.createdAt = record.createdAt;
  task.lastUpdatedAt = record.lastUpdatedAt;
  task.ttl = record.ttlMs;
  if (record.pollIntervalMs !== undefined) task.pollInterval = record.pollIntervalMs;
  return task;
}

/** The 2026-07-28 `Task` fields of a record; `detailed` adds what its status inlines (the `DetailedTask` of `tasks/get`). */
export function modernTask(record: TaskRecord, detailed: boolean): JsonObject {
  const task: JsonObject = { taskId: record.taskId, status: record.status };
  if (record.statusMessage !== undefined) task.statusMessage = record.statusMessage;
  task.createdAt = record.createdAt;
  task.lastUpdatedAt = record.lastUpdatedAt;
  task.ttlMs = record.ttlMs;
  if (record.pollIntervalMs !== undefined) task.pollIntervalMs = record.pollIntervalMs;
  if (!detailed) return task;
  if (record.status === 'input_required') task.inputRequests = { ...record.inputRequests } as JsonObject;
  else if (record.status === 'completed' && record.result !== undefined) task.result = record.result;
  else if (record.status === 'failed' && record.error !== undefined) task.error = { ...record.error } as JsonObject;
  return task;
}

/** The `taskId` of `tasks/*` params: a non-empty string of bounded length, else `-32602`. */
export function taskIdOf(params: JsonObject | undefined): string {
  const taskId = params?.taskId;
  if (typeof taskId !== 'string' || taskId.length === 0 || taskId.length > MAX_TASK_ID) {
    throw invalidParams('Invalid params: "taskId" must be a non-empty string');
  }
  return taskId;
}

/** `-32602` for a task that does not exist, expired, or is not the caller's. */
export function unknownTask(): RpcError {
  return new RpcError(ErrorCode.InvalidParams, 'Failed to retrieve task: Task not found');
}

/**
 * The TTL a 2025-11-25 task-augmented request asks for (`params.task`): an object whose `ttl`, when present, is
 * a non-negative integer; anything else `-32602`.
 */
export function requestedTtl(task: unknown): number | undefined {
  if (typeof task !== 'object' || task === null || Array.isArray(task)) throw invalidParams('Invalid params: "task" must be an object');
  const ttl = (task as { ttl?: unknown }).ttl;
  if (ttl === undefined) return undefined;
  if (typeof ttl !== 'number' || !Number.isSafeInteger(ttl) || ttl < 0) {
    throw invalidParams('Invalid params: "task.ttl" must be a non-negative integer');
  }
  return ttl;
}

/** The `inputResponses` of `tasks/update`: an object, else `-32602`. */
export function inputResponsesOf(params: JsonObject | undefined): Readonly<Record<string, unknown>> {
  const responses = params?.inputResponses;
  if (typeof responses !== 'object' || responses === null || Array.isArray(responses)) {
    throw invalidParams('Invalid params: "inputResponses" must be an object');
  }
  return responses as Record<string, unknown>;
}

/** The `-32021` of a request that needs the tasks extension but did not declare it. */
export function extensionRequired(what: string): RpcError {
  return new RpcError(ErrorCode.MissingRequiredClientCapability, `${what} requires the ${TASKS_EXTENSION} extension`, {
    requiredCapabilities: { extensions: { [TASKS_EXTENSION]: {} } },
  });
}
