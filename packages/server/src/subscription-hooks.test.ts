import { MetaKey, RpcError } from '@wiremcp/protocol';
import { describe, expect, test } from 'vitest';
import type { HandlerContext } from './handler-context.js';
import { McpServer } from './mcp-server.js';
import { rawClient } from './server.test-util.js';

const INFO = { name: 'subscriptions', version: '1.0.0' };

/** A server whose hooks record every call; URIs under `secret://` are refused. */
function recording() {
  const events: string[] = [];
  const contexts = new Map<string, HandlerContext>();
  const server = new McpServer(INFO, {
    onSubscribe: async (uri, ctx) => {
      await Promise.resolve();
      if (uri.startsWith('secret://')) throw new Error('not for you');
      if (uri.startsWith('rpc://')) throw new RpcError(-32001, 'custom refusal');
      contexts.set(uri, ctx);
      events.push(`+${uri} ${ctx.era} ${String(ctx.requestId)}`);
    },
    onUnsubscribe: (uri, ctx) => {
      events.push(`-${uri} same-context=${contexts.get(uri) === ctx}`);
    },
  });
  server.registerResourceTemplate({ uriTemplate: 'demo://{x}', name: 'demo' }, (uri) => ({ contents: [{ uri, text: '' }] }));
  return { server, events };
}

describe('legacy resources/subscribe', () => {
  test('onSubscribe once per URI with the request context, onUnsubscribe once with the same context', async () => {
    const { server, events } = recording();
    const client = await rawClient(server);
    await client.initialize();
    await client.request('resources/subscribe', { uri: 'demo://a' });
    await client.request('resources/subscribe', { uri: 'demo://a' });
    await client.request('resources/unsubscribe', { uri: 'demo://a' });
    await client.request('resources/unsubscribe', { uri: 'demo://a' });
    expect(events).toEqual(['+demo://a legacy 1', '-demo://a same-context=true']);
    server.notifyResourceUpdated('demo://a');
    await client.settle();
    expect(client.notifications.filter((n) => n.method === 'notifications/resources/updated')).toEqual([]);
  });

  test('a refusal is the answer: an RpcError as it is, another error as -32602; nothing is subscribed', async () => {
    const { server, events } = recording();
    const client = await rawClient(server);
    await client.initialize();
    await expect(client.request('resources/subscribe', { uri: 'secret://x' })).rejects.toMatchObject({
      code: -32602,
      message: 'Cannot subscribe to "secret://x": not for you',
    });
    await expect(client.request('resources/subscribe', { uri: 'rpc://x' })).rejects.toMatchObject({
      code: -32001,
      message: 'custom refusal',
    });
    server.notifyResourceUpdated('secret://x');
    await client.request('resources/unsubscribe', { uri: 'secret://x' });
    expect(events).toEqual([]);
    expect(client.notifications.filter((n) => n.method === 'notifications/resources/updated')).toEqual([]);
  });

  test('closing the connection ends every subscription; concurrent subscribes to one URI make one', async () => {
    const { server, events } = recording();
    const client = await rawClient(server);
    await client.initialize();
    await Promise.all([
      client.request('resources/subscribe', { uri: 'demo://a' }),
      client.request('resources/subscribe', { uri: 'demo://a' }),
      client.request('resources/subscribe', { uri: 'demo://b' }),
    ]);
    server.notifyResourceUpdated('demo://a');
    await client.notified(1, 'notifications/resources/updated');
    const closed = new Promise<void>((resolve) => {
      const connection = [...server.connections][0]!;
      const previous = connection.peer.onclose;
      connection.peer.onclose = (...args) => {
        previous?.(...args);
        resolve();
      };
    });
    await client.peer.close();
    await closed;
    expect(events.filter((e) => e.startsWith('+'))).toHaveLength(2);
    expect(events.filter((e) => e.startsWith('-')).sort()).toEqual(['-demo://a same-context=true', '-demo://b same-context=true']);
  });
});

