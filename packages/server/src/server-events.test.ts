// Server-wide events across processes: two servers ("processes") joined by an in-memory bus through
// `relayEvents`. A list change or resource update raised on one reaches the other's listen streams exactly once,
// filtered and stamped per stream; legacy sessions hear only their own process; repeats and junk are dropped.
import { MetaKey, type JsonObject, type RpcNotification } from '@wiremcp/protocol';
import { afterEach, describe, expect, test } from 'vitest';
import { McpServer } from './mcp-server.js';
import type { ServerEvent, ServerEventRelay } from './server-events.js';
import { rawClient } from './server.test-util.js';

const MODERN_META = { [MetaKey.protocolVersion]: '2026-07-28', [MetaKey.clientCapabilities]: {} };

function newServer(): McpServer {
  const s = new McpServer({ name: 'events-server', version: '1.0.0' });
  s.registerTool({ name: 'echo', inputSchema: { type: 'object' } }, () => ({ content: [] }));
  s.registerPrompt({ name: 'p' }, () => ({ messages: [] }));
  s.registerResource({ uri: 'demo://a', name: 'a' }, (uri) => ({ contents: [{ uri, text: 'A' }] }));
  return s;
}

/** Servers joined by a bus that hands every published event to every relay (the publisher's own included). */
function deployment(count: number) {
  const servers = Array.from({ length: count }, newServer);
  const relays: ServerEventRelay[] = [];
  const published: ServerEvent[] = [];
  for (const s of servers) {
    relays.push(
      s.relayEvents((event) => {
        published.push(event);
        // Through JSON, as on a real bus; delivered asynchronously, as on a real bus.
        const copy: unknown = JSON.parse(JSON.stringify(event));
        queueMicrotask(() => {
          for (const relay of relays) relay.deliver(copy);
        });
      }),
    );
  }
  return { servers, relays, published };
}

/** A listen stream held open by `dispatch` on `server`, recording what it is sent. */
function listen(server: McpServer, id: number | string, notifications: JsonObject) {
  const controller = new AbortController();
  const sent: RpcNotification[] = [];
  const answer = server.dispatch(
    { jsonrpc: '2.0', id, method: 'subscriptions/listen', params: { notifications, _meta: MODERN_META } },
    { signal: controller.signal, notify: (message) => void sent.push(message) },
  );
  return { sent, answer, close: () => controller.abort() };
}

/** Lets queued microtasks and bus deliveries run. */
async function settle(): Promise<void> {
  for (let i = 0; i < 5; i += 1) await new Promise((resolve) => setTimeout(resolve, 0));
}

const closers: Array<() => void> = [];
afterEach(() => {
  for (const close of closers.splice(0)) close();
});

