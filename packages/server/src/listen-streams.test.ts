// 2026-07-28 `subscriptions/listen` streams: acknowledgement and tagging, the one server-wide fan-out, and every
// way a stream ends — server close, connection close, end of input, client cancellation, and for `dispatch`
// exchanges the signal's abort (quietly) or the server's close (gracefully).
import { MetaKey, type JsonObject, type RpcNotification } from '@wiremcp/protocol';
import { describe, expect, test } from 'vitest';
import { McpServer } from './mcp-server.js';
import { rawClient, type RawClient } from './server.test-util.js';

const SERVER_INFO = { [MetaKey.serverInfo]: { name: 'listen-server', version: '1.0.0' } };
const MODERN_META = { [MetaKey.protocolVersion]: '2026-07-28', [MetaKey.clientCapabilities]: {} };

/** A server whose registrations have been announced (list changes go out one microtask after a change). */
async function server(): Promise<McpServer> {
  const s = new McpServer({ name: 'listen-server', version: '1.0.0' });
  s.registerTool({ name: 'echo', inputSchema: { type: 'object' } }, () => ({ content: [] }));
  s.registerResource({ uri: 'demo://a', name: 'a' }, (uri) => ({ contents: [{ uri, text: 'A' }] }));
  await Promise.resolve();
  return s;
}

/** Opens a stream over a connection; resolves once the server acknowledged it. */
async function listenOn(client: RawClient, notifications: JsonObject) {
  const { id, result } = client.peer.startRequest('subscriptions/listen', { notifications, _meta: MODERN_META });
  result.catch(() => {});
  await client.notified(1, 'notifications/subscriptions/acknowledged');
  return { id, result };
}

/** The response and the cancellation the server ends a stream with (what `end(reason)` sends). */
function gracefulEnd(id: number | string, reason: string): unknown[] {
  return [
    { jsonrpc: '2.0', method: 'notifications/cancelled', params: { requestId: id, reason } },
    { jsonrpc: '2.0', id, result: { resultType: 'complete', _meta: { [MetaKey.subscriptionId]: id, ...SERVER_INFO } } },
  ];
}

/** A dispatch exchange that records what it is sent. */
function exchange() {
  const controller = new AbortController();
  const sent: RpcNotification[] = [];
  const waiters: Array<() => void> = [];
  return {
    controller,
    sent,
    notify(message: RpcNotification) {
      sent.push(message);
      for (const wake of waiters.splice(0)) wake();
    },
    signal: controller.signal,
    /** Resolves once `count` notifications were sent. */
    until(count: number): Promise<void> {
      if (sent.length >= count) return Promise.resolve();
      return new Promise((resolve) => {
        const check = (): void => (sent.length >= count ? resolve() : void waiters.push(check));
        waiters.push(check);
      });
    },
  };
}

const listenMessage = (id: number, notifications: JsonObject) => ({
  jsonrpc: '2.0',
  id,
  method: 'subscriptions/listen',
  params: { notifications, _meta: MODERN_META },
});

describe('a stream over a connection', () => {
  test('acknowledges the honoured subset, then delivers matching notifications tagged with the subscription id', async () => {
    const s = await server();
    const client = await rawClient(s);
    const { id } = await listenOn(client, { toolsListChanged: true, promptsListChanged: true, resourceSubscriptions: ['demo://a'] });
    expect(client.notifications[0]?.params).toEqual({
      _meta: { [MetaKey.subscriptionId]: id },
      notifications: { toolsListChanged: true, resourceSubscriptions: ['demo://a'] },
    });
    s.registerTool({ name: 'late', inputSchema: { type: 'object' } }, () => ({ content: [] }));
    s.notifyResourceUpdated('demo://a');
    s.notifyResourceUpdated('demo://b');
    await client.settle();
    // List changes are coalesced per tick, so they may arrive after the resource update.
    const delivered = client.notifications.slice(1);
    expect(delivered).toHaveLength(2);
    expect(delivered).toContainEqual({ method: 'notifications/tools/list_changed', params: { _meta: { [MetaKey.subscriptionId]: id } } });
    expect(delivered).toContainEqual({
      method: 'notifications/resources/updated',
      params: { _meta: { [MetaKey.subscriptionId]: id }, uri: 'demo://a' },
    });
  });

  test('server.close() ends it: notifications/cancelled, then its response', async () => {
    const s = await server();
    const client = await rawClient(s);
    const { id, result } = await listenOn(client, { toolsListChanged: true });
    const before = client.messages.length;
    await s.close();
    await expect(result).resolves.toEqual({ resultType: 'complete', _meta: { [MetaKey.subscriptionId]: id, ...SERVER_INFO } });
    expect(client.messages.slice(before)).toEqual(gracefulEnd(id, 'the server is closing'));
  });

  test("closing one connection ends its streams only; the other connection's stream stays open", async () => {
    const s = await server();
    const first = await rawClient(s);
    const second = await rawClient(s);
    const one = await listenOn(first, { toolsListChanged: true });
    const two = await listenOn(second, { toolsListChanged: true });
    const connection = [...s.connections][0]!;
    const before = first.messages.length;
    await connection.close();
    await one.result;
    expect(first.messages.slice(before)).toEqual(gracefulEnd(one.id, 'the server is closing'));
    s.registerTool({ name: 'late', inputSchema: { type: 'object' } }, () => ({ content: [] }));
    await second.settle();
    expect(second.notifications.at(-1)).toEqual({
      method: 'notifications/tools/list_changed',
      params: { _meta: { [MetaKey.subscriptionId]: two.id } },
    });
    await s.close();
    await expect(two.result).resolves.toMatchObject({ resultType: 'complete' });
  });

  test('end of input (stdin EOF) ends it with notifications/cancelled and the response, then the connection closes', async () => {
    const s = await server();
    const client = await rawClient(s);
    const { id } = await listenOn(client, { toolsListChanged: true });
    const connection = [...s.connections][0]!;
    const before = client.messages.length;
    const closed = new Promise<void>((resolve) => {
      const previous = connection.peer.onclose;
      connection.peer.onclose = () => {
        previous?.();
        resolve();
      };
    });
    (connection.peer.transport as unknown as { endInput(): void }).endInput();
    await closed;
    expect(client.messages.slice(before)).toEqual(gracefulEnd(id, 'the server is shutting down'));
    expect(s.connections.size).toBe(0);
  });

  test('the client cancelling the listen request ends it quietly and stops its notifications', async () => {
    const s = await server();
    const client = await rawClient(s);
    const controller = new AbortController();
    const listen = client.peer.request(
      'subscriptions/listen',
      { notifications: { toolsListChanged: true }, _meta: MODERN_META },
      { signal: controller.signal },
    );
    await client.notified(1, 'notifications/subscriptions/acknowledged');
    controller.abort();
    await expect(listen).rejects.toMatchObject({ code: 'REQUEST_CANCELLED' });
    s.registerTool({ name: 'late', inputSchema: { type: 'object' } }, () => ({ content: [] }));
    await client.settle();
    expect(client.notifications.map((n) => n.method)).toEqual(['notifications/subscriptions/acknowledged']);
    // Nothing was answered for the cancelled request.
    expect(client.messages.filter((m) => (m as { id?: unknown }).id === 0)).toEqual([]);
  });
});