describe('2026-07-28 subscriptions/listen', () => {
  test('each distinct URI is offered to onSubscribe; refused ones are left out of the acknowledgement; the end unsubscribes', async () => {
    const { server, events } = recording();
    const client = await rawClient(server);
    const listening = client.modern(
      'subscriptions/listen',
      { notifications: { resourceSubscriptions: ['demo://a', 'secret://x', 'demo://a', 'demo://b'] } },
      { [MetaKey.clientCapabilities]: {} },
    );
    await client.notified(1, 'notifications/subscriptions/acknowledged');
    const ack = client.notifications.find((n) => n.method === 'notifications/subscriptions/acknowledged')!;
    expect(ack.params).toMatchObject({ notifications: { resourceSubscriptions: ['demo://a', 'demo://b'] } });
    expect(events.sort()).toEqual(['+demo://a modern 0', '+demo://b modern 0']);
    server.notifyResourceUpdated('secret://x');
    server.notifyResourceUpdated('demo://b');
    await client.notified(1, 'notifications/resources/updated');
    expect(client.notifications.filter((n) => n.method === 'notifications/resources/updated').map((n) => n.params?.uri)).toEqual([
      'demo://b',
    ]);
    await server.close();
    await listening;
    expect(events.filter((e) => e.startsWith('-')).sort()).toEqual(['-demo://a same-context=true', '-demo://b same-context=true']);
  });

  test('a listen stream cancelled while onSubscribe runs still ends every accepted subscription', async () => {
    let release!: () => void;
    const gate = new Promise<void>((resolve) => (release = resolve));
    let started!: () => void;
    const asked = new Promise<void>((resolve) => (started = resolve));
    let ended!: () => void;
    const unsubscribed = new Promise<void>((resolve) => (ended = resolve));
    const events: string[] = [];
    const server = new McpServer(INFO, {
      capabilities: { resources: true },
      onSubscribe: async (uri) => {
        started();
        await gate;
        events.push(`+${uri}`);
      },
      onUnsubscribe: (uri) => {
        events.push(`-${uri}`);
        ended();
      },
    });
    const client = await rawClient(server);
    const { id, result: response } = client.peer.startRequest('subscriptions/listen', {
      notifications: { resourceSubscriptions: ['demo://a'] },
      _meta: { [MetaKey.protocolVersion]: '2026-07-28', [MetaKey.clientCapabilities]: {} },
    });
    response.catch(() => {});
    await asked;
    await client.peer.notify('notifications/cancelled', { requestId: id });
    await client.settle();
    release();
    await unsubscribed;
    expect(events).toEqual(['+demo://a', '-demo://a']);
    await client.settle();
    expect(client.notifications.some((n) => n.method === 'notifications/subscriptions/acknowledged')).toBe(false);
  });
});

describe('completion providers get the request context', () => {
  test('scope, client capabilities and the other arguments; legacy sessions can ask for roots', async () => {
    const server = new McpServer(INFO);
    const seen: unknown[] = [];
    server.registerResourceTemplate({ uriTemplate: 'file://{+path}', name: 'file' }, (uri) => ({ contents: [{ uri, text: '' }] }), {
      complete: {
        path: async (value, ctx) => {
          const roots = ctx.era === 'legacy' && ctx.clientCapabilities.roots ? (await ctx.listRoots()).roots.map((r) => r.uri) : [];
          seen.push({ era: ctx.era, signal: ctx.signal instanceof AbortSignal, other: ctx.arguments, roots });
          return [`${value}x`];
        },
      },
    });
    const client = await rawClient(server);
    client.peer.setRequestHandler('roots/list', () => ({ roots: [{ uri: 'file:///home/me' }] }));
    const params = {
      ref: { type: 'ref/resource', uri: 'file://{+path}' },
      argument: { name: 'path', value: '/a' },
      context: { arguments: { mode: 'r' } },
    };
    expect(await client.modern('completion/complete', params)).toMatchObject({ completion: { values: ['/ax'] } });
    await client.initialize('2025-11-25', { roots: {} });
    await client.request('completion/complete', params as never);
    expect(seen).toEqual([
      { era: 'modern', signal: true, other: { mode: 'r' }, roots: [] },
      { era: 'legacy', signal: true, other: { mode: 'r' }, roots: ['file:///home/me'] },
    ]);
  });
});