describe('events raised on one process reach the listen streams of the others', () => {
  test('list changes and resource updates, each once, filtered and stamped per stream', async () => {
    const { servers } = deployment(3);
    const [a, b, c] = servers as [McpServer, McpServer, McpServer];
    await settle();
    const tools = listen(a, 1, { toolsListChanged: true });
    const resources = listen(a, 2, { resourceSubscriptions: ['demo://a'] });
    const everything = listen(c, 'x', { toolsListChanged: true, promptsListChanged: true, resourceSubscriptions: ['demo://a'] });
    closers.push(tools.close, resources.close, everything.close);
    await settle();

    b.registerTool({ name: 'late', inputSchema: { type: 'object' } }, () => ({ content: [] }));
    b.registerPrompt({ name: 'late' }, () => ({ messages: [] }));
    b.notifyResourceUpdated('demo://a');
    b.notifyResourceUpdated('demo://other');
    await settle();

    const after = (sent: RpcNotification[]) => sent.filter((m) => m.method !== 'notifications/subscriptions/acknowledged');
    expect(after(tools.sent)).toEqual([
      { jsonrpc: '2.0', method: 'notifications/tools/list_changed', params: { _meta: { [MetaKey.subscriptionId]: 1 } } },
    ]);
    expect(after(resources.sent)).toEqual([
      {
        jsonrpc: '2.0',
        method: 'notifications/resources/updated',
        params: { _meta: { [MetaKey.subscriptionId]: 2 }, uri: 'demo://a' },
      },
    ]);
    // List changes go out a microtask after the change (several in one tick coalesce), resource updates at once.
    expect(after(everything.sent).map((m) => m.method)).toEqual([
      'notifications/resources/updated',
      'notifications/tools/list_changed',
      'notifications/prompts/list_changed',
    ]);
    for (const m of after(everything.sent)) expect((m.params as { _meta: object })._meta).toEqual({ [MetaKey.subscriptionId]: 'x' });
  });

  test('a stream on the process that raised the event hears it once (the echo from the bus is dropped)', async () => {
    const { servers, published } = deployment(2);
    const [a] = servers as [McpServer, McpServer];
    await settle();
    const stream = listen(a, 1, { resourceSubscriptions: ['demo://a'] });
    closers.push(stream.close);
    await settle();
    a.notifyResourceUpdated('demo://a');
    await settle();
    expect(stream.sent.filter((m) => m.method === 'notifications/resources/updated')).toHaveLength(1);
    expect(published.filter((event) => event.kind === 'resourceUpdated')).toEqual([
      { id: expect.any(String), kind: 'resourceUpdated', uri: 'demo://a' },
    ]);
  });

  test('an event published through two relays, or delivered twice, reaches a stream once', async () => {
    const a = newServer();
    const first = a.relayEvents(() => {});
    const second = a.relayEvents(() => {});
    await settle();
    const stream = listen(a, 1, { toolsListChanged: true });
    closers.push(stream.close);
    await settle();
    const event = { id: 'e-1', kind: 'listChanged', list: 'tools' };
    first.deliver(event);
    second.deliver(event);
    first.deliver({ ...event });
    await settle();
    expect(stream.sent.filter((m) => m.method === 'notifications/tools/list_changed')).toHaveLength(1);
  });

  test('legacy sessions hear only their own process; a stopped relay publishes nothing more', async () => {
    const { servers, relays, published } = deployment(2);
    const [a, b] = servers as [McpServer, McpServer];
    await settle();
    const legacy = await rawClient(a);
    await legacy.initialize('2025-11-25');
    await legacy.request('resources/subscribe', { uri: 'demo://a' });
    b.notifyResourceUpdated('demo://a');
    b.notifyToolListChanged();
    await settle();
    await legacy.settle();
    expect(legacy.notifications.map((n) => n.method)).toEqual([]);
    a.notifyResourceUpdated('demo://a');
    await legacy.settle();
    expect(legacy.notifications.map((n) => n.method)).toEqual(['notifications/resources/updated']);

    const count = published.length;
    relays[1]!.stop();
    relays[1]!.stop();
    b.notifyResourceUpdated('demo://a');
    await settle();
    expect(published).toHaveLength(count);
  });

  test('malformed events from the wire are ignored', async () => {
    const a = newServer();
    const relay = a.relayEvents(() => {});
    await settle();
    const stream = listen(a, 1, { toolsListChanged: true, resourceSubscriptions: ['demo://a'] });
    closers.push(stream.close);
    await settle();
    for (const junk of [
      null,
      'tools',
      { kind: 'listChanged', list: 'tools' },
      { id: '', kind: 'listChanged', list: 'tools' },
      { id: 'a', kind: 'listChanged', list: 'toolz' },
      { id: 'b', kind: 'resourceUpdated', uri: 42 },
      { id: 'c', kind: 'resourceUpdated', uri: `demo://${'x'.repeat(9000)}` },
      { id: 'd'.repeat(65), kind: 'listChanged', list: 'tools' },
      { id: 'e', kind: 'log', list: 'tools' },
    ]) {
      relay.deliver(junk);
    }
    await settle();
    expect(stream.sent.map((m) => m.method)).toEqual(['notifications/subscriptions/acknowledged']);
  });
});
