/**
 * The client side of tasks, both eras (`McpClient.tasks`). A tool call can be started as a task and then be
 * polled, answered, cancelled or awaited:
 * - 2025-11-25: `params.task` asks the server for a task (it must declare `tasks.requests.tools.call`);
 *   `tasks/get`, `tasks/result` (the server waits for the outcome), `tasks/list`, `tasks/cancel`.
 * - 2026-07-28 (`io.modelcontextprotocol/tasks`): the call declares the extension and the server decides; the
 *   outcome is polled with `tasks/get`, whose `inputRequests` the client's input handlers answer with
 *   `tasks/update`; `tasks/cancel`. There is no `tasks/list` or `tasks/result` in this era.
 */
import { hasCapability, LocalError, RpcError, type JsonObject } from '@wiremcp/protocol';
import { runInputRequest } from './input-handlers.js';
import { delay } from './mrtr.js';
import type { CallOptions } from './options.js';
import type { Session } from './session.js';
import { isTerminal, readTask, type ClientTask } from './task-shapes.js';
import type { CallToolResult, InputResponse, ResultBase } from './types.js';

/** Options of `tasks.callTool`. */
export interface TaskCallOptions extends CallOptions {
  /** 2025-11-25: the retention asked for, in ms (the server may choose another). Ignored in 2026-07-28. */
  ttlMs?: number;
}

/** How a tool call started: as a task, or — when the server chose to answer at once — with its result. */
export type ToolTaskStart =
  { readonly task: ClientTask; readonly result?: undefined } | { readonly task?: undefined; readonly result: CallToolResult };

/** Options of `tasks.result`. */
export interface TaskResultOptions extends CallOptions {
  /** 2026-07-28: poll at least this often, in ms (default: the task's `pollIntervalMs`, else 1000; 10 to 60000). */
  pollIntervalMs?: number;
}

/** Runs a request on the current session (the client's `#call`). */
export type SessionCall = <T>(method: string, run: (session: Session) => Promise<T>) => Promise<T>;

const DEFAULT_POLL_MS = 1000;

function clampPoll(ms: number | undefined): number {
  return Math.min(Math.max(ms ?? DEFAULT_POLL_MS, 10), 60_000);
}

/** See the module comment. */
export class ClientTasks {
  readonly #call: SessionCall;

  constructor(call: SessionCall) {
    this.#call = call;
  }

