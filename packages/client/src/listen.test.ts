import { createLinkedPair } from '@wiremcp/jsonrpc';
import { MetaKey } from '@wiremcp/protocol';
import { describe, expect, test } from 'vitest';
import { McpClient } from './client.js';
import { connected, demoServer, scripted, turn, until } from './client.test-util.js';
import type { ServerNotification } from './notification-hub.js';

/** A message the client wrote, as the tests read it. */
interface Sent {
  id?: number;
  method?: string;
  params?: { notifications?: unknown; requestId?: unknown; reason?: unknown };
}

const sent = (written: string[]): Sent[] => written.map((line) => JSON.parse(line) as Sent);

describe('subscriptions/listen', () => {
  test('resolves on the acknowledgement with the honoured subset; notifications are demultiplexed by subscription id', async () => {
    const { server } = demoServer();
    const { client } = await connected(server);
    const toolsOnly: ServerNotification[] = [];
    const resourceOnly: ServerNotification[] = [];
    const global: string[] = [];
    client.onNotification((n) => global.push(n.method));
    const a = await client.listen({ toolsListChanged: true, promptsListChanged: true }, { onNotification: (n) => toolsOnly.push(n) });
    const b = await client.listen({ resourceSubscriptions: ['demo://a'] }, { onNotification: (n) => resourceOnly.push(n) });
    expect(a.acknowledged).toEqual({ toolsListChanged: true, promptsListChanged: true });
    expect(b.acknowledged).toEqual({ resourceSubscriptions: ['demo://a'] });
    expect(a.id).not.toBe(b.id);
    server.registerTool({ name: 'late', inputSchema: { type: 'object' } }, () => ({ content: [] }));
    server.notifyResourceUpdated('demo://a');
    await until(() => toolsOnly.length === 1 && resourceOnly.length === 1);
    expect(toolsOnly[0]).toEqual({ method: 'notifications/tools/list_changed', params: { _meta: { [MetaKey.subscriptionId]: a.id } } });
    expect(resourceOnly[0]).toEqual({
      method: 'notifications/resources/updated',
      params: { _meta: { [MetaKey.subscriptionId]: b.id }, uri: 'demo://a' },
    });
    await a.close();
    await b.close();
    await client.close();
  });

  test('a closing McpServer ends the stream: notifications/cancelled comes first, then the response', async () => {
    const { server } = demoServer();
    const { client } = await connected(server);
    const stream = await client.listen({ toolsListChanged: true });
    const closing = server.close();
    expect(await stream.done).toEqual({ reason: 'server-cancelled' });
    await closing;
  });

  test('ends on the server response alone (graceful end without notifications/cancelled)', async () => {
    const fake = await scripted((method, _params, ctx) => {
      if (method === 'server/discover') return { supportedVersions: ['2026-07-28'], capabilities: { tools: { listChanged: true } } };
      if (method === 'subscriptions/listen') {
        void ctx.notify('notifications/subscriptions/acknowledged', {
          _meta: { [MetaKey.subscriptionId]: ctx.id },
          notifications: { toolsListChanged: true },
        });
        // The response follows the acknowledgement on a later turn, as a server ending the stream would send it.
        return turn().then(() => ({ resultType: 'complete', _meta: { [MetaKey.subscriptionId]: ctx.id } }));
      }
      return {};
    });
    const client = new McpClient({ name: 'c', version: '1' });
    await client.connect(fake.transport);
    const stream = await client.listen({ toolsListChanged: true });
    expect(await stream.done).toEqual({ reason: 'server-response' });
    await client.close();
  });

  test("ends on the server's notifications/cancelled for the listen id; nothing is sent back", async () => {
    const fake = await scripted((method, _params, ctx) => {
      if (method === 'server/discover') return { supportedVersions: ['2026-07-28'], capabilities: { tools: { listChanged: true } } };
      if (method === 'subscriptions/listen') {
        void ctx.notify('notifications/subscriptions/acknowledged', {
          _meta: { [MetaKey.subscriptionId]: ctx.id },
          notifications: { toolsListChanged: true },
        });
        void turn().then(() => fake.peer.notify('notifications/cancelled', { requestId: ctx.id, reason: 'shutting down' }));
        return new Promise(() => {});
      }
      return {};
    });
    const client = new McpClient({ name: 'c', version: '1' });
    await client.connect(fake.transport);
    const stream = await client.listen({ toolsListChanged: true });
    expect(await stream.done).toEqual({ reason: 'server-cancelled' });
    // A round trip: anything the client sent about the stream has reached the server before this request.
    await client.request('acme/barrier');
    expect(fake.methods()).toEqual(['server/discover', 'subscriptions/listen', 'acme/barrier']);
    await client.close();
  });

  test('a signal ends the stream: the client sends notifications/cancelled and the server stops sending', async () => {
    const { server } = demoServer();
    const { client, written } = await connected(server);
    const controller = new AbortController();
    const seen: string[] = [];
    const stream = await client.listen(
      { toolsListChanged: true },
      { signal: controller.signal, onNotification: (n) => seen.push(n.method) },
    );
    controller.abort();
    expect(await stream.done).toEqual({ reason: 'client-cancelled' });
    expect(sent(written).at(-1)).toEqual({
      jsonrpc: '2.0',
      method: 'notifications/cancelled',
      params: { requestId: stream.id, reason: 'Listen stream closed by the client' },
    });
    // Round trips order the steps: the server has the cancellation before the list changes, and any notification
    // it still sent for the stream would have arrived before the second answer.
    await client.listTools({}, { fresh: true });
    server.registerTool({ name: 'late', inputSchema: { type: 'object' } }, () => ({ content: [] }));
    await client.listTools({}, { fresh: true });
    expect(seen).toEqual([]);
    await client.close();
  });

  test('closing the connection ends the streams with connection-closed', async () => {
    const { client } = await connected(demoServer().server);
    const stream = await client.listen({ toolsListChanged: true });
    await client.close();
    expect(await stream.done).toMatchObject({ reason: 'connection-closed', error: { code: 'CONNECTION_CLOSED' } });
  });

  test('an error answer before the acknowledgement rejects listen with the RpcError', async () => {
    const fake = await scripted((method) => {
      if (method === 'server/discover') return { supportedVersions: ['2026-07-28'], capabilities: {} };
      throw Object.assign(new Error('x'), {});
    });
    const client = new McpClient({ name: 'c', version: '1' });
    await client.connect(fake.transport);
    await expect(client.listen({ toolsListChanged: true })).rejects.toMatchObject({ code: -32603 });
    await client.close();
  });
});

