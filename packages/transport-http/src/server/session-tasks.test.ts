/**
 * 2025-11-25 tasks of a legacy session served by two processes (two handlers sharing a session store, an event
 * store, a bus and a task store): a task created on one is the session's own on the other too — `tasks/get`,
 * `tasks/list` and `tasks/result` find it there — and stays hidden from another session.
 */
import { McpServer, MemoryTaskStore } from '@wiremcp/server';
import { afterEach, describe, expect, test } from 'vitest';
import { MemoryEventStore } from './event-store.js';
import { createHttpHandler, type HttpHandler } from './http-handler.js';
import { initialize, json, post, sessionHeaders, SseReader } from './http.test-util.js';
import { MemoryBus } from './bus.test-util.js';
import { MemorySessionStore } from './session-store.js';

let handlers: HttpHandler[] = [];
afterEach(async () => {
  await Promise.all(handlers.map((handler) => handler.close(0)));
  handlers = [];
});

function pair() {
  const shared = { sessionStore: new MemorySessionStore(), eventStore: new MemoryEventStore(), bus: new MemoryBus() };
  const store = new MemoryTaskStore();
  const gates: Array<() => void> = [];
  const made = [0, 1].map(() => {
    const server = new McpServer({ name: 'tasks', version: '1.0.0' }, { tasks: { store }, onInternalError: () => {} });
    server.registerTool(
      { name: 'gated', inputSchema: { type: 'object' }, execution: { taskSupport: 'optional' } },
      () => new Promise((resolve) => gates.push(() => resolve({ content: [{ type: 'text', text: 'opened' }] }))),
    );
    return createHttpHandler(server, shared);
  });
  handlers = made;
  /** Lets the oldest running `gated` call finish (once it has started: it runs after the task is created). */
  const open = async (): Promise<void> => {
    while (gates.length === 0) await new Promise((resolve) => setImmediate(resolve));
    gates.shift()!();
  };
  return { a: made[0]!, b: made[1]!, open };
}

/** The one JSON-RPC answer of a POST (JSON or SSE). */
async function answer(response: Response): Promise<Record<string, unknown>> {
  if ((response.headers.get('content-type') ?? '').includes('application/json')) return json(response);
  const events = await new SseReader(response).all();
  return events.map((event) => event.message).find((message) => message?.id !== undefined) as Record<string, unknown>;
}

describe('a legacy session with tasks on two processes', () => {
  test('a task created on A is found on B (get, list, result), and not by another session', async () => {
    const { a, b, open } = pair();
    const session = await initialize(a);
    const created = await answer(
      await a(
        post({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'gated', arguments: {}, task: {} } }, sessionHeaders(session)),
      ),
    );
    const taskId = (created.result as { task: { taskId: string } }).task.taskId;

    const got = await answer(await b(post({ jsonrpc: '2.0', id: 2, method: 'tasks/get', params: { taskId } }, sessionHeaders(session))));
    expect(got.result).toMatchObject({ taskId, status: 'working' });
    const listed = await answer(await b(post({ jsonrpc: '2.0', id: 3, method: 'tasks/list', params: {} }, sessionHeaders(session))));
    expect((listed.result as { tasks: Array<{ taskId: string }> }).tasks.map((task) => task.taskId)).toEqual([taskId]);

    const result = b(post({ jsonrpc: '2.0', id: 4, method: 'tasks/result', params: { taskId } }, sessionHeaders(session)));
    await open();
    expect((await answer(await result)).result).toMatchObject({ content: [{ type: 'text', text: 'opened' }] });

    const stranger = await initialize(b);
    const hidden = await answer(
      await b(post({ jsonrpc: '2.0', id: 5, method: 'tasks/get', params: { taskId } }, sessionHeaders(stranger))),
    );
    expect(hidden.error).toMatchObject({ code: -32602 });
  });
});