  /** Calls a tool as a task (see the module comment); resolves once the server answered the call. */
  callTool(name: string, args?: Record<string, unknown>, options?: TaskCallOptions): Promise<ToolTaskStart> {
    return this.#call('tools/call', async (s) => {
      const params: JsonObject = args === undefined ? { name } : { name, arguments: args };
      if (s.era === 'legacy') {
        if (!hasCapability(s.serverCapabilities, ['tasks', 'requests', 'tools', 'call'])) {
          throw new LocalError('CAPABILITY_NOT_SUPPORTED', "The server does not declare 'tasks.requests.tools.call'");
        }
        params.task = options?.ttlMs === undefined ? {} : { ttl: options.ttlMs };
      }
      const result = (await s.requestAllowingTask('tools/call', params, options)) as ResultBase & { task?: unknown };
      if (s.era === 'legacy')
        return result.task === undefined ? { result: result as CallToolResult } : { task: readTask(result.task, 'legacy', 'tools/call') };
      return result.resultType === 'task' ? { task: readTask(result, 'modern', 'tools/call') } : { result: result as CallToolResult };
    });
  }

  /**
   * Calls a tool as a task and waits for its outcome (what `callTool` returns, reached through the task): the
   * result the server gave at once, else {@link result} of the task it started.
   */
  async call(name: string, args?: Record<string, unknown>, options?: TaskCallOptions & TaskResultOptions): Promise<CallToolResult> {
    const start = await this.callTool(name, args, options);
    return start.task === undefined ? start.result : this.result(start.task.taskId, options);
  }

  /** The task as it is now (`tasks/get`). */
  get(taskId: string, options?: CallOptions): Promise<ClientTask> {
    return this.#call('tasks/get', (s) => this.#get(s, taskId, options));
  }

  /**
   * The outcome of a task: its result once completed; an `RpcError` when it failed; `REQUEST_CANCELLED` when it
   * was cancelled. Legacy: `tasks/result` (the server answers once the task ended; mind `timeoutMs`). Modern:
   * polls `tasks/get`, answering inputs with the client's handlers.
   */
  result(taskId: string, options?: TaskResultOptions): Promise<CallToolResult> {
    return this.#call('tasks/result', async (s) => {
      if (s.era === 'legacy') return (await s.request('tasks/result', { taskId }, options)) as CallToolResult;
      const answered = new Set<string>();
      for (;;) {
        const task = await this.#get(s, taskId, options);
        if (isTerminal(task.status)) return outcome(task);
        const pending = Object.keys(task.inputRequests ?? {}).filter((key) => !answered.has(key));
        if (task.status === 'input_required' && pending.length > 0) {
          const responses = await answer(s, task, pending, options?.signal);
          for (const key of pending) answered.add(key);
          await s.requestAllowingTask('tasks/update', { taskId, inputResponses: responses as JsonObject }, options);
          continue;
        }
        await delay(clampPoll(options?.pollIntervalMs ?? task.pollIntervalMs), options?.signal ?? s.closed.signal);
      }
    });
  }

  /** One page of the session's tasks (2025-11-25 `tasks/list`; the 2026-07-28 extension has none). */
  list(cursor?: string, options?: CallOptions): Promise<{ tasks: ClientTask[]; nextCursor?: string }> {
    return this.#call('tasks/list', async (s) => {
      if (s.era === 'modern') throw s.wrongEra('tasks/list', 'the tasks extension has no list: keep the ids of the tasks you start');
      const page = (await s.request('tasks/list', cursor === undefined ? {} : { cursor }, options)) as {
        tasks?: unknown;
        nextCursor?: unknown;
      };
      if (!Array.isArray(page.tasks))
        throw new LocalError('INVALID_RESULT', "The result of 'tasks/list' has no tasks array", { details: page });
      const tasks = page.tasks.map((task) => readTask(task, 'legacy', 'tasks/list'));
      return typeof page.nextCursor === 'string' ? { tasks, nextCursor: page.nextCursor } : { tasks };
    });
  }

  /** Asks the server to cancel a task (`tasks/cancel`). A 2025-11-25 server refuses a terminal task (`-32602`). */
  cancel(taskId: string, options?: CallOptions): Promise<void> {
    return this.#call('tasks/cancel', async (s) => {
      await (s.era === 'legacy'
        ? s.request('tasks/cancel', { taskId }, options)
        : s.requestAllowingTask('tasks/cancel', { taskId }, options));
    });
  }

  /** 2026-07-28: answers inputs a task waits for (`tasks/update`); `result` does this with the handlers by itself. */
  update(taskId: string, inputResponses: Record<string, InputResponse>, options?: CallOptions): Promise<void> {
    return this.#call('tasks/update', async (s) => {
      if (s.era === 'legacy') throw s.wrongEra('tasks/update', 'a 2025-11-25 task asks for input with requests of its own');
      await s.requestAllowingTask('tasks/update', { taskId, inputResponses: inputResponses as unknown as JsonObject }, options);
    });
  }

  async #get(s: Session, taskId: string, options: CallOptions | undefined): Promise<ClientTask> {
    const raw =
      s.era === 'legacy'
        ? await s.request('tasks/get', { taskId }, options)
        : await s.requestAllowingTask('tasks/get', { taskId }, options);
    return readTask(raw, s.era, 'tasks/get');
  }
}

/** The outcome of a terminal 2026-07-28 task. */
function outcome(task: ClientTask): CallToolResult {
  if (task.status === 'completed') {
    if (task.result === undefined) throw new LocalError('INVALID_RESULT', 'A completed task carries no result', { details: task });
    return task.result as CallToolResult;
  }
  if (task.status === 'failed') {
    const error = task.error ?? { code: -32603, message: task.statusMessage ?? 'The task failed' };
    throw new RpcError(error.code, error.message, error.data);
  }
  throw new LocalError('REQUEST_CANCELLED', `Task ${task.taskId} was cancelled`, { details: task });
}

/** Answers the pending inputs of a task with the client's handlers, in parallel. */
async function answer(
  s: Session,
  task: ClientTask,
  keys: readonly string[],
  signal: AbortSignal | undefined,
): Promise<Record<string, InputResponse>> {
  const origin = { method: 'tasks/get', params: { taskId: task.taskId } };
  const values = await Promise.all(
    keys.map((key) =>
      runInputRequest(s.inputHandlers, task.inputRequests![key]!, {
        signal: signal ?? s.closed.signal,
        era: 'modern',
        protocolVersion: s.protocolVersion,
        inputKey: key,
        origin,
      }),
    ),
  );
  const responses: Record<string, InputResponse> = {};
  keys.forEach((key, index) => (responses[key] = values[index]!));
  return responses;
}
