import { afterEach, describe, expect, test, vi } from 'vitest';
import { MemoryTaskStore } from './memory-task-store.js';
import { TaskManager } from './task-manager.js';

/** A store with leases (as a shared one has) that records every renewal and end. */
class LeasedStore extends MemoryTaskStore {
  readonly leaseMs = 300;
  readonly calls: string[] = [];
  renewLease(taskId: string): Promise<void> {
    this.calls.push(`renew ${taskId}`);
    return Promise.resolve();
  }
  endLease(taskId: string): Promise<void> {
    this.calls.push(`end ${taskId}`);
    return Promise.resolve();
  }
}

afterEach(() => {
  vi.useRealTimers();
});

describe('TaskManager leases', () => {
  test('renews the lease every third of leaseMs while the work runs, and ends it once when the work ends', async () => {
    vi.useFakeTimers();
    const store = new LeasedStore();
    const manager = new TaskManager({ store }, () => {});
    const record = await manager.create({ era: 'modern', owner: undefined, method: 'tools/call', requestedTtlMs: undefined });
    let finish: (() => void) | undefined;
    manager.run(record, () => new Promise((resolve) => (finish = () => resolve({ content: [] }))));
    await vi.advanceTimersByTimeAsync(99);
    expect(store.calls).toEqual([]);
    await vi.advanceTimersByTimeAsync(1);
    expect(store.calls).toEqual([`renew ${record.taskId}`]);
    await vi.advanceTimersByTimeAsync(1000);
    expect(store.calls).toHaveLength(11);
    finish!();
    await vi.advanceTimersByTimeAsync(0);
    expect(store.calls.at(-1)).toBe(`end ${record.taskId}`);
    expect(store.calls.filter((call) => call.startsWith('end'))).toHaveLength(1);
    await vi.advanceTimersByTimeAsync(1000);
    expect(store.calls).toHaveLength(12);
    expect((await store.get(record.taskId))?.status).toBe('completed');
  });

  test('a failing renewal is reported and retried on the next tick; a store without leases is never asked', async () => {
    vi.useFakeTimers();
    const store = new LeasedStore();
    let attempts = 0;
    store.renewLease = () => Promise.reject(new Error(`Redis down ${(attempts += 1)}`));
    const reported: unknown[] = [];
    const manager = new TaskManager({ store }, (error) => reported.push(error));
    const record = await manager.create({ era: 'modern', owner: undefined, method: 'tools/call', requestedTtlMs: undefined });
    manager.run(record, () => new Promise(() => {}));
    await vi.advanceTimersByTimeAsync(200);
    expect(attempts).toBe(2);
    expect(reported.map(String)).toEqual(['Error: Redis down 1', 'Error: Redis down 2']);

    const plain = new MemoryTaskStore();
    const other = new TaskManager({ store: plain }, () => {});
    const task = await other.create({ era: 'modern', owner: undefined, method: 'tools/call', requestedTtlMs: undefined });
    other.run(task, () => Promise.resolve({ content: [] }));
    await vi.advanceTimersByTimeAsync(1000);
    expect((await plain.get(task.taskId))?.status).toBe('completed');
  });
});