describe('era-neutral listeners in the modern era (the managed listen stream)', () => {
  test('onToolsListChanged opens a stream for what is listened to; removing the last listener closes it', async () => {
    const { server } = demoServer();
    const { client, written } = await connected(server);
    const events: string[] = [];
    const offTools = client.onToolsListChanged(() => events.push('tools'));
    await until(() => sent(written).some((m) => m.method === 'subscriptions/listen'));
    const firstListen = sent(written).find((m) => m.method === 'subscriptions/listen')!;
    expect(firstListen.params!.notifications).toEqual({ toolsListChanged: true });
    const offPrompts = client.onPromptsListChanged(() => events.push('prompts'));
    await until(() => sent(written).filter((m) => m.method === 'subscriptions/listen').length === 2);
    // The new stream replaces the old one once acknowledged.
    await until(() => sent(written).some((m) => m.method === 'notifications/cancelled' && m.params!.requestId === firstListen.id));
    server.registerTool({ name: 'late', inputSchema: { type: 'object' } }, () => ({ content: [] }));
    server.registerPrompt({ name: 'late' }, () => ({ messages: [] }));
    await until(() => events.length === 2);
    expect(events.sort()).toEqual(['prompts', 'tools']);
    offTools();
    offPrompts();
    await until(() => sent(written).filter((m) => m.method === 'notifications/cancelled').length === 2);
    await client.close();
  });

  test('listeners registered before connect get their stream during connect', async () => {
    const { server } = demoServer();
    const client = new McpClient({ name: 'c', version: '1' });
    const events: string[] = [];
    client.onResourcesListChanged(() => events.push('resources'));
    const [a, b] = createLinkedPair();
    await server.connect(b);
    await client.connect(a);
    server.registerResource({ uri: 'demo://late', name: 'late' }, (uri) => ({ contents: [{ uri, text: '' }] }));
    await until(() => events.length === 1);
    await client.close();
  });

  test('subscribeResource works in the modern era through the stream; unsubscribe removes it', async () => {
    const { server } = demoServer();
    const { client, written } = await connected(server);
    const updates: string[] = [];
    client.onResourceUpdated((params) => updates.push(params.uri));
    await client.subscribeResource('demo://a');
    const listen = sent(written)
      .filter((m) => m.method === 'subscriptions/listen')
      .at(-1)!;
    expect(listen.params!.notifications).toEqual({ resourceSubscriptions: ['demo://a'] });
    server.notifyResourceUpdated('demo://a');
    await until(() => updates.length === 1);
    await client.unsubscribeResource('demo://a');
    server.notifyResourceUpdated('demo://a');
    await client.listTools({}, { fresh: true });
    expect(updates).toEqual(['demo://a']);
    await client.close();
  });

  test('subscribeResource against a server without resources.subscribe fails before sending', async () => {
    const { server } = demoServer({ capabilities: { resources: { subscribe: false } } });
    const { client, written } = await connected(server);
    const before = written.length;
    await expect(client.subscribeResource('demo://a')).rejects.toMatchObject({ code: 'CAPABILITY_NOT_SUPPORTED' });
    expect(written.length).toBe(before);
    await client.close();
  });
});
