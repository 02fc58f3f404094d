import { afterEach, describe, expect, test, vi } from 'vitest';
import { ErrorCode, MetaKey, type JsonObject } from '@wiremcp/protocol';
import { rawClient, text, type RawClient } from './server.test-util.js';
import { TASKS_EXTENSION } from './task-wire.js';
import { taskServer } from './tasks.test-util.js';

const WITH_TASKS = { [MetaKey.clientCapabilities]: { elicitation: {}, extensions: { [TASKS_EXTENSION]: {} } } };

/** A 2026-07-28 request that declares the tasks extension. */
function modern(client: RawClient, method: string, params: JsonObject = {}): Promise<JsonObject> {
  return client.modern(method, params, WITH_TASKS) as Promise<JsonObject>;
}

let cleanup: Array<() => Promise<void>> = [];
afterEach(async () => {
  vi.useRealTimers();
  for (const close of cleanup) await close();
  cleanup = [];
});

async function setup(...args: Parameters<typeof taskServer>) {
  const fixture = taskServer(...args);
  const client = await rawClient(fixture.server);
  cleanup.push(() => fixture.server.close());
  return { ...fixture, client };
}

describe('tasks extension (2026-07-28)', () => {
  test('discover advertises the extension, not the 2025-11-25 tasks capability', async () => {
    const { client } = await setup();
    const { capabilities } = (await client.modern('server/discover')) as unknown as { capabilities: Record<string, unknown> };
    expect(capabilities.extensions).toEqual({ [TASKS_EXTENSION]: {} });
    expect(capabilities.tasks).toBeUndefined();
  });

  test('a task-capable tool becomes a task; tasks/get follows it to completed with the result inlined', async () => {
    const { client, release, reach, waiting } = await setup();
    const created = await modern(client, 'tools/call', { name: 'wait' });
    expect(created).toMatchObject({ resultType: 'task', status: 'working', ttlMs: 3_600_000, pollIntervalMs: 1000 });
    expect(created).not.toHaveProperty('task');
    expect(created).not.toHaveProperty('result');
    const taskId = created.taskId as string;
    expect(await modern(client, 'tasks/get', { taskId })).toMatchObject({ resultType: 'complete', taskId, status: 'working' });
    await waiting(1);
    release('released');
    await reach(taskId);
    const done = await modern(client, 'tasks/get', { taskId });
    expect(done).toMatchObject({ status: 'completed' });
    expect(text(done.result as object)).toBe(`released in ${taskId}`);
    expect(done).not.toHaveProperty('error');
  });

  test('without the extension: tasks/* are -32021, optional tools run synchronously, required tools are -32021', async () => {
    const { client, release, waiting } = await setup();
    for (const method of ['tasks/get', 'tasks/update', 'tasks/cancel']) {
      await expect(client.modern(method, { taskId: 'x', inputResponses: {} })).rejects.toMatchObject({
        code: ErrorCode.MissingRequiredClientCapability,
        data: { requiredCapabilities: { extensions: { [TASKS_EXTENSION]: {} } } },
      });
    }
    const sync = client.modern('tools/call', { name: 'wait' });
    await waiting(1);
    release('sync');
    expect(text(await sync)).toBe('sync in no task');
    await expect(client.modern('tools/call', { name: 'must' })).rejects.toMatchObject({ code: ErrorCode.MissingRequiredClientCapability });
    // A forbidden tool ignores both the extension and a stray 2025-11-25 `task` param.
    expect(await modern(client, 'tools/call', { name: 'plain', task: { ttl: 5 } })).toMatchObject({ resultType: 'complete' });
  });

  test('tasks/result and tasks/list do not exist in this era (-32601)', async () => {
    const { client } = await setup();
    await expect(modern(client, 'tasks/result', { taskId: 'x' })).rejects.toMatchObject({ code: ErrorCode.MethodNotFound });
    await expect(modern(client, 'tasks/list')).rejects.toMatchObject({ code: ErrorCode.MethodNotFound });
  });

  test('tool errors complete with isError; protocol errors fail with the error inlined', async () => {
    const { client, reach } = await setup();
    const faulty = (await modern(client, 'tools/call', { name: 'faulty' })).taskId as string;
    const broken = (await modern(client, 'tools/call', { name: 'broken' })).taskId as string;
    await reach(faulty);
    await reach(broken);
    expect(await modern(client, 'tasks/get', { taskId: faulty })).toMatchObject({ status: 'completed', result: { isError: true } });
    const failed = await modern(client, 'tasks/get', { taskId: broken });
    expect(failed).toMatchObject({ status: 'failed', error: { code: ErrorCode.InternalError, message: 'broken on purpose' } });
    expect(failed).not.toHaveProperty('result');
  });

  test('inputs: input_required lists both keys; a partial update keeps the rest; the task then completes', async () => {
    const { client, reach } = await setup();
    const taskId = (await modern(client, 'tools/call', { name: 'ask' })).taskId as string;
    await vi.waitFor(async () => {
      const task = await modern(client, 'tasks/get', { taskId });
      expect(Object.keys(task.inputRequests as object).sort()).toEqual(['a', 'b']);
    });
    const pending = await modern(client, 'tasks/get', { taskId });
    expect(pending).toMatchObject({ status: 'input_required', inputRequests: { a: { method: 'elicitation/create' } } });
    const accept = (v: string) => ({ action: 'accept', content: { v } });
    expect(await modern(client, 'tasks/update', { taskId, inputResponses: { a: accept('A'), zzz: accept('ignored') } })).toEqual({
      resultType: 'complete',
      _meta: expect.any(Object),
    });
    const partial = await modern(client, 'tasks/get', { taskId });
    expect(partial.status).toBe('input_required');
    expect(Object.keys(partial.inputRequests as object)).toEqual(['b']);
    await modern(client, 'tasks/update', { taskId, inputResponses: { b: accept('B') } });
    await reach(taskId);
    expect(text((await modern(client, 'tasks/get', { taskId })).result as object)).toBe('A+B');
  });

  test('cancel: an empty ack, the work aborts, the task ends cancelled; cancelling again is the same ack', async () => {
    const { client, reach, waiting } = await setup();
    const taskId = (await modern(client, 'tools/call', { name: 'wait' })).taskId as string;
    await waiting(1);
    const ack = await modern(client, 'tasks/cancel', { taskId });
    expect(Object.keys(ack).sort()).toEqual(['_meta', 'resultType']);
    expect((await reach(taskId)).status).toBe('cancelled');
    expect(await modern(client, 'tasks/cancel', { taskId })).toMatchObject({ resultType: 'complete' });
    expect((await modern(client, 'tasks/get', { taskId })).status).toBe('cancelled');
  });

  test('MRTR before the task: beforeTask asks in the request, its answer reaches the task', async () => {
    const { client, reach } = await setup();
    const round1 = await modern(client, 'tools/call', { name: 'prep' });
    expect(round1).toMatchObject({ resultType: 'input_required', inputRequests: { who: { method: 'elicitation/create' } } });
    const round2 = await modern(client, 'tools/call', {
      name: 'prep',
      inputResponses: { who: { action: 'accept', content: { name: 'Ada' } } },
      requestState: round1.requestState as string,
    });
    expect(round2).toMatchObject({ resultType: 'task' });
    expect(round2).not.toHaveProperty('requestState');
    await reach(round2.taskId as string);
    expect(text((await modern(client, 'tasks/get', { taskId: round2.taskId as string })).result as object)).toBe('{"name":"Ada"}');
  });

  test('listen streams follow tasks: notifications/tasks carry the task as tasks/get shows it', async () => {
    const { client, release, waiting } = await setup();
    const taskId = (await modern(client, 'tools/call', { name: 'wait' })).taskId as string;
    void modern(client, 'subscriptions/listen', { notifications: { taskIds: [taskId] } }).catch(() => {});
    await client.notified(1, 'notifications/subscriptions/acknowledged');
    expect(client.notifications.find((n) => n.method === 'notifications/subscriptions/acknowledged')?.params).toMatchObject({
      notifications: { taskIds: [taskId] },
    });
    await waiting(1);
    release('seen');
    await client.notified(1, 'notifications/tasks');
    const note = client.notifications.find((n) => n.method === 'notifications/tasks')?.params as JsonObject;
    expect(note).toMatchObject({ taskId, status: 'completed', result: { content: [{ type: 'text' }] } });
    await expect(client.modern('subscriptions/listen', { notifications: { taskIds: [taskId] } })).rejects.toMatchObject({
      code: ErrorCode.MissingRequiredClientCapability,
    });
    for (const taskIds of ['x', [1], Array.from({ length: 101 }, (_, i) => `t${i}`)]) {
      await expect(modern(client, 'subscriptions/listen', { notifications: { taskIds } as JsonObject })).rejects.toMatchObject({
        code: ErrorCode.InvalidParams,
      });
    }
  });

  test('hostile params are -32602: missing, empty, non-string or huge taskId; unknown task; bad inputResponses', async () => {
    const { client } = await setup();
    for (const params of [{}, { taskId: '' }, { taskId: 42 }, { taskId: 'x'.repeat(10_000) }, { taskId: 'unknown' }]) {
      await expect(modern(client, 'tasks/get', params)).rejects.toMatchObject({ code: ErrorCode.InvalidParams });
      await expect(modern(client, 'tasks/cancel', params)).rejects.toMatchObject({ code: ErrorCode.InvalidParams });
    }
    for (const inputResponses of [undefined, null, [], 'x']) {
      await expect(modern(client, 'tasks/update', { taskId: 'unknown', inputResponses } as JsonObject)).rejects.toMatchObject({
        code: ErrorCode.InvalidParams,
      });
    }
    const error = await modern(client, 'tasks/get', { taskId: 'y'.repeat(10_000) }).catch((e: Error) => e);
    expect(String((error as Error).message).length).toBeLessThan(200);
  });

  test('a full store refuses new tasks with -32603, running ones keep going', async () => {
    const { client, waiting } = await setup({}, { maxTasks: 1 });
    await modern(client, 'tools/call', { name: 'wait' });
    await waiting(1);
    await expect(modern(client, 'tools/call', { name: 'wait' })).rejects.toMatchObject({ code: ErrorCode.InternalError });
  });

  test('TTL: the work is aborted and the task forgotten once its TTL elapsed', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'Date'] });
    const { client, waiting, until, aborts } = await setup({ defaultTtlMs: 5000 });
    const taskId = (await modern(client, 'tools/call', { name: 'wait' })).taskId as string;
    await waiting(1);
    vi.advanceTimersByTime(4999);
    expect((await modern(client, 'tasks/get', { taskId })).status).toBe('working');
    expect(aborts).toEqual([]);
    vi.advanceTimersByTime(1);
    await until(() => aborts.length === 1);
    expect(aborts[0]).toMatchObject({ code: 'REQUEST_TIMEOUT' });
    await expect(modern(client, 'tasks/get', { taskId })).rejects.toMatchObject({ code: ErrorCode.InvalidParams });
  });
});
