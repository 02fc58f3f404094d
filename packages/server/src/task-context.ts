/**
 * The context a handler gets when it runs as a task. The creating request is answered already, so the task has
 * its own lifetime: `signal` aborts on `tasks/cancel` or TTL expiry, not with the request. Inputs differ by era:
 * a 2025-11-25 task sends the server→client request on its session (tagged with the related-task `_meta`, the task
 * `input_required` meanwhile); a 2026-07-28 task has no channel to the client, so the input becomes an entry of
 * the task's `inputRequests`, answered by `tasks/update`.
 */
import {
  MetaKey,
  shouldLog,
  type InputParamsOf,
  type InputRequestMethod,
  type InputResultOf,
  type JsonObject,
  type LogLevel,
} from '@wiremcp/protocol';
import { ContextBase } from './context-base.js';
import { inputRefusal, type HandlerContext, type InputOptions, type RequestScope, type TaskInfo } from './handler-context.js';
import type { ServerRequestContext } from './server-peer.js';
import type { TaskRun } from './task-manager.js';

/** See the module comment. */
export class TaskHandlerContext extends ContextBase implements HandlerContext {
  readonly task: TaskInfo;
  readonly #run: TaskRun;
  #index = 0;

  constructor(rpc: ServerRequestContext, scope: RequestScope, run: TaskRun, prepared: unknown) {
    super(rpc, scope);
    this.#run = run;
    this.task = { taskId: run.taskId, prepared };
  }

  /** A task's lifetime is its own: `tasks/cancel` or TTL expiry abort it, not the creating request. */
  override get signal(): AbortSignal {
    return this.#run.signal;
  }

  /** Legacy: progress on the creating request's token (valid for the task's lifetime). 2026-07-28: no channel. */
  sendProgress(progress: number, total?: number, message?: string): Promise<void> {
    if (this.scope.era === 'modern' || this.signal.aborted) return Promise.resolve();
    return this.rpc.sendProgress(progress, total, message);
  }

  /** Legacy: a `notifications/message` on the session, related to the task. 2026-07-28: no channel. */
  log(level: LogLevel, data: unknown, logger?: string): Promise<void> {
    const minimum = this.scope.logLevel;
    if (this.scope.era === 'modern' || this.signal.aborted || minimum === undefined || !shouldLog(level, minimum)) return Promise.resolve();
    const params = logger === undefined ? { level, data } : { level, logger, data };
    return this.rpc
      .notify('notifications/message', { ...params, _meta: { [MetaKey.relatedTask]: { taskId: this.task.taskId } } })
      .catch(() => {});
  }

  protected async ask<M extends InputRequestMethod>(
    kind: string,
    method: M,
    params: InputParamsOf<M>,
    path: readonly string[],
    options: InputOptions | undefined,
  ): Promise<InputResultOf<M>> {
    const refused = inputRefusal(method, params, path, this.scope);
    if (refused !== undefined) throw refused;
    if (this.scope.era === 'modern') {
      const key = options?.key ?? `${kind}-${this.#index++}`;
      return (await this.#run.ask(key, method, params as JsonObject)) as InputResultOf<M>;
    }
    const tagged = { ...params, _meta: { ...(params as { _meta?: object })._meta, [MetaKey.relatedTask]: { taskId: this.task.taskId } } };
    await this.#run.setStatus('input_required');
    try {
      return (await this.rpc.request(method, tagged as never, { signal: this.signal })) as InputResultOf<M>;
    } finally {
      await this.#run.setStatus('working');
    }
  }
}
