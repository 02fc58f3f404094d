/**
 * The inspector's Tasks tab, server side: tool calls started as tasks (2025-11-25 task-augmented calls, the
 * 2026-07-28 tasks extension; the client's `tasks` API speaks whichever the target does), `tasks/list` (2025-11-25
 * only: the extension has none), `tasks/get`, `tasks/result` and `tasks/cancel`. Each task the page started is
 * watched — polled with `tasks/get` at the interval the server suggests — and every change of its status is sent
 * to the page, until it ends; a task whose server stops answering is reported lost, with the reason.
 */
import type { ClientTask, McpClient } from '@wiremcp/client';
import { isTerminal } from '@wiremcp/client';
import { InspectorError, type InspectorEvent } from './inspector-session.js';

/** The most tasks watched at once; more are still started, just not followed. */
const MAX_WATCHED = 50;
/** Polling bounds, in ms: the server's suggestion, clamped. */
const MIN_POLL_MS = 250;
const MAX_POLL_MS = 5000;

/** What the tasks need from the inspector's session. */
export interface TasksHost {
  /** The connected client; throws (409) when the target is gone. */
  client(): McpClient;
  /** Validation errors of a tool call's arguments (the server's schema rules). */
  validate(name: string, args: Record<string, unknown>): Promise<readonly string[]>;
  publish(event: InspectorEvent): void;
}

function taskId(params: Record<string, unknown>): string {
  const id = params.taskId;
  if (typeof id !== 'string' || id.length === 0 || id.length > 512) throw new InspectorError("'taskId' must be a non-empty string");
  return id;
}

/** The Tasks tab's operations and the watching of started tasks. */
export class InspectorTasks {
  readonly #host: TasksHost;
  readonly #watched = new Map<string, AbortController>();

  constructor(host: TasksHost) {
    this.#host = host;
  }

  /** The page's operations. */
  readonly operations = {
    'task-call': (p: Record<string, unknown>): Promise<unknown> => this.#start(p),
    'tasks-list': async (p: Record<string, unknown>): Promise<unknown> =>
      await this.#host.client().tasks.list(typeof p.cursor === 'string' ? p.cursor.slice(0, 1024) : undefined),
    'task-get': async (p: Record<string, unknown>): Promise<unknown> => {
      const task = await this.#host.client().tasks.get(taskId(p));
      this.#publish(task);
      return { task };
    },
    'task-result': async (p: Record<string, unknown>): Promise<unknown> => ({ result: await this.#host.client().tasks.result(taskId(p)) }),
    'task-cancel': async (p: Record<string, unknown>): Promise<unknown> => {
      const id = taskId(p);
      await this.#host.client().tasks.cancel(id);
      // The status after the cancel, at once (the watch would see it at its next poll).
      const task = await this.#host.client().tasks.get(id);
      this.#publish(task);
      return { task };
    },
  };

  /** Stops every watch (the inspector stops, or the connection ended). */
  dispose(): void {
    for (const controller of this.#watched.values()) controller.abort();
    this.#watched.clear();
  }

  #publish(task: ClientTask): void {
    this.#host.publish({ type: 'task', task: task as unknown as Record<string, unknown> });
  }

  async #start(p: Record<string, unknown>): Promise<unknown> {
    const name = p.name;
    if (typeof name !== 'string' || name.length === 0 || name.length > 8192) throw new InspectorError("'name' must be a non-empty string");
    const args = p.arguments ?? {};
    if (typeof args !== 'object' || args === null || Array.isArray(args)) throw new InspectorError("'arguments' must be an object");
    const invalid = await this.#host.validate(name, args as Record<string, unknown>);
    if (invalid.length > 0) return { invalid };
    const start = await this.#host.client().tasks.callTool(name, args as Record<string, unknown>);
    if (start.task === undefined) return { result: start.result };
    this.#publish(start.task);
    this.#watch(start.task);
    return { task: start.task };
  }

  #watch(first: ClientTask): void {
    if (isTerminal(first.status) || this.#watched.size >= MAX_WATCHED || this.#watched.has(first.taskId)) return;
    const controller = new AbortController();
    this.#watched.set(first.taskId, controller);
    void (async () => {
      let last = first;
      try {
        while (!controller.signal.aborted && !isTerminal(last.status)) {
          const wait = Math.min(Math.max(last.pollIntervalMs ?? 1000, MIN_POLL_MS), MAX_POLL_MS);
          await new Promise((resolve) => setTimeout(resolve, wait));
          if (controller.signal.aborted) return;
          const task = await this.#host.client().tasks.get(first.taskId, { signal: controller.signal });
          if (task.status !== last.status || task.statusMessage !== last.statusMessage || task.lastUpdatedAt !== last.lastUpdatedAt)
            this.#publish(task);
          last = task;
        }
      } catch (error) {
        if (!controller.signal.aborted)
          this.#host.publish({
            type: 'task-lost',
            taskId: first.taskId,
            reason: error instanceof Error ? error.message.slice(0, 500) : String(error),
          });
      } finally {
        this.#watched.delete(first.taskId);
      }
    })();
  }
}
