/**
 * Tasks on the wire: the `tasks/*` methods of both eras and the task path of `tools/call`.
 *
 * - 2025-11-25: the client asks for a task (`params.task`) on a tool whose `execution.taskSupport` allows it;
 *   `tasks/get`, `tasks/result` (waits for the outcome), `tasks/list` (the session's own tasks, paged) and
 *   `tasks/cancel` (`-32602` on a terminal task); `notifications/tasks/status` on each status change.
 * - 2026-07-28 (`io.modelcontextprotocol/tasks`): the server decides — a task-capable tool called by a request that
 *   declares the extension gets a task; `tasks/get` (inlines the outcome or pending inputs), `tasks/update`
 *   (answers inputs), `tasks/cancel` (idempotent empty ack); without the extension `tasks/*` are `-32021`, and a
 *   tool that requires a task is `-32021` too.
 */
import {
  ErrorCode,
  hasCapability,
  invalidParams,
  MetaKey,
  methodNotFound,
  RpcError,
  targetOfName,
  type JsonObject,
  type RequestTarget,
} from '@wiremcp/protocol';
import type { MessageInfo } from '@wiremcp/jsonrpc';
import { RequestHandlerContext, type RequestScope } from './handler-context.js';
import type { InputRound } from './input-round.js';
import { TaskCursorError, type TaskRecord } from './task-store.js';
import { TaskHandlerContext } from './task-context.js';
import { TaskManager, type TaskOptions } from './task-manager.js';
import type { Outcome, ServerRequestContext, WireParams } from './server-peer.js';
import type { ToolRegistry } from './tool-registry.js';
import {
  extensionRequired,
  inputResponsesOf,
  legacyTask,
  modernTask,
  requestedTtl,
  taskIdOf,
  TASKS_EXTENSION,
  unknownTask,
} from './task-wire.js';

/** The `tasks/*` methods a 2026-07-28 request may call (with the extension). */
export const MODERN_TASK_METHODS: ReadonlySet<string> = new Set(['tasks/get', 'tasks/update', 'tasks/cancel']);
/** The `tasks/*` methods of 2025-11-25. */
export const LEGACY_TASK_METHODS: ReadonlySet<string> = new Set(['tasks/get', 'tasks/result', 'tasks/list', 'tasks/cancel']);

/** The first revision with tasks. */
const TASKS_REVISION = '2025-11-25';

/** See the module comment; one per server. */
export class TaskService {
  readonly manager: TaskManager;
  readonly #tools: ToolRegistry;
  /** A key per legacy session the transport does not name, owning the tasks it creates. */
  readonly #owners = new WeakMap<object, string>();

  constructor(options: TaskOptions, tools: ToolRegistry, report: (error: unknown) => void) {
    this.manager = new TaskManager(options, report);
    this.#tools = tools;
  }

  /**
   * The task path of `tools/call`, or `undefined` when the call runs as usual (no task asked for or decided, or a
   * call the usual path refuses anyway). `session` is the legacy session the request came on.
   */
  callTool(
    params: WireParams,
    rpc: ServerRequestContext,
    scope: RequestScope,
    round: InputRound | undefined,
    session: object | undefined,
  ): Outcome<JsonObject> | undefined {
    const name = params?.name;
    const args = params?.arguments ?? {};
    if (typeof name !== 'string' || typeof args !== 'object' || args === null || Array.isArray(args)) return undefined;
    const execution = this.#tools.execution(name);
    if (execution === undefined) return undefined;
    const support = execution.taskSupport ?? 'forbidden';
    let requestedTtlMs: number | undefined;
    if (scope.era === 'legacy') {
      if (scope.protocolVersion < TASKS_REVISION) return undefined;
      if (params?.task === undefined) {
        if (support === 'required') throw methodNotFound('tools/call', { reason: `tool '${name}' must be called as a task` });
        return undefined;
      }
      requestedTtlMs = requestedTtl(params.task);
      if (support === 'forbidden') throw methodNotFound('tools/call', { reason: `tool '${name}' does not support task-augmented calls` });
    } else {
      if (support === 'forbidden') return undefined;
      if (!hasCapability(scope.clientCapabilities, ['extensions', TASKS_EXTENSION])) {
        if (support === 'required') throw extensionRequired(`Tool '${name}'`);
        return undefined;
      }
    }
    return this.#start(params!, rpc, scope, round, session, requestedTtlMs, execution.beforeTask);
  }