describe('a stream held open by dispatch', () => {
  test('acknowledges through the exchange and receives list changes and resource updates raised server-wide', async () => {
    const s = await server();
    const x = exchange();
    const answer = s.dispatch(listenMessage(7, { toolsListChanged: true, resourceSubscriptions: ['demo://a'] }), x);
    await x.until(1);
    expect(x.sent[0]).toEqual({
      jsonrpc: '2.0',
      method: 'notifications/subscriptions/acknowledged',
      params: { _meta: { [MetaKey.subscriptionId]: 7 }, notifications: { toolsListChanged: true, resourceSubscriptions: ['demo://a'] } },
    });
    s.registerTool({ name: 'late', inputSchema: { type: 'object' } }, () => ({ content: [] }));
    s.notifyResourceUpdated('demo://a');
    await x.until(3);
    expect(
      x.sent
        .slice(1)
        .map((m) => m.method)
        .sort(),
    ).toEqual(['notifications/resources/updated', 'notifications/tools/list_changed']);
    x.controller.abort();
    await expect(answer).resolves.toBeUndefined();
  });

  test('aborting the signal ends it quietly: no cancellation, no response, nothing more sent', async () => {
    const s = await server();
    const x = exchange();
    const answer = s.dispatch(listenMessage(1, { toolsListChanged: true }), x);
    await x.until(1);
    x.controller.abort(new Error('the client went away'));
    await expect(answer).resolves.toBeUndefined();
    s.registerTool({ name: 'late', inputSchema: { type: 'object' } }, () => ({ content: [] }));
    await s.close();
    expect(x.sent.map((m) => m.method)).toEqual(['notifications/subscriptions/acknowledged']);
  });

  test('server.close() ends it gracefully: notifications/cancelled through the exchange, then the response', async () => {
    const s = await server();
    const x = exchange();
    const answer = s.dispatch(listenMessage(5, { promptsListChanged: true, toolsListChanged: true }), x);
    await x.until(1);
    await s.close();
    await expect(answer).resolves.toEqual({
      jsonrpc: '2.0',
      id: 5,
      result: { resultType: 'complete', _meta: { [MetaKey.subscriptionId]: 5, ...SERVER_INFO } },
    });
    expect(x.sent.at(-1)).toEqual({
      jsonrpc: '2.0',
      method: 'notifications/cancelled',
      params: { requestId: 5, reason: 'the server is closing' },
    });
  });
});

test('one registry: a list change reaches a legacy session, a stream over a connection and a dispatch stream alike', async () => {
  const s = await server();
  const legacy = await rawClient(s);
  await legacy.initialize();
  const modern = await rawClient(s);
  const stream = await listenOn(modern, { toolsListChanged: true });
  const x = exchange();
  const dispatched = s.dispatch(listenMessage(9, { toolsListChanged: true }), x);
  await x.until(1);
  s.registerTool({ name: 'late', inputSchema: { type: 'object' } }, () => ({ content: [] }));
  await Promise.all([legacy.notified(1, 'notifications/tools/list_changed'), modern.notified(2), x.until(2)]);
  expect(legacy.notifications.filter((n) => n.method === 'notifications/tools/list_changed')).toEqual([
    { method: 'notifications/tools/list_changed', params: undefined },
  ]);
  expect(modern.notifications[1]).toEqual({
    method: 'notifications/tools/list_changed',
    params: { _meta: { [MetaKey.subscriptionId]: stream.id } },
  });
  expect(x.sent[1]).toEqual({
    jsonrpc: '2.0',
    method: 'notifications/tools/list_changed',
    params: { _meta: { [MetaKey.subscriptionId]: 9 } },
  });
  await s.close();
  await dispatched;
});
