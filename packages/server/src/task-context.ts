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
  type InputRequestMethod,
  type JsonObject,
  type LogLevel,
  type ProtocolVersion,
  type RequestId,
} from '@wiremcp/protocol';
import type { MessageInfo } from '@wiremcp/jsonrpc';
import { inputRefusal, type HandlerContext, type InputOptions, type RequestScope, type TaskInfo } from './handler-context.js';
import type { ServerRequestContext } from './server-peer.js';
import type { TaskRun } from './task-manager.js';
import type { CreateMessageParams, CreateMessageResult, ElicitParams, ElicitResult, Implementation, ListRootsResult } from './types.js';

/** See the module comment. */
export class TaskHandlerContext implements HandlerContext {
  readonly scope: RequestScope;
  readonly task: TaskInfo;
  readonly #rpc: ServerRequestContext;
  readonly #run: TaskRun;
  #index = 0;

  constructor(rpc: ServerRequestContext, scope: RequestScope, run: TaskRun, prepared: unknown) {
    this.#rpc = rpc;
    this.scope = scope;
    this.#run = run;
    this.task = { taskId: run.taskId, prepared };
  }

  get requestId(): RequestId {
    return this.#rpc.id;
  }
  get era(): 'legacy' | 'modern' {
    return this.scope.era;
  }
  get protocolVersion(): ProtocolVersion {
    return this.scope.protocolVersion;
  }
  get clientCapabilities(): RequestScope['clientCapabilities'] {
    return this.scope.clientCapabilities;
  }
  get clientInfo(): Implementation | undefined {
    return this.scope.clientInfo;
  }
  get signal(): AbortSignal {
    return this.#run.signal;
  }
  get meta(): Record<string, unknown> | undefined {
    return this.#rpc.meta;
  }
  get transportInfo(): MessageInfo | undefined {
    return this.#rpc.info;
  }

  /** Legacy: progress on the creating request's token (valid for the task's lifetime). 2026-07-28: no channel. */
  sendProgress(progress: number, total?: number, message?: string): Promise<void> {
    if (this.scope.era === 'modern' || this.signal.aborted) return Promise.resolve();
    return this.#rpc.sendProgress(progress, total, message);
  }

  /** Legacy: a `notifications/message` on the session, related to the task. 2026-07-28: no channel. */
  log(level: LogLevel, data: unknown, logger?: string): Promise<void> {
    const minimum = this.scope.logLevel;
    if (this.scope.era === 'modern' || this.signal.aborted || minimum === undefined || !shouldLog(level, minimum)) return Promise.resolve();
    const params = logger === undefined ? { level, data } : { level, logger, data };
    return this.#rpc
      .notify('notifications/message', { ...params, _meta: { [MetaKey.relatedTask]: { taskId: this.task.taskId } } })
      .catch(() => {});
  }

  elicit(params: ElicitParams, options?: InputOptions): Promise<ElicitResult> {
    const path = params.mode === 'url' ? ['elicitation', 'url'] : ['elicitation'];
    return this.#ask('elicit', 'elicitation/create', params, path, options) as Promise<ElicitResult>;
  }

  sample(params: CreateMessageParams, options?: InputOptions): Promise<CreateMessageResult> {
    const path = params.tools !== undefined ? ['sampling', 'tools'] : ['sampling'];
    return this.#ask('sample', 'sampling/createMessage', params, path, options) as Promise<CreateMessageResult>;
  }

  listRoots(options?: InputOptions): Promise<ListRootsResult> {
    return this.#ask('roots', 'roots/list', {}, ['roots'], options) as Promise<ListRootsResult>;
  }

  async #ask(
    kind: string,
    method: InputRequestMethod,
    params: object,
    path: readonly string[],
    options: InputOptions | undefined,
  ): Promise<unknown> {
    const refused = inputRefusal(method, params, path, this.scope);
    if (refused !== undefined) throw refused;
    if (this.scope.era === 'modern') {
      const key = options?.key ?? `${kind}-${this.#index++}`;
      return this.#run.ask(key, method, params as JsonObject);
    }
    const tagged = { ...params, _meta: { ...(params as { _meta?: object })._meta, [MetaKey.relatedTask]: { taskId: this.task.taskId } } };
    await this.#run.setStatus('input_required');
    try {
      return await this.#rpc.request(method, tagged as never, { signal: this.signal });
    } finally {
      await this.#run.setStatus('working');
    }
  }
}
