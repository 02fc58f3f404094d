import { createLinkedPair, Peer, type MessageInfo } from '@wiremcp/jsonrpc';
import { describe, expect, test } from 'vitest';
import { McpServer } from './mcp-server.js';
import { MemoryTaskStore } from './memory-task-store.js';
import type { TaskStore } from './task-store.js';

const NO_ARGS = { type: 'object', properties: {} } as const;
const LEGACY = '2025-11-25';

/** A server ("a process") on `store`, with a task tool that waits until `release` is called. */
function processOn(store: TaskStore) {
  const gates: Array<() => void> = [];
  const onStart: Array<() => void> = [];
  const server = new McpServer({ name: 'owner', version: '1.0.0' }, { tasks: { store }, onInternalError: () => {} });
  server.registerTool(
    { name: 'wait', inputSchema: NO_ARGS, execution: { taskSupport: 'optional' } },
    (_args, ctx) =>
      new Promise((resolve, reject) => {
        ctx.signal.addEventListener('abort', () => reject(ctx.signal.reason as Error), { once: true });
        gates.push(() => resolve({ content: [{ type: 'text', text: 'done' }] }));
        for (const listener of onStart.splice(0)) listener();
      }),
  );
  /** Resolves once `count` calls of the tool are running. */
  const started = (count: number): Promise<void> =>
    new Promise((resolve) => {
      const check = (): void => (gates.length >= count ? resolve() : void onStart.push(check));
      check();
    });
  return { server, started, release: () => gates.shift()?.() };
}

/**
 * A client of `server` whose messages carry `info` (as an HTTP session's do); with `restore`, the session is one
 * recorded elsewhere (another process), otherwise it initializes.
 */
async function client(server: McpServer, info: MessageInfo, restore: boolean): Promise<Peer> {
  const [a, b] = createLinkedPair({ info });
  await server.connect(b, restore ? { restore: { protocolVersion: LEGACY, clientCapabilities: {} } } : undefined);
  const peer = new Peer({ onInternalError: () => {} });
  peer.setFallbackRequestHandler(() => ({}));
  await peer.connect(a);
  if (!restore) {
    await peer.request('initialize', { protocolVersion: LEGACY, capabilities: {}, clientInfo: { name: 't', version: '1' } });
    await peer.notify('notifications/initialized');
  }
  return peer;
}

type Listed = { tasks: Array<{ taskId: string; status: string }> };

describe('2025-11-25 tasks belong to the session, whichever process serves it', () => {
  test('another process serving the same session lists, reads, awaits and cancels its tasks; other sessions see none', async () => {
    const store = new MemoryTaskStore();
    const a = processOn(store);
    const b = processOn(store);
    const here = await client(a.server, { sessionId: 's1' }, false);
    const created = (await here.request('tools/call', { name: 'wait', arguments: {}, task: { ttl: 60_000 } })) as {
      task: { taskId: string };
    };
    const second = (await here.request('tools/call', { name: 'wait', arguments: {}, task: { ttl: 60_000 } })) as {
      task: { taskId: string };
    };
    const taskId = created.task.taskId;

    const there = await client(b.server, { sessionId: 's1' }, true);
    const listed = (await there.request('tasks/list', {})) as Listed;
    expect(listed.tasks.map((task) => task.taskId)).toEqual([taskId, second.task.taskId]);
    expect(await there.request('tasks/get', { taskId })).toMatchObject({ taskId, status: 'working' });
    const result = there.request('tasks/result', { taskId });
    await a.started(2);
    a.release();
    expect(await result).toMatchObject({ content: [{ type: 'text', text: 'done' }] });
    expect(await there.request('tasks/cancel', { taskId: second.task.taskId })).toMatchObject({ status: 'cancelled' });
    expect(await here.request('tasks/get', { taskId: second.task.taskId })).toMatchObject({ status: 'cancelled' });

    // Another session (on either process) sees none of them, and cannot touch them.
    for (const stranger of [await client(b.server, { sessionId: 's2' }, true), await client(a.server, { sessionId: 's2' }, false)]) {
      expect(((await stranger.request('tasks/list', {})) as Listed).tasks).toEqual([]);
      for (const method of ['tasks/get', 'tasks/result', 'tasks/cancel']) {
        await expect(stranger.request(method, { taskId })).rejects.toMatchObject({ code: -32602 });
      }
    }
    await a.server.close();
    await b.server.close();
  });

  test('the same session id used by another principal sees none of the tasks', async () => {
    const store = new MemoryTaskStore();
    const a = processOn(store);
    const b = processOn(store);
    const owner = await client(a.server, { sessionId: 's1', principalKey: 'alice' }, false);
    const created = (await owner.request('tools/call', { name: 'wait', arguments: {}, task: {} })) as { task: { taskId: string } };
    const taskId = created.task.taskId;
    const same = await client(b.server, { sessionId: 's1', principalKey: 'alice' }, true);
    expect(((await same.request('tasks/list', {})) as Listed).tasks.map((task) => task.taskId)).toEqual([taskId]);
    const other = await client(b.server, { sessionId: 's1', principalKey: 'mallory' }, true);
    expect(((await other.request('tasks/list', {})) as Listed).tasks).toEqual([]);
    await expect(other.request('tasks/cancel', { taskId })).rejects.toMatchObject({ code: -32602 });
    const anonymous = await client(b.server, { sessionId: 's1' }, true);
    expect(((await anonymous.request('tasks/list', {})) as Listed).tasks).toEqual([]);
    a.release();
    await a.server.close();
    await b.server.close();
  });

  test('connections without a session id (stdio) keep their tasks to themselves', async () => {
    const store = new MemoryTaskStore();
    const a = processOn(store);
    const one = await client(a.server, {}, false);
    const created = (await one.request('tools/call', { name: 'wait', arguments: {}, task: {} })) as { task: { taskId: string } };
    const two = await client(a.server, {}, false);
    expect(((await two.request('tasks/list', {})) as Listed).tasks).toEqual([]);
    expect(((await one.request('tasks/list', {})) as Listed).tasks.map((task) => task.taskId)).toEqual([created.task.taskId]);
    a.release();
    await a.server.close();
  });
});
