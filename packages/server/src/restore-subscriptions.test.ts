import { createLinkedPair, Peer } from '@wiremcp/jsonrpc';
import { describe, expect, test } from 'vitest';
import type { HandlerContext } from './handler-context.js';
import { McpServer } from './mcp-server.js';

/** A server whose subscription hooks record every call; `secret://` URIs are refused, `roots://` ask the client's roots. */
function recording() {
  const events: string[] = [];
  const contexts = new Map<string, HandlerContext>();
  const reported: unknown[] = [];
  const server = new McpServer(
    { name: 'restored-hooks', version: '1.0.0' },
    {
      onInternalError: (error) => reported.push(error),
      onSubscribe: async (uri, ctx) => {
        await Promise.resolve();
        if (uri.startsWith('secret://')) throw new Error('not for you');
        if (uri.startsWith('roots://')) {
          const { roots } = await ctx.listRoots();
          events.push(`roots ${roots.map((root) => root.uri).join(',')}`);
        }
        contexts.set(uri, ctx);
        events.push(`+${uri} ${ctx.era} ${ctx.protocolVersion}`);
      },
      onUnsubscribe: (uri, ctx) => {
        events.push(`-${uri} same-context=${contexts.get(uri) === ctx}`);
      },
    },
  );
  server.registerResourceTemplate({ uriTemplate: 'demo://{x}', name: 'demo' }, (uri) => ({ contents: [{ uri, text: '' }] }));
  return { server, events, reported };
}

/** Connects a client peer to a connection restored with `subscriptions`; the client answers `roots/list`. */
async function restored(server: McpServer, subscriptions: string[]) {
  const [a, b] = createLinkedPair();
  const connection = await server.connect(b, {
    restore: { protocolVersion: '2025-11-25', clientCapabilities: { roots: {} }, subscriptions },
  });
  const peer = new Peer({ onInternalError: () => {} });
  const updates: unknown[] = [];
  peer.setRequestHandler('roots/list', () => ({ roots: [{ uri: 'file:///project' }] }));
  peer.setNotificationHandler('notifications/resources/updated', (params) => void updates.push(params));
  await peer.connect(a);
  return { connection, peer, updates };
}

/** Resolves once `events` holds `count` entries (the hooks run in the background of a restore). */
async function until(events: readonly string[], count: number): Promise<void> {
  for (let turn = 0; events.length < count && turn < 1000; turn += 1) await new Promise((resolve) => setImmediate(resolve));
  expect(events.length).toBeGreaterThanOrEqual(count);
}

describe('a restored legacy session calls the subscription hooks', () => {
  test('onSubscribe for each recorded URI on restore, onUnsubscribe with the same context when the copy is dropped', async () => {
    const { server, events } = recording();
    const { connection, updates, peer } = await restored(server, ['demo://a', 'roots://b']);
    await until(events, 3);
    expect(events.sort()).toEqual(['+demo://a legacy 2025-11-25', '+roots://b legacy 2025-11-25', 'roots file:///project']);
    server.notifyResourceUpdated('demo://a');
    await peer.request('ping', {});
    expect(updates).toEqual([{ uri: 'demo://a' }]);
    events.length = 0;
    await connection.close();
    expect(events.sort()).toEqual(['-demo://a same-context=true', '-roots://b same-context=true']);
    await server.close();
  });

  test('resources/unsubscribe of a restored subscription calls onUnsubscribe once', async () => {
    const { server, events } = recording();
    const { connection, peer } = await restored(server, ['demo://a']);
    await peer.request('resources/unsubscribe', { uri: 'demo://a' });
    expect(events).toEqual(['+demo://a legacy 2025-11-25', '-demo://a same-context=true']);
    await connection.close();
    expect(events).toHaveLength(2);
    await server.close();
  });

  test('a refused restored subscription is reported and ends: no updates, no onUnsubscribe', async () => {
    const { server, events, reported } = recording();
    const { connection, peer, updates } = await restored(server, ['secret://x']);
    await peer.request('ping', {});
    for (let turn = 0; reported.length === 0 && turn < 1000; turn += 1) await new Promise((resolve) => setImmediate(resolve));
    expect(reported).toHaveLength(1);
    expect(String(reported[0])).toContain('not for you');
    expect([...connection.session!.subscriptions]).toEqual([]);
    server.notifyResourceUpdated('secret://x');
    await peer.request('ping', {});
    expect(updates).toEqual([]);
    await connection.close();
    expect(events).toEqual([]);
    await server.close();
  });
});

