import { afterEach, beforeEach, describe, expect, test, vi } from 'vitest';
import { MemoryTaskStore } from './memory-task-store.js';
import { TaskCursorError, TaskStoreFullError, type TaskRecord } from './task-store.js';

function record(taskId: string, overrides: Partial<TaskRecord> = {}): TaskRecord {
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

describe('MemoryTaskStore', () => {
  beforeEach(() => {
    vi.useFakeTimers();
    vi.setSystemTime(new Date('2026-01-01T00:00:00Z'));
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  test('create then get returns a frozen copy; a duplicate id is refused', async () => {
    const store = new MemoryTaskStore();
    const original = record('a');
    await store.create(original);
    const got = await store.get('a');
    expect(got).toEqual(original);
    expect(Object.isFrozen(got)).toBe(true);
    await expect(store.create(record('a'))).rejects.toMatchObject({ code: 'INVALID_ARGUMENT' });
    expect(await store.get('missing')).toBeUndefined();
  });

  test('a task is gone once its TTL elapsed, and stays while it has not', async () => {
    const store = new MemoryTaskStore();
    await store.create(record('short', { ttlMs: 1000 }));
    await store.create(record('forever', { ttlMs: null }));
    vi.advanceTimersByTime(999);
    expect(await store.get('short')).toBeDefined();
    vi.advanceTimersByTime(1);
    expect(await store.get('short')).toBeUndefined();
    expect(await store.update('short', () => ({ status: 'completed' }))).toBeUndefined();
    vi.advanceTimersByTime(365 * 24 * 3600 * 1000);
    expect(await store.get('forever')).toBeDefined();
    expect(store.size).toBe(1);
  });

  test('bounded: the oldest terminal task makes room; with every task running, create rejects', async () => {
    const store = new MemoryTaskStore({ maxTasks: 2 });
    await store.create(record('done'));
    await store.update('done', () => ({ status: 'completed', result: { content: [] } }));
    await store.create(record('running'));
    await store.create(record('third'));
    expect(await store.get('done')).toBeUndefined();
    await expect(store.create(record('fourth'))).rejects.toBeInstanceOf(TaskStoreFullError);
    expect(store.size).toBe(2);
    expect(() => new MemoryTaskStore({ maxTasks: 0 })).toThrow(/maxTasks/);
  });

  test('update is a read-modify-write; terminal tasks never change; watchers hear every change', async () => {
    const store = new MemoryTaskStore();
    await store.create(record('t'));
    const seen: string[] = [];
    const stop = store.watch('t', (next) => seen.push(next.status));
    expect(await store.update('t', () => undefined)).toBeUndefined();
    const next = await store.update('t', (current) => ({ statusMessage: `was ${current.status}`, status: 'input_required' }));
    expect(next).toMatchObject({ status: 'input_required', statusMessage: 'was working' });
    await store.update('t', () => ({ status: 'cancelled' }));
    expect(await store.update('t', () => ({ status: 'working' }))).toBeUndefined();
    expect((await store.get('t'))?.status).toBe('cancelled');
    stop();
    expect(seen).toEqual(['input_required', 'cancelled']);
  });

  test('list pages an owner’s tasks in creation order; an unknown cursor is refused', async () => {
    const store = new MemoryTaskStore();
    for (const id of ['a', 'b', 'c', 'd', 'e']) await store.create(record(id, { owner: 'alice' }));
    await store.create(record('x', { owner: 'bob' }));
    const first = await store.list('alice', undefined, 2);
    expect(first.tasks.map((t) => t.taskId)).toEqual(['a', 'b']);
    const second = await store.list('alice', first.nextCursor, 2);
    expect(second.tasks.map((t) => t.taskId)).toEqual(['c', 'd']);
    const last = await store.list('alice', second.nextCursor, 2);
    expect(last.tasks.map((t) => t.taskId)).toEqual(['e']);
    expect(last.nextCursor).toBeUndefined();
    expect((await store.list('bob', undefined, 10)).tasks.map((t) => t.taskId)).toEqual(['x']);
    expect((await store.list(undefined, undefined, 10)).tasks).toEqual([]);
    await expect(store.list('alice', 'nope', 2)).rejects.toBeInstanceOf(TaskCursorError);
  });

  test('records round-trip through JSON (what a shared store keeps)', async () => {
    const store = new MemoryTaskStore();
    await store.create(record('j', { inputRequests: { k: { method: 'elicitation/create', params: { message: 'hi' } } } }));
    const got = await store.get('j');
    expect(JSON.parse(JSON.stringify(got))).toEqual(got);
  });
});
