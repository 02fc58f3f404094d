import { afterEach, describe, expect, test, vi } from 'vitest';
import { ErrorCode, type JsonObject } from '@wiremcp/protocol';
import { connectEverything, text, type EverythingClient } from './everything.test-util.js';

const TASKS = { extensions: { 'io.modelcontextprotocol/tasks': {} }, elicitation: {} };
const ACCEPT_ALICE = { elicitation: () => ({ action: 'accept', content: { name: 'Alice', confirm: true } }) };

/** Polls `tasks/get` once per turn of the event loop until the task has `status` (or is terminal). */
async function reach(client: EverythingClient, taskId: string, status?: string): Promise<JsonObject> {
  for (let turns = 0; turns < 10_000; turns++) {
    const task = (await client.modern('tasks/get', { taskId })) as JsonObject;
    const done = ['completed', 'failed', 'cancelled'].includes(task.status as string);
    if (status === undefined ? done : task.status === status || done) return task;
    await new Promise<void>((resolve) => setImmediate(resolve));
  }
  throw new Error(`task ${taskId} did not reach ${status ?? 'a terminal status'}`);
}

let clients: EverythingClient[] = [];
afterEach(async () => {
  vi.useRealTimers();
  for (const client of clients) await client.close();
  clients = [];
});

async function modern(capabilities: Record<string, unknown> = TASKS) {
  const client = await connectEverything('modern', { capabilities, answers: ACCEPT_ALICE });
  clients.push(client);
  return client;
}

describe('task fixtures (2026-07-28)', () => {
  test('greet is synchronous; slow_compute is a task that completes', async () => {
    const client = await modern();
    expect(text(await client.tool('greet', { name: 'World' }))).toBe('Hello, World!');
    const created = (await client.tool('slow_compute', { seconds: 0, label: 'now' })) as unknown as JsonObject;
    expect(created).toMatchObject({ resultType: 'task', status: 'working' });
    const done = await reach(client, created.taskId as string);
    expect(text(done.result as JsonObject)).toBe('Computed for 0s (now)');
  });

  test('slow_compute is cancelled by tasks/cancel; failing_job completes with isError; protocol_error_job fails', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    const client = await modern();
    const slow = ((await client.tool('slow_compute', { seconds: 60 })) as unknown as JsonObject).taskId as string;
    await client.modern('tasks/cancel', { taskId: slow });
    expect((await reach(client, slow)).status).toBe('cancelled');
    const failing = ((await client.tool('failing_job')) as unknown as JsonObject).taskId as string;
    await vi.advanceTimersByTimeAsync(1000);
    expect(await reach(client, failing)).toMatchObject({ status: 'completed', result: { isError: true } });
    const broken = ((await client.tool('protocol_error_job')) as unknown as JsonObject).taskId as string;
    expect(await reach(client, broken)).toMatchObject({ status: 'failed', error: { code: ErrorCode.InternalError } });
  });

  test('confirm_delete and multi_input wait for tasks/update; test_tool_with_task asks first, then greets from a task', async () => {
    const client = await modern();
    const confirm = ((await client.tool('confirm_delete', { filename: 'a.txt' })) as unknown as JsonObject).taskId as string;
    expect(Object.keys((await reach(client, confirm, 'input_required')).inputRequests as object)).toEqual(['confirm']);
    await client.modern('tasks/update', { taskId: confirm, inputResponses: { confirm: { action: 'accept', content: { confirm: true } } } });
    expect(text((await reach(client, confirm)).result as JsonObject)).toBe('Deleted a.txt');
    const multi = ((await client.tool('multi_input')) as unknown as JsonObject).taskId as string;
    let pending = await reach(client, multi, 'input_required');
    for (let i = 0; i < 1000 && Object.keys(pending.inputRequests as object).length < 2; i++)
      pending = await reach(client, multi, 'input_required');
    await client.modern('tasks/update', { taskId: multi, inputResponses: { name: { action: 'accept', content: { name: 'Bo' } } } });
    expect(Object.keys(((await client.modern('tasks/get', { taskId: multi })) as JsonObject).inputRequests as object)).toEqual(['confirm']);
    await client.modern('tasks/update', { taskId: multi, inputResponses: { confirm: { action: 'accept', content: { confirm: false } } } });
    expect(text((await reach(client, multi)).result as JsonObject)).toBe('name=Bo, confirm=false');
    const composed = (await client.tool('test_tool_with_task')) as unknown as JsonObject;
    expect(composed.resultType).toBe('task');
    expect(client.inputRounds.at(-1)).toHaveProperty('user_name');
    expect(text((await reach(client, composed.taskId as string)).result as JsonObject)).toMatch(/^Hello, Alice!/);
  });

  test('without the extension: slow_compute runs directly and failing_job is -32021', async () => {
    const client = await modern({});
    expect(text(await client.tool('slow_compute', { seconds: 0 }))).toBe('Computed for 0s');
    await expect(client.tool('failing_job')).rejects.toMatchObject({ code: ErrorCode.MissingRequiredClientCapability });
  });
});

describe('task fixtures (2025-11-25)', () => {
  test('a task-augmented slow_compute returns {task}; tasks/result gives its result; failing_job needs a task', async () => {
    const client = await connectEverything('legacy', { capabilities: {} });
    clients.push(client);
    const { task } = (await client.call('tools/call', {
      name: 'slow_compute',
      arguments: { seconds: 0 },
      task: { ttl: 1000 },
    })) as unknown as {
      task: JsonObject;
    };
    expect(task).toMatchObject({ status: 'working', ttl: 1000 });
    expect(text((await client.call('tasks/result', { taskId: task.taskId as string })) as JsonObject)).toBe('Computed for 0s');
    await expect(client.call('tools/call', { name: 'failing_job', arguments: {} })).rejects.toMatchObject({
      code: ErrorCode.MethodNotFound,
    });
  });
});
