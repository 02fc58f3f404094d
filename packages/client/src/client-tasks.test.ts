import { afterEach, describe, expect, test } from 'vitest';
import { ErrorCode, RpcError } from '@wiremcp/protocol';
import { McpServer } from '@wiremcp/server';
import { connected, until } from './client.test-util.js';
import type { McpClient } from './client.js';
import { TASKS_EXTENSION } from './task-shapes.js';

const NO_ARGS = { type: 'object', properties: {} } as const;

/** A server whose tools run as tasks; `release` lets the oldest waiting `job` finish. */
function taskServer() {
  const gates: Array<() => void> = [];
  const server = new McpServer({ name: 'tasks', version: '1.0.0' }, { tasks: { pollIntervalMs: 10 }, onInternalError: () => {} });
  server.registerTool(
    { name: 'job', inputSchema: NO_ARGS, execution: { taskSupport: 'optional' } },
    (_args, ctx) =>
      new Promise((resolve, reject) => {
        ctx.signal.addEventListener('abort', () => reject(ctx.signal.reason), { once: true });
        gates.push(() => resolve({ content: [{ type: 'text', text: ctx.task === undefined ? 'direct' : 'as a task' }] }));
      }),
  );
  server.registerTool({ name: 'ask', inputSchema: NO_ARGS, execution: { taskSupport: 'optional' } }, async (_args, ctx) => {
    const answer = await ctx.elicit({ message: 'name?', requestedSchema: { type: 'object', properties: { name: { type: 'string' } } } });
    return { content: [{ type: 'text', text: `hi ${String(answer.content?.name)}` }] };
  });
  server.registerTool({ name: 'broken', inputSchema: NO_ARGS, execution: { taskSupport: 'required' } }, () => {
    throw new RpcError(ErrorCode.InternalError, 'broken on purpose');
  });
  return { server, gates, release: () => gates.shift()?.() };
}

let cleanup: Array<() => Promise<void>> = [];
afterEach(async () => {
  for (const close of cleanup) await close();
  cleanup = [];
});

async function setup(era: 'legacy' | 'modern'): Promise<ReturnType<typeof taskServer> & { client: McpClient }> {
  const fixture = taskServer();
  const { client } = await connected(fixture.server, {
    era,
    handlers: { elicitation: () => ({ action: 'accept', content: { name: 'Ada' } }) },
  });
  cleanup.push(async () => {
    await client.close();
    await fixture.server.close();
  });
  return { ...fixture, client };
}

describe.each(['legacy', 'modern'] as const)('client tasks (%s)', (era) => {
  test('callTool starts a task; get follows it; result resolves with the tool result', async () => {
    const { client, gates, release } = await setup(era);
    const start = await client.tasks.callTool('job', {}, { ttlMs: 60_000 });
    expect(start.result).toBeUndefined();
    const task = start.task!;
    expect(task).toMatchObject({ status: 'working', pollIntervalMs: 10 });
    expect(typeof task.ttlMs).toBe('number');
    expect(await client.tasks.get(task.taskId)).toMatchObject({ taskId: task.taskId, status: 'working' });
    const result = client.tasks.result(task.taskId);
    await until(() => gates.length === 1);
    release();
    expect((await result).content).toEqual([{ type: 'text', text: 'as a task' }]);
    expect((await client.tasks.get(task.taskId)).status).toBe('completed');
  });

  test('call: start and await in one; a plain callTool of the same tool still runs directly', async () => {
    const { client, gates, release } = await setup(era);
    const viaTask = client.tasks.call('job');
    await until(() => gates.length === 1);
    release();
    expect((await viaTask).content).toEqual([{ type: 'text', text: 'as a task' }]);
    const direct = client.callTool('job');
    await until(() => gates.length === 1);
    release();
    expect((await direct).content).toEqual([{ type: 'text', text: 'direct' }]);
  });

  test('inputs a task needs are answered by the client’s handlers', async () => {
    const { client } = await setup(era);
    expect((await client.tasks.call('ask')).content).toEqual([{ type: 'text', text: 'hi Ada' }]);
  });

  test('cancel ends the task; result then rejects; a failed task rejects with its RpcError', async () => {
    const { client, gates } = await setup(era);
    const { task } = await client.tasks.callTool('job');
    await until(() => gates.length === 1);
    await client.tasks.cancel(task!.taskId);
    expect((await client.tasks.get(task!.taskId)).status).toBe('cancelled');
    await expect(client.tasks.result(task!.taskId)).rejects.toMatchObject(
      era === 'legacy' ? { code: ErrorCode.InvalidRequest } : { code: 'REQUEST_CANCELLED' },
    );
    await expect(client.tasks.call('broken')).rejects.toMatchObject({ code: ErrorCode.InternalError, message: 'broken on purpose' });
    await expect(client.tasks.get('no-such-task')).rejects.toMatchObject({ code: ErrorCode.InvalidParams });
  });
});

describe('era-specific client task methods', () => {
  test('legacy: list pages the session’s tasks; update does not exist', async () => {
    const { client } = await setup('legacy');
    const ids = [];
    for (let i = 0; i < 3; i++) ids.push((await client.tasks.callTool('broken')).task!.taskId);
    const { tasks } = await client.tasks.list();
    expect(tasks.map((task) => task.taskId)).toEqual(ids);
    await expect(client.tasks.update(ids[0]!, {})).rejects.toMatchObject({ code: 'CAPABILITY_NOT_SUPPORTED' });
  });

  test('modern: only the task calls declare the extension; list does not exist', async () => {
    const { client } = await setup('modern');
    expect(client.clientCapabilities).not.toHaveProperty('extensions');
    expect((client.serverCapabilities as Record<string, unknown> | undefined)?.extensions).toEqual({ [TASKS_EXTENSION]: {} });
    await expect(client.tasks.list()).rejects.toMatchObject({ code: 'CAPABILITY_NOT_SUPPORTED' });
  });
});
