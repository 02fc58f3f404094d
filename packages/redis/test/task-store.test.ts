// RedisTaskStore against a real redis-server: the TaskStore contract (also run against MemoryTaskStore, the
// default), TTL expiry in Redis, and two processes' stores on one Redis sharing every task.
import { MemoryTaskStore } from '@wiremcp/server';
import { describe, expect, test, vi } from 'vitest';
import type { RedisState } from '../src/index.js';
import { useTestRedis } from './redis-server.test-util.js';
import { nextChange, taskRecord, taskStoreContract } from './task-store-contract.test-util.js';

const testRedis = useTestRedis();
let prefixes = 0;

function connect(prefix: string, maxTasks?: number): Promise<RedisState> {
  return testRedis.connect({ prefix, maxTasks });
}

taskStoreContract('MemoryTaskStore', (options) => Promise.resolve(new MemoryTaskStore(options)));
taskStoreContract('RedisTaskStore', async ({ maxTasks }) => (await connect(`contract${(prefixes += 1)}:`, maxTasks)).taskStore);

describe('RedisTaskStore', () => {
  test('a task expires in Redis with its TTL, counted from createdAt; one without TTL does not', async () => {
    const state = await connect('ttl:');
    await state.taskStore.create(taskRecord('short', { ttlMs: 60_000, createdAt: new Date(Date.now() - 30_000).toISOString() }));
    await state.taskStore.create(taskRecord('forever', { ttlMs: null }));
    const ttl = await state.client.pttl('ttl:task:short');
    expect(ttl).toBeGreaterThan(0);
    expect(ttl).toBeLessThanOrEqual(30_000);
    expect(await state.client.pttl('ttl:task:forever')).toBe(-1);
    // An update keeps the expiry; once Redis drops the key the task is gone from get, update and list.
    await state.taskStore.update('short', () => ({ statusMessage: 'still' }));
    expect(await state.client.pttl('ttl:task:short')).toBeGreaterThan(0);
    await state.client.pexpire('ttl:task:short', 1);
    await vi.waitFor(async () => expect(await state.taskStore.get('short')).toBeUndefined());
    expect(await state.taskStore.update('short', () => ({ status: 'completed' }))).toBeUndefined();
    expect((await state.taskStore.list(undefined, undefined, 10)).tasks.map((t) => t.taskId)).toEqual(['forever']);
  });

  test('two processes on one Redis: a task created by one is read, listed, updated, watched and cancelled by the other', async () => {
    const a = (await connect('shared:')).taskStore;
    const b = (await connect('shared:')).taskStore;
    await a.create(taskRecord('t', { owner: 'session-1' }));
    expect(await b.get('t')).toMatchObject({ taskId: 't', status: 'working', owner: 'session-1' });
    expect((await b.list('session-1', undefined, 10)).tasks.map((t) => t.taskId)).toEqual(['t']);
    // The running process (a) watches; the other (b) records input, then the cancellation.
    const input = nextChange(a, 't', (r) => r.status === 'input_required');
    await b.update('t', () => ({ status: 'input_required', inputRequests: { q: { method: 'elicitation/create', params: {} } } }));
    expect(await input).toMatchObject({ status: 'input_required' });
    const answered = nextChange(b, 't', (r) => r.inputResponses !== undefined);
    await a.update('t', () => ({ inputResponses: { q: { action: 'accept' } } }));
    expect((await answered).inputResponses).toEqual({ q: { action: 'accept' } });
    // a also hears its own change above, so it waits for the cancellation itself.
    const cancelled = nextChange(a, 't', (r) => r.status === 'cancelled');
    expect(await b.update('t', () => ({ status: 'cancelled', statusMessage: 'Cancelled by the client' }))).toMatchObject({
      status: 'cancelled',
    });
    expect(await cancelled).toMatchObject({ status: 'cancelled' });
    expect(await a.update('t', () => ({ status: 'completed' }))).toBeUndefined();
    expect((await a.get('t'))?.status).toBe('cancelled');
  });

  test('with Redis unreachable, operations reject at once instead of hanging', async () => {
    const state = await connect('down:');
    state.client.disconnect();
    await expect(state.taskStore.get('x')).rejects.toThrow();
    await expect(state.taskStore.create(taskRecord('x'))).rejects.toThrow();
  });
});