describe('a copy of a session brought to a state recorded elsewhere (refreshSession)', () => {
  test('new subscriptions start (onSubscribe), dropped ones end (onUnsubscribe), the log level follows', async () => {
    const { server, events } = recording();
    const { connection, peer, updates } = await restored(server, ['demo://a']);
    await until(events, 1);
    events.length = 0;
    connection.refreshSession({
      protocolVersion: '2025-11-25',
      clientCapabilities: { roots: {} },
      subscriptions: ['demo://b'],
      logLevel: 'error',
    });
    await until(events, 2);
    expect(events.sort()).toEqual(['+demo://b legacy 2025-11-25', '-demo://a same-context=true']);
    expect(connection.session?.logLevel).toBe('error');
    server.notifyResourceUpdated('demo://a');
    server.notifyResourceUpdated('demo://b');
    await peer.request('ping', {});
    expect(updates).toEqual([{ uri: 'demo://b' }]);
    expect(() => connection.refreshSession({ protocolVersion: '2025-11-25', clientCapabilities: {}, logLevel: 'loud' as never })).toThrow(
      /log level/,
    );
    await connection.close();
    await server.close();
  });

  test('relayed: the session hears the events of other processes only while its transport says so', async () => {
    const { server } = recording();
    let holds = false;
    const [a, b] = createLinkedPair();
    await server.connect(b, {
      restore: { protocolVersion: '2025-11-25', clientCapabilities: {}, subscriptions: ['demo://a'] },
      relayed: () => holds,
    });
    const peer = new Peer({ onInternalError: () => {} });
    const updates: unknown[] = [];
    peer.setNotificationHandler('notifications/resources/updated', (params) => void updates.push(params));
    await peer.connect(a);
    const relay = server.relayEvents(() => {});
    relay.deliver({ id: 'e1', kind: 'resourceUpdated', uri: 'demo://a' });
    holds = true;
    relay.deliver({ id: 'e2', kind: 'resourceUpdated', uri: 'demo://a' });
    relay.deliver({ id: 'e2', kind: 'resourceUpdated', uri: 'demo://a' });
    await peer.request('ping', {});
    expect(updates).toEqual([{ uri: 'demo://a' }]);
    relay.stop();
    await server.close();
  });

  test("relay.current: the event a session's notification carries, as its transport sends it; published first", async () => {
    const { server } = recording();
    const [a, b] = createLinkedPair();
    const order: string[] = [];
    const relay = server.relayEvents((event) => event.kind === 'resourceUpdated' && order.push(`published ${event.id}`));
    const send = b.send.bind(b);
    b.send = (message, options) => {
      const method = (message as { method?: string }).method;
      if (method === 'notifications/resources/updated') order.push(`sent ${relay.current}`);
      return send(message, options);
    };
    await server.connect(b, {
      restore: { protocolVersion: '2025-11-25', clientCapabilities: {}, subscriptions: ['demo://a'] },
      relayed: () => true,
    });
    const peer = new Peer({ onInternalError: () => {} });
    await peer.connect(a);
    server.notifyResourceUpdated('demo://a'); // raised here
    relay.deliver({ id: 'e1', kind: 'resourceUpdated', uri: 'demo://a' }); // raised elsewhere
    await peer.request('ping', {});
    expect(order, order.join(' | ')).toHaveLength(3);
    const raised = order[0]!.slice('published '.length);
    expect(order).toEqual([`published ${raised}`, `sent ${raised}`, 'sent e1']);
    expect(relay.current).toBeUndefined();
    relay.stop();
    await server.close();
  });
});