  async #start(
    params: JsonObject,
    rpc: ServerRequestContext,
    scope: RequestScope,
    round: InputRound | undefined,
    session: object | undefined,
    requestedTtlMs: number | undefined,
    beforeTask: ((args: Record<string, unknown>, context: RequestHandlerContext) => unknown) | undefined,
  ): Promise<JsonObject> {
    const prepared =
      beforeTask === undefined
        ? undefined
        : await beforeTask(params.arguments as Record<string, unknown>, new RequestHandlerContext(rpc, scope, round));
    const owner = this.#owner(session, rpc.info);
    const name = params.name as string;
    const record = await this.manager.create({ era: scope.era, owner, method: 'tools/call', name, requestedTtlMs });
    if (rpc.signal.aborted) {
      // The request was cancelled (2026-07-28: its stream closed) before the task's handle could reach the client:
      // no one can follow the task, so it ends cancelled without running.
      await this.manager.cancel(record);
      throw rpc.signal.reason;
    }
    let lastStatus = record.status;
    const onChange =
      scope.era === 'legacy'
        ? (next: TaskRecord) => {
            if (next.status === lastStatus) return;
            lastStatus = next.status;
            rpc.notify('notifications/tasks/status', legacyTask(next) as never).catch(() => {});
          }
        : undefined;
    this.manager.run(
      record,
      async (run) => {
        const outcome = await this.#tools.call(params, new TaskHandlerContext(rpc, scope, run, prepared));
        return outcome as unknown as JsonObject;
      },
      onChange,
    );
    return scope.era === 'legacy' ? { task: legacyTask(record) } : { resultType: 'task', ...modernTask(record, false) };
  }

  /** Serves a `tasks/*` request of either era. */
  async serve(
    method: string,
    params: WireParams,
    scope: RequestScope,
    session: object | undefined,
    rpc: Pick<ServerRequestContext, 'info' | 'signal'>,
  ): Promise<JsonObject> {
    if (scope.era === 'modern') {
      if (!MODERN_TASK_METHODS.has(method)) throw methodNotFound(method);
      if (!hasCapability(scope.clientCapabilities, ['extensions', TASKS_EXTENSION])) throw extensionRequired(`'${method}'`);
      return this.#serveModern(method, params);
    }
    if (!LEGACY_TASK_METHODS.has(method) || scope.protocolVersion < TASKS_REVISION) throw methodNotFound(method);
    return this.#serveLegacy(method, params, this.#owner(session, rpc.info), rpc.signal);
  }

  async #serveModern(method: string, params: WireParams): Promise<JsonObject> {
    const record = await this.manager.get(taskIdOf(params), 'modern', undefined);
    if (method === 'tasks/update') {
      const responses = inputResponsesOf(params);
      if (record === undefined) throw unknownTask();
      await this.manager.answer(record, responses);
      return {};
    }
    if (record === undefined) throw unknownTask();
    if (method === 'tasks/cancel') {
      await this.manager.cancel(record);
      return {};
    }
    return modernTask(record, true);
  }

  async #serveLegacy(method: string, params: WireParams, owner: string | undefined, signal: AbortSignal): Promise<JsonObject> {
    if (method === 'tasks/list') {
      const cursor = params?.cursor;
      if (cursor !== undefined && typeof cursor !== 'string') throw invalidParams('Invalid params: "cursor" must be a string');
      try {
        const page = await this.manager.list(owner, cursor);
        const tasks = page.tasks.filter((task) => task.era === 'legacy').map(legacyTask);
        return page.nextCursor === undefined ? { tasks } : { tasks, nextCursor: page.nextCursor };
      } catch (error) {
        if (error instanceof TaskCursorError) throw invalidParams('Invalid params: unknown cursor');
        throw error;
      }
    }
    const record = await this.manager.get(taskIdOf(params), 'legacy', owner);
    if (record === undefined) throw unknownTask();
    if (method === 'tasks/get') return legacyTask(record);
    if (method === 'tasks/cancel') {
      if (record.status === 'completed' || record.status === 'failed' || record.status === 'cancelled') {
        throw invalidParams(`Cannot cancel task: already ${record.status}`);
      }
      return legacyTask(await this.manager.cancel(record));
    }
    const done = await this.manager.terminal(record, signal);
    if (done === undefined) throw unknownTask();
    const related = { [MetaKey.relatedTask]: { taskId: done.taskId } };
    if (done.status === 'failed') {
      const error = done.error ?? { code: ErrorCode.InternalError, message: 'Task failed' };
      throw new RpcError(error.code, error.message, error.data);
    }
    if (done.status === 'cancelled') throw new RpcError(ErrorCode.InvalidRequest, 'Task was cancelled', { _meta: related });
    const result = done.result ?? {};
    return { ...result, _meta: { ...(result._meta as JsonObject | undefined), ...related } };
  }

  /**
   * The operation that created a task, when the caller `info` describes may see it in `era` (a legacy session's
   * tasks are its own; a 2026-07-28 task is anyone's who has its id): its follow-ups are authorized against it too.
   * Only sessions the transport names (`info.sessionId`) are looked up: that is every session such a transport has.
   */
  async origin(taskId: string, era: 'legacy' | 'modern', info: MessageInfo | undefined): Promise<TaskOrigin | undefined> {
    const id = info?.sessionId;
    if (era === 'legacy' && (typeof id !== 'string' || id.length === 0)) return undefined;
    const record = await this.manager.get(taskId, era, era === 'legacy' ? sessionOwner(id!, info?.principalKey) : undefined);
    if (record === undefined) return undefined;
    const named = record.name === undefined ? undefined : targetOfName(record.method, record.name);
    return { method: record.method, targets: named === undefined ? [] : [named] };
  }

  /**
   * The owner of a legacy session's tasks. A session the transport names (`info.sessionId`: an HTTP session, which
   * other processes behind a load balancer may serve too) owns them by that id, together with the principal it is
   * bound to when requests are authenticated, so every process serving the session sees them and no other session
   * or principal does; a session without an id (stdio) owns them by a key of its own.
   */
  #owner(session: object | undefined, info: MessageInfo | undefined): string | undefined {
    if (session === undefined) return undefined;
    const id = info?.sessionId;
    if (typeof id === 'string' && id.length > 0) return sessionOwner(id, info?.principalKey);
    let owner = this.#owners.get(session);
    if (owner === undefined) this.#owners.set(session, (owner = crypto.randomUUID()));
    return owner;
  }
}

/** The owner key of the tasks of the session named `id` (bound to `principalKey` when requests are authenticated). */
function sessionOwner(id: string, principalKey: unknown): string {
  return typeof principalKey === 'string' ? `session:${id}:principal:${principalKey}` : `session:${id}`;
}

/** What created a task: the method, and what it named (`requestTargets` of `@wiremcp/protocol`). */
export interface TaskOrigin {
  readonly method: string;
  readonly targets: readonly RequestTarget[];
}
