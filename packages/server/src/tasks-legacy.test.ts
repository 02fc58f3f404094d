import { afterEach, describe, expect, test } from 'vitest';
import { ErrorCode, MetaKey, type JsonObject } from '@wiremcp/protocol';
import { rawClient, text } from './server.test-util.js';
import { taskServer } from './tasks.test-util.js';

let cleanup: Array<() => Promise<void>> = [];
afterEach(async () => {
  for (const close of cleanup) await close();
  cleanup = [];
});

async function setup(version = '2025-11-25', ...args: Parameters<typeof taskServer>) {
  const fixture = taskServer(...args);
  const client = await rawClient(fixture.server);
  cleanup.push(() => fixture.server.close());
  const init = await client.initialize(version, { elicitation: {} });
  const call = (method: string, params?: JsonObject) => client.request(method, params as never) as Promise<JsonObject>;
  return { ...fixture, client, init, call };
}

describe('tasks (2025-11-25)', () => {
  test('the tasks capability is declared in 2025-11-25 only; tools/list shows execution.taskSupport', async () => {
    const { init, call } = await setup();
    expect(init.capabilities).toMatchObject({ tasks: { list: {}, cancel: {}, requests: { tools: { call: {} } } } });
    const { tools } = (await call('tools/list')) as { tools: Array<{ name: string; execution?: unknown }> };
    expect(tools.find((t) => t.name === 'wait')?.execution).toEqual({ taskSupport: 'optional' });
    expect(tools.find((t) => t.name === 'plain')?.execution).toBeUndefined();
    expect(tools.find((t) => t.name === 'prep')?.execution).toEqual({ taskSupport: 'required' });
    const older = await setup('2025-06-18');
    expect(older.init.capabilities).not.toHaveProperty('tasks');
  });

  test('a task-augmented call returns {task}; tasks/result waits for the outcome; status notifications follow it', async () => {
    const { call, client, release, waiting } = await setup();
    const created = await call('tools/call', { name: 'wait', task: { ttl: 60_000 } });
    const task = created.task as JsonObject;
    expect(task).toMatchObject({ status: 'working', ttl: 60_000, pollInterval: 1000 });
    expect(task).not.toHaveProperty('ttlMs');
    const taskId = task.taskId as string;
    expect(await call('tasks/get', { taskId })).toMatchObject({ taskId, status: 'working' });
    const result = call('tasks/result', { taskId });
    await waiting(1);
    release('ok');
    const outcome = await result;
    expect(text(outcome)).toBe(`ok in ${taskId}`);
    expect((outcome._meta as JsonObject)[MetaKey.relatedTask]).toEqual({ taskId });
    await client.notified(1, 'notifications/tasks/status');
    expect(client.notifications.find((n) => n.method === 'notifications/tasks/status')?.params).toMatchObject({
      taskId,
      status: 'completed',
    });
  });

  test('taskSupport is enforced: forbidden + task and required without task are -32601; a plain call of an optional tool runs', async () => {
    const { call, release, waiting } = await setup();
    await expect(call('tools/call', { name: 'plain', task: {} })).rejects.toMatchObject({ code: ErrorCode.MethodNotFound });
    await expect(call('tools/call', { name: 'must' })).rejects.toMatchObject({ code: ErrorCode.MethodNotFound });
    const direct = call('tools/call', { name: 'wait' });
    await waiting(1);
    release('direct');
    expect(text(await direct)).toBe('direct in no task');
  });

  test('a requested TTL is clamped to maxTtlMs; a malformed task param is -32602', async () => {
    const { call } = await setup('2025-11-25', { maxTtlMs: 10_000 });
    expect((await call('tools/call', { name: 'must', task: { ttl: 999_999 } })).task).toMatchObject({ ttl: 10_000 });
    for (const task of [null, 'x', [], { ttl: -1 }, { ttl: 1.5 }, { ttl: '5' }]) {
      await expect(call('tools/call', { name: 'must', task } as JsonObject)).rejects.toMatchObject({ code: ErrorCode.InvalidParams });
    }
  });

  test('failed and cancelled tasks: tasks/result answers the error; cancelling a terminal task is -32602', async () => {
    const { call, waiting, reach } = await setup();
    const broken = ((await call('tools/call', { name: 'broken', task: {} })).task as JsonObject).taskId as string;
    await expect(call('tasks/result', { taskId: broken })).rejects.toMatchObject({
      code: ErrorCode.InternalError,
      message: 'broken on purpose',
    });
    const waitingId = ((await call('tools/call', { name: 'wait', task: {} })).task as JsonObject).taskId as string;
    await waiting(1);
    expect(await call('tasks/cancel', { taskId: waitingId })).toMatchObject({ taskId: waitingId, status: 'cancelled' });
    await reach(waitingId);
    await expect(call('tasks/result', { taskId: waitingId })).rejects.toMatchObject({ code: ErrorCode.InvalidRequest });
    await expect(call('tasks/cancel', { taskId: waitingId })).rejects.toMatchObject({ code: ErrorCode.InvalidParams });
    await expect(call('tasks/cancel', { taskId: broken })).rejects.toMatchObject({ code: ErrorCode.InvalidParams });
  });

  test('tasks/list pages the session’s own tasks; other sessions cannot see or read them', async () => {
    const { call, server } = await setup('2025-11-25', { pageSize: 2 });
    const ids: string[] = [];
    for (let i = 0; i < 5; i++) ids.push(((await call('tools/call', { name: 'must', task: {} })).task as JsonObject).taskId as string);
    const seen: string[] = [];
    let cursor: string | undefined;
    let pages = 0;
    do {
      const page = (await call('tasks/list', cursor === undefined ? {} : { cursor })) as {
        tasks: Array<{ taskId: string }>;
        nextCursor?: string;
      };
      expect(page.tasks.length).toBeLessThanOrEqual(2);
      seen.push(...page.tasks.map((t) => t.taskId));
      cursor = page.nextCursor;
      pages += 1;
    } while (cursor !== undefined && pages < 10);
    expect(seen).toEqual(ids);
    await expect(call('tasks/list', { cursor: 'bogus' })).rejects.toMatchObject({ code: ErrorCode.InvalidParams });
    await expect(call('tasks/list', { cursor: 7 } as JsonObject)).rejects.toMatchObject({ code: ErrorCode.InvalidParams });
    const other = await rawClient(server);
    await other.initialize('2025-11-25');
    expect(await other.request('tasks/list', {} as never)).toEqual({ tasks: [] });
    await expect(other.request('tasks/get', { taskId: ids[0] } as never)).rejects.toMatchObject({ code: ErrorCode.InvalidParams });
  });

  test('hostile params and missing methods: bad taskId is -32602, tasks/update and pre-2025-11-25 tasks/* are -32601', async () => {
    const { call } = await setup();
    for (const params of [{}, { taskId: 1 }, { taskId: '' }, { taskId: 'z'.repeat(5000) }, { taskId: 'unknown' }]) {
      await expect(call('tasks/get', params as JsonObject)).rejects.toMatchObject({ code: ErrorCode.InvalidParams });
      await expect(call('tasks/result', params as JsonObject)).rejects.toMatchObject({ code: ErrorCode.InvalidParams });
    }
    await expect(call('tasks/update', { taskId: 'x', inputResponses: {} })).rejects.toMatchObject({ code: ErrorCode.MethodNotFound });
    const older = await setup('2025-06-18');
    await expect(older.call('tasks/list', {})).rejects.toMatchObject({ code: ErrorCode.MethodNotFound });
    expect(text(await older.call('tools/call', { name: 'must', task: {} }))).toBe('done');
  });
});
