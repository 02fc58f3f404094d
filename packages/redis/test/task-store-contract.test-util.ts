// The TaskStore contract of @wiremcp/server, as tests any store must pass: run against MemoryTaskStore and
// RedisTaskStore alike. Real time only (a Redis TTL cannot be faked), and every wait is for an event.
import { TaskCursorError, TaskStoreFullError, type TaskRecord, type TaskStore } from '@wiremcp/server';
import { describe, expect, test, vi } from 'vitest';

/** A task record as a server would create it. */
export function taskRecord(taskId: string, overrides: Partial<TaskRecord> = {}): TaskRecord {
  const now = new Date().toISOString();
  return {
    taskId,
    era: 'modern',
    method: 'tools/call',
    status: 'working',
    createdAt: now,
    lastUpdatedAt: now,
    ttlMs: 60_000,
    ...overrides,
  };
}

/** The next record `watch` reports for `taskId` (that `accept` takes, when given). */
export function nextChange(store: TaskStore, taskId: string, accept: (record: TaskRecord) => boolean = () => true): Promise<TaskRecord> {
  return new Promise((resolve) => {
    const stop = store.watch(taskId, (record) => {
      if (!accept(record)) return;
      stop();
      resolve(record);
    });
  });
}

/** Defines the contract tests; `makeStore` gives a fresh, empty store each time. */
export function taskStoreContract(name: string, makeStore: (options: { maxTasks?: number }) => Promise<TaskStore>): void {
  describe(`TaskStore contract: ${name}`, () => {
    test('create then get gives the record back as JSON; a duplicate id is refused; an unknown id is undefined', async () => {
      const store = await makeStore({});
      const original = taskRecord('a', {
        owner: 'o',
        pollIntervalMs: 500,
        inputRequests: { k: { method: 'elicitation/create', params: { x: 1 } } },
      });
      await store.create(original);
      expect(await store.get('a')).toEqual(JSON.parse(JSON.stringify(original)));
      await expect(store.create(taskRecord('a'))).rejects.toThrow();
      expect(await store.get('missing')).toBeUndefined();
    });

    test('update applies the patch; undefined from change, unknown and terminal tasks change nothing', async () => {
      const store = await makeStore({});
      await store.create(taskRecord('u'));
      expect(await store.update('u', () => undefined)).toBeUndefined();
      const next = await store.update('u', (current) => ({ status: 'input_required', statusMessage: `was ${current.status}` }));
      expect(next).toMatchObject({ taskId: 'u', status: 'input_required', statusMessage: 'was working' });
      expect(await store.get('u')).toEqual(next);
      await store.update('u', () => ({ status: 'completed', result: { content: [] } }));
      expect(await store.update('u', () => ({ status: 'working' }))).toBeUndefined();
      expect((await store.get('u'))?.status).toBe('completed');
      expect(await store.update('nope', () => ({ status: 'working' }))).toBeUndefined();
    });

    test('concurrent updates are atomic read-modify-writes: none is lost', async () => {
      const store = await makeStore({});
      await store.create(taskRecord('c', { statusMessage: '0' }));
      await Promise.all(
        Array.from({ length: 20 }, () => store.update('c', (current) => ({ statusMessage: String(Number(current.statusMessage) + 1) }))),
      );
      expect((await store.get('c'))?.statusMessage).toBe('20');
    });

    test('bounded: the oldest terminal task makes room; with every task running, create rejects', async () => {
      const store = await makeStore({ maxTasks: 2 });
      await store.create(taskRecord('done'));
      await store.update('done', () => ({ status: 'failed', error: { code: -32603, message: 'x' } }));
      await store.create(taskRecord('running'));
      await store.create(taskRecord('third'));
      expect(await store.get('done')).toBeUndefined();
      await expect(store.create(taskRecord('fourth'))).rejects.toBeInstanceOf(TaskStoreFullError);
      expect(await store.get('running')).toBeDefined();
    });

    test('list pages the tasks of one owner in creation order; an unknown cursor is refused', async () => {
      const store = await makeStore({});
      for (const id of ['t1', 't2', 't3', 't4', 't5']) await store.create(taskRecord(id, { owner: 'alice' }));
      await store.create(taskRecord('b1', { owner: 'bob' }));
      await store.create(taskRecord('n1'));
      const first = await store.list('alice', undefined, 2);
      expect(first.tasks.map((t) => t.taskId)).toEqual(['t1', 't2']);
      const second = await store.list('alice', first.nextCursor, 2);
      expect(second.tasks.map((t) => t.taskId)).toEqual(['t3', 't4']);
      const last = await store.list('alice', second.nextCursor, 2);
      expect(last).toEqual({ tasks: [expect.objectContaining({ taskId: 't5' })] });
      expect((await store.list('bob', undefined, 10)).tasks.map((t) => t.taskId)).toEqual(['b1']);
      expect((await store.list(undefined, undefined, 10)).tasks.map((t) => t.taskId)).toEqual(['n1']);
      await expect(store.list('alice', 'not-a-cursor', 2)).rejects.toBeInstanceOf(TaskCursorError);
    });

    test('watch reports each change until stopped', async () => {
      const store = await makeStore({});
      await store.create(taskRecord('w'));
      const stopped: TaskRecord[] = [];
      const stop = store.watch('w', (record) => stopped.push(record));
      const first = nextChange(store, 'w');
      await store.update('w', () => ({ statusMessage: 'one' }));
      expect(await first).toMatchObject({ taskId: 'w', statusMessage: 'one' });
      await vi.waitFor(() => expect(stopped).toHaveLength(1));
      stop();
      const second = nextChange(store, 'w');
      await store.update('w', () => ({ status: 'cancelled' }));
      expect(await second).toMatchObject({ status: 'cancelled' });
      expect(stopped.map((r) => r.statusMessage)).toEqual(['one']);
    });
  });
}
