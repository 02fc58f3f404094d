// A request the server decides to run as a task, cancelled before the task's handle is sent (a 2026-07-28 stream
// closed while the task was being created): the task ends `cancelled` and its work never starts; a request that
// stays open gets its task, which runs after the request is answered.
import { MetaKey, type JsonObject, type RpcResponse } from '@wiremcp/protocol';
import { describe, expect, test } from 'vitest';
import { McpServer } from './mcp-server.js';
import { MemoryTaskStore } from './memory-task-store.js';
import type { TaskRecord } from './task-store.js';
import { TASKS_EXTENSION } from './task-wire.js';

/** A store whose `create` waits for the test to let it finish. */
class GatedStore extends MemoryTaskStore {
  readonly created: TaskRecord[] = [];
  #gates: Array<() => void> = [];
  #arrived: Array<() => void> = [];
  override async create(record: TaskRecord): Promise<void> {
    await super.create(record);
    this.created.push(record);
    for (const wake of this.#arrived.splice(0)) wake();
    await new Promise<void>((resolve) => this.#gates.push(resolve));
  }
  /** Resolves once a `create` is waiting. */
  waiting(): Promise<void> {
    return this.#gates.length > 0 ? Promise.resolve() : new Promise((resolve) => this.#arrived.push(resolve));
  }
  open(): void {
    for (const gate of this.#gates.splice(0)) gate();
  }
}

function setup() {
  const store = new GatedStore();
  const server = new McpServer({ name: 'tasks', version: '1.0.0' }, { tasks: { store }, onInternalError: () => {} });
  let started = 0;
  server.registerTool({ name: 'work', inputSchema: { type: 'object' }, execution: { taskSupport: 'optional' } }, () => {
    started += 1;
    return { content: [{ type: 'text', text: 'worked' }] };
  });
  const call = (signal: AbortSignal) =>
    server.dispatch(
      {
        jsonrpc: '2.0',
        id: 1,
        method: 'tools/call',
        params: {
          name: 'work',
          arguments: {},
          _meta: { [MetaKey.protocolVersion]: '2026-07-28', [MetaKey.clientCapabilities]: { extensions: { [TASKS_EXTENSION]: {} } } },
        },
      },
      { signal, notify: () => {} },
    );
  return { store, call, started: () => started };
}

/** Resolves once the task reached a terminal status. */
function terminal(store: MemoryTaskStore, taskId: string): Promise<TaskRecord> {
  return new Promise((resolve) => {
    const check = (record: TaskRecord | undefined) => {
      if (record !== undefined && ['completed', 'failed', 'cancelled'].includes(record.status)) {
        stop();
        resolve(record);
      }
    };
    const stop = store.watch(taskId, check);
    void store.get(taskId).then(check);
  });
}

describe('a request run as a task, cancelled while the task is created', () => {
  test('the task ends cancelled and its work never starts', async () => {
    const { store, call, started } = setup();
    const controller = new AbortController();
    const answer = call(controller.signal);
    await store.waiting();
    controller.abort();
    store.open();
    expect(await answer).toBeUndefined();
    const record = await terminal(store, store.created[0]!.taskId);
    expect(record.status).toBe('cancelled');
    expect(started()).toBe(0);
  });

  test('a request that stays open gets the task, which then runs to completion', async () => {
    const { store, call, started } = setup();
    const answer = call(new AbortController().signal);
    await store.waiting();
    store.open();
    const response = (await answer) as RpcResponse & { result: JsonObject };
    expect(response.result).toMatchObject({ resultType: 'task', status: 'working' });
    const record = await terminal(store, response.result.taskId as string);
    expect(record.status).toBe('completed');
    expect(started()).toBe(1);
  });
});
