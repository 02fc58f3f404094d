import { ErrorCode, RpcError } from '@wiremcp/protocol';
import { McpServer } from './mcp-server.js';
import { MemoryTaskStore } from './memory-task-store.js';
import { TERMINAL_STATUSES, type TaskRecord, type TaskStatus } from './task-store.js';
import type { TaskOptions } from './task-manager.js';

const NO_ARGS = { type: 'object', properties: {} } as const;

/** A server with one tool per task behaviour, and the store behind it (to wait for statuses without sleeping). */
export function taskServer(options: Omit<TaskOptions, 'store'> = {}, storeOptions: { maxTasks?: number } = {}) {
  const store = new MemoryTaskStore(storeOptions);
  const gates: Array<(value: string) => void> = [];
  /** Reasons the `wait` calls were aborted with, in order. */
  const aborts: unknown[] = [];
  const server = new McpServer({ name: 'tasks', version: '1.0.0' }, { tasks: { ...options, store }, onInternalError: () => {} });
  server.registerTool({ name: 'plain', inputSchema: NO_ARGS }, () => ({ content: [{ type: 'text', text: 'plain' }] }));
  server.registerTool(
    { name: 'wait', inputSchema: NO_ARGS, execution: { taskSupport: 'optional' } },
    (_args, ctx) =>
      new Promise((resolve, reject) => {
        ctx.signal.addEventListener(
          'abort',
          () => {
            aborts.push(ctx.signal.reason);
            reject(ctx.signal.reason);
          },
          { once: true },
        );
        gates.push((value) => resolve({ content: [{ type: 'text', text: `${value} in ${ctx.task?.taskId ?? 'no task'}` }] }));
      }),
  );
  server.registerTool({ name: 'must', inputSchema: NO_ARGS, execution: { taskSupport: 'required' } }, () => ({
    content: [{ type: 'text', text: 'done' }],
  }));
  server.registerTool({ name: 'broken', inputSchema: NO_ARGS, execution: { taskSupport: 'optional' } }, () => {
    throw new RpcError(ErrorCode.InternalError, 'broken on purpose');
  });
  server.registerTool({ name: 'faulty', inputSchema: NO_ARGS, execution: { taskSupport: 'optional' } }, () => {
    throw new Error('tool failed');
  });
  server.registerTool({ name: 'ask', inputSchema: NO_ARGS, execution: { taskSupport: 'optional' } }, async (_args, ctx) => {
    const schema = { type: 'object' as const, properties: { v: { type: 'string' as const } } };
    const [a, b] = await Promise.all([
      ctx.elicit({ message: 'a?', requestedSchema: schema }, { key: 'a' }),
      ctx.elicit({ message: 'b?', requestedSchema: schema }, { key: 'b' }),
    ]);
    return { content: [{ type: 'text', text: `${String(a.content?.v)}+${String(b.content?.v)}` }] };
  });
  server.registerTool(
    {
      name: 'prep',
      inputSchema: NO_ARGS,
      execution: {
        taskSupport: 'required',
        beforeTask: async (_args, ctx) =>
          (await ctx.elicit({ message: 'who?', requestedSchema: { type: 'object', properties: {} } }, { key: 'who' })).content,
      },
    },
    (_args, ctx) => ({ content: [{ type: 'text', text: JSON.stringify(ctx.task?.prepared) }] }),
  );
  /** Releases the oldest waiting `wait` call with `value`. */
  const release = (value: string) => gates.shift()?.(value);
  /** Resolves once the task has `status` (or any terminal one, by default). */
  const reach = (taskId: string, status?: TaskStatus): Promise<TaskRecord> =>
    new Promise((resolve) => {
      const done = (next: TaskRecord | undefined) => {
        if (next !== undefined && (status === undefined ? TERMINAL_STATUSES.has(next.status) : next.status === status)) {
          stop();
          resolve(next);
        }
      };
      const stop = store.watch(taskId, done);
      void store.get(taskId).then(done);
    });
  /** Resolves once `check` holds, looking again after each turn of the event loop (no clock involved). */
  const until = async (check: () => boolean) => {
    while (!check()) await new Promise((resolve) => setImmediate(resolve));
  };
  /** Resolves once `count` `wait` calls are waiting. */
  const waiting = (count: number) => until(() => gates.length >= count);
  return { server, store, release, reach, waiting, until, aborts };
}
