/**
 * The Tasks tab's server side with a stand-in client (fake timers drive the polling): a started task is watched
 * and each change published until it ends; a task whose server stops answering is published as lost, once; arguments
 * that fail the schema never reach the server; a server that answers at once gives the result, unwatched.
 */
import type { ClientTask, McpClient } from '@wiremcp/client';
import { afterEach, beforeEach, describe, expect, test, vi } from 'vitest';
import type { InspectorEvent } from './inspector-session.js';
import { InspectorTasks } from './inspector-tasks.js';

const task = (status: ClientTask['status'], at: string): ClientTask => ({
  taskId: 't1',
  status,
  createdAt: '2026-01-01T00:00:00Z',
  lastUpdatedAt: at,
  ttlMs: null,
  pollIntervalMs: 500,
});

function setUp(gets: (() => ClientTask)[], start: { task?: ClientTask; result?: object } = { task: task('working', 'a') }) {
  const events: InspectorEvent[] = [];
  const calls: string[] = [];
  const client = {
    tasks: {
      callTool: vi.fn(async () => (calls.push('call'), start)),
      get: vi.fn(async () => {
        calls.push('get');
        const next = gets.shift();
        if (!next) throw new Error('no more answers');
        return next();
      }),
    },
  } as unknown as McpClient;
  const tasks = new InspectorTasks({
    client: () => client,
    validate: async (_name, args) => (args.bad ? ['bad: must not be there'] : []),
    publish: (event) => events.push(event),
  });
  return { tasks, events, calls };
}

const statuses = (events: InspectorEvent[]): string[] =>
  events.map((event) =>
    event.type === 'task' ? String(event.task.status) : event.type === 'task-lost' ? `lost: ${event.reason}` : event.type,
  );

beforeEach(() => void vi.useFakeTimers());
afterEach(() => void vi.useRealTimers());

describe('InspectorTasks', () => {
  test('a started task is watched: each change published, polling stops once it ended', async () => {
    const { tasks, events, calls } = setUp([() => task('working', 'a'), () => task('input_required', 'b'), () => task('completed', 'c')]);
    expect(await tasks.operations['task-call']({ name: 'slow', arguments: {} })).toMatchObject({ task: { taskId: 't1' } });
    await vi.advanceTimersByTimeAsync(5000);
    // The unchanged first poll is not published again.
    expect(statuses(events)).toEqual(['working', 'input_required', 'completed']);
    expect(calls).toEqual(['call', 'get', 'get', 'get']);
  });

  test('the server stops answering: the task is published as lost, once, and no longer polled', async () => {
    const { tasks, events, calls } = setUp([
      () => {
        throw new Error('fetch failed: ECONNREFUSED');
      },
    ]);
    await tasks.operations['task-call']({ name: 'slow', arguments: {} });
    await vi.advanceTimersByTimeAsync(10_000);
    expect(statuses(events)).toEqual(['working', 'lost: fetch failed: ECONNREFUSED']);
    expect(calls).toEqual(['call', 'get']);
  });

  test('invalid arguments never reach the server; an answer at once is a result, not watched', async () => {
    const invalid = setUp([]);
    expect(await invalid.tasks.operations['task-call']({ name: 'slow', arguments: { bad: 1 } })).toEqual({
      invalid: ['bad: must not be there'],
    });
    expect(invalid.calls).toEqual([]);
    const direct = setUp([], { result: { content: [] } });
    expect(await direct.tasks.operations['task-call']({ name: 'slow' })).toEqual({ result: { content: [] } });
    await vi.advanceTimersByTimeAsync(5000);
    expect(direct.calls).toEqual(['call']);
    await expect(direct.tasks.operations['task-get']({ taskId: '' })).rejects.toThrow(/taskId/);
    await expect(direct.tasks.operations['task-call']({ name: 'x', arguments: [1] })).rejects.toThrow(/arguments/);
  });

  test('dispose stops the watches', async () => {
    const { tasks, calls } = setUp([() => task('working', 'a'), () => task('working', 'b')]);
    await tasks.operations['task-call']({ name: 'slow', arguments: {} });
    tasks.dispose();
    await vi.advanceTimersByTimeAsync(5000);
    expect(calls).toEqual(['call']);
  });
});
