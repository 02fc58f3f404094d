import { createLinkedPair, Peer } from '@wiremcp/jsonrpc';
import { LocalError, type RpcNotification } from '@wiremcp/protocol';
import { describe, expect, test } from 'vitest';
import { McpServer } from './mcp-server.js';

function watchedServer(): McpServer {
  const server = new McpServer({ name: 'restored', version: '1.0.0' });
  server.registerTool(
    { name: 'echo', inputSchema: { type: 'object', properties: { text: { type: 'string' } } } },
    (args: { text?: string }) => ({
      content: [{ type: 'text', text: args.text ?? '' }],
    }),
  );
  server.registerResource({ uri: 'test://watched', name: 'watched' }, (uri) => ({ contents: [{ uri, text: 'now' }] }));
  return server;
}

/** A client peer on a connection whose session was restored, with the notifications it receives. */
async function restoredClient(server: McpServer, restore: Parameters<McpServer['connect']>[1]) {
  const [a, b] = createLinkedPair();
  const connection = await server.connect(b, restore);
  const peer = new Peer({ onInternalError: () => {} });
  const notifications: RpcNotification[] = [];
  peer.setFallbackRequestHandler(() => ({}));
  for (const method of ['notifications/message', 'notifications/resources/updated', 'notifications/tools/list_changed']) {
    peer.setNotificationHandler(method, (params) => {
      notifications.push({ jsonrpc: '2.0', method, params: params as RpcNotification['params'] });
    });
  }
  await peer.connect(a);
  return { connection, peer, notifications };
}

describe('connect(transport, { restore })', () => {
  test('serves a recorded session without initialize: its revision, log level, subscriptions and capabilities', async () => {
    const server = watchedServer();
    await Promise.resolve(); // the registrations' list change is announced before the session exists
    const { connection, peer, notifications } = await restoredClient(server, {
      restore: {
        protocolVersion: '2025-06-18',
        clientCapabilities: { roots: {} },
        clientInfo: { name: 'elsewhere', version: '2' },
        logLevel: 'error',
        subscriptions: ['test://watched'],
      },
    });
    expect(connection.session).toMatchObject({
      protocolVersion: '2025-06-18',
      clientInfo: { name: 'elsewhere', version: '2' },
      logLevel: 'error',
      initialized: true,
    });
    expect([...connection.session!.subscriptions]).toEqual(['test://watched']);
    // A legacy request is served in the restored session (no "send initialize first").
    expect(await peer.request('tools/call', { name: 'echo', arguments: { text: 'hi' } })).toEqual({
      content: [{ type: 'text', text: 'hi' }],
    });
    // Server-wide events reach it as they would the original session: the subscription, the log level filter.
    server.notifyResourceUpdated('test://watched');
    server.log('info', 'filtered out');
    server.log('error', 'delivered');
    await peer.request('ping', {});
    expect(notifications.map((n) => n.method)).toEqual(['notifications/resources/updated', 'notifications/message']);
    expect(notifications[1]!.params).toMatchObject({ level: 'error', data: 'delivered' });
    // A second initialize is refused: the connection already holds a session.
    await expect(peer.request('initialize', { protocolVersion: '2025-06-18', capabilities: {} })).rejects.toMatchObject({ code: -32600 });
    await server.close();
  });

  test('a restored session that had not sent notifications/initialized hears no list changes', async () => {
    const server = watchedServer();
    const { peer, notifications } = await restoredClient(server, {
      restore: { protocolVersion: '2025-11-25', clientCapabilities: {}, initialized: false },
    });
    server.registerTool({ name: 'late', inputSchema: { type: 'object' } }, () => ({ content: [] }));
    await peer.request('ping', {});
    await peer.request('ping', {});
    expect(notifications).toEqual([]);
    await server.close();
  });

  test('refuses a revision the server does not speak, and a bad log level', async () => {
    const server = new McpServer({ name: 'modern-only', version: '1' }, { protocolVersions: ['2026-07-28', '2025-11-25'] });
    const [, b] = createLinkedPair();
    await expect(server.connect(b, { restore: { protocolVersion: '2025-03-26', clientCapabilities: {} } })).rejects.toBeInstanceOf(
      LocalError,
    );
    const [, c] = createLinkedPair();
    await expect(
      server.connect(c, { restore: { protocolVersion: '2025-11-25', clientCapabilities: {}, logLevel: 'loud' as never } }),
    ).rejects.toMatchObject({ code: 'INVALID_ARGUMENT' });
    expect(server.connections.size).toBe(0);
  });
});

describe('tool(name)', () => {
  test('gives the definition of an enabled tool, nothing for a disabled or unknown one', () => {
    const server = watchedServer();
    expect(server.tool('echo')).toMatchObject({ name: 'echo', inputSchema: { type: 'object' } });
    const registered = server.registerTool({ name: 'hidden', inputSchema: { type: 'object' } }, () => ({ content: [] }));
    registered.disable();
    expect(server.tool('hidden')).toBeUndefined();
    expect(server.tool('nope')).toBeUndefined();
  });
});
