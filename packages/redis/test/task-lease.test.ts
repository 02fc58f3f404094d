// Task leases on a real redis-server: a running task whose process stops renewing its lease is failed, once and
// atomically, by whichever process reads or watches it next; a task whose lease is renewed, or that ended, is not.
// A lapse is made by deleting the lease key (what its expiry does), so no test waits for wall-clock time.
import { McpServer, type TaskRecord } from '@wiremcp/server';
import { describe, expect, test, vi } from 'vitest';
import type { RedisState } from '../src/index.js';
import { useTestRedis } from './redis-server.test-util.js';
import { nextChange, taskRecord } from './task-store-contract.test-util.js';

const testRedis = useTestRedis();

function connect(prefix: string, taskLeaseMs?: number): Promise<RedisState> {
  return testRedis.connect({ prefix, taskLeaseMs });
}

const LAPSED = /stopped before it finished/;

describe('RedisTaskStore leases', () => {
  test('create gives a lease of leaseMs; renewLease extends it; endLease drops it', async () => {
    const state = await connect('lease-keys:', 5000);
    await state.taskStore.create(taskRecord('t'));
    const ttl = await state.client.pttl('lease-keys:task:t:lease');
    expect(ttl).toBeGreaterThan(0);
    expect(ttl).toBeLessThanOrEqual(5000);
    await state.client.pexpire('lease-keys:task:t:lease', 10);
    await state.taskStore.renewLease('t');
    expect(await state.client.pttl('lease-keys:task:t:lease')).toBeGreaterThan(10);
    await state.taskStore.endLease('t');
    expect(await state.client.exists('lease-keys:task:t:lease')).toBe(0);
  });

  test('a lapsed lease fails the task on get and list by another process, once; watchers hear it once', async () => {
    const a = await connect('lapse:');
    const b = await connect('lapse:');
    const c = await connect('lapse:');
    await a.taskStore.create(taskRecord('t', { owner: 'o' }));
    await a.taskStore.create(taskRecord('kept', { owner: 'o' }));
    const heard: TaskRecord[] = [];
    const stop = c.taskStore.watch('t', (record) => heard.push(record));
    const failed = nextChange(c.taskStore, 't', (record) => record.status === 'failed');
    expect(await b.taskStore.get('t')).toMatchObject({ status: 'working' });
    await a.client.del('lapse:task:t:lease');
    // Two processes read it at once: both see it failed; only one write happened.
    const [viaGet, viaList] = await Promise.all([b.taskStore.get('t'), c.taskStore.list('o', undefined, 10)]);
    expect(viaGet).toMatchObject({ status: 'failed', statusMessage: expect.stringMatching(LAPSED), error: { code: -32603 } });
    expect(viaList.tasks.map((task) => [task.taskId, task.status])).toEqual([
      ['t', 'failed'],
      ['kept', 'working'],
    ]);
    expect(await failed).toMatchObject({ status: 'failed' });
    // A later write (the dead process's settle arriving late) changes nothing: terminal tasks never change.
    expect(await a.taskStore.update('t', () => ({ status: 'completed', result: {} }))).toBeUndefined();
    await c.client.publish('lapse:tasks', JSON.stringify({ taskId: 'unrelated' })); // a marker after every change
    await nextChange(c.taskStore, 'unrelated');
    expect(heard.map((record) => record.status)).toEqual(['failed']);
    stop();
  });

  test('a watched task whose lease lapses is failed by the watching process without any read', async () => {
    const a = await connect('sweep:', 60);
    const b = await connect('sweep:', 60);
    await a.taskStore.create(taskRecord('t'));
    const failed = nextChange(b.taskStore, 't', (record) => record.status === 'failed');
    await a.client.del('sweep:task:t:lease');
    expect(await failed).toMatchObject({ status: 'failed', statusMessage: expect.stringMatching(LAPSED) });
  });

  test('a task that ended is not failed when its lease is gone; one whose lease is held is not either', async () => {
    const state = await connect('ended:');
    await state.taskStore.create(taskRecord('done'));
    await state.taskStore.update('done', () => ({ status: 'completed', result: { content: [] } }));
    await state.taskStore.endLease('done');
    expect(await state.taskStore.get('done')).toMatchObject({ status: 'completed', result: { content: [] } });
    await state.taskStore.create(taskRecord('held'));
    await state.taskStore.renewLease('held');
    expect(await state.taskStore.get('held')).toMatchObject({ status: 'working' });
  });

  test('a server renews the lease of a task it runs and ends it when the work ends', async () => {
    const state = await connect('server:', 90);
    const other = await connect('server:', 90);
    let finish: (() => void) | undefined;
    const server = new McpServer({ name: 'lease', version: '1.0.0' }, { tasks: { store: state.taskStore } });
    server.registerTool(
      { name: 'wait', inputSchema: { type: 'object' }, execution: { taskSupport: 'optional' } },
      () => new Promise((resolve) => (finish = () => resolve({ content: [] }))),
    );
    const created = await server.dispatch(
      {
        jsonrpc: '2.0',
        id: 1,
        method: 'tools/call',
        params: {
          name: 'wait',
          arguments: {},
          _meta: {
            'io.modelcontextprotocol/protocolVersion': '2026-07-28',
            'io.modelcontextprotocol/clientCapabilities': { extensions: { 'io.modelcontextprotocol/tasks': {} } },
          },
        },
      },
      { notify: () => {} },
    );
    const taskId = (created as unknown as { result: { taskId: string } }).result.taskId;
    expect(typeof taskId).toBe('string');
    // The lease is renewed again and again while the work runs; the other process keeps seeing it working.
    const watched = other.taskStore.watch(taskId, () => {});
    for (let renewal = 0; renewal < 5; renewal += 1) {
      await nextRenewal(state, `server:task:${taskId}:lease`);
      expect(await other.taskStore.get(taskId)).toMatchObject({ status: 'working' });
    }
    watched();
    const completed = nextChange(other.taskStore, taskId, (record) => record.status === 'completed');
    finish!();
    expect(await completed).toMatchObject({ status: 'completed' });
    await vi.waitFor(async () => expect(await state.client.exists(`server:task:${taskId}:lease`)).toBe(0));
    await server.close();
  });
});

/** Resolves once the lease key's remaining life went up between two reads (it was renewed). */
async function nextRenewal(state: RedisState, key: string): Promise<void> {
  let last = await state.client.pttl(key);
  await vi.waitFor(
    async () => {
      const now = await state.client.pttl(key);
      expect(now).toBeGreaterThan(0);
      const renewed = now > last;
      last = now;
      expect(renewed).toBe(true);
    },
    { timeout: 5000, interval: 5 },
  );
}
