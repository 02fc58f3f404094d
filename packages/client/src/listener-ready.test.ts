import { createLinkedPair } from '@wiremcp/jsonrpc';
import { RpcError } from '@wiremcp/protocol';
import { McpServer } from '@wiremcp/server';
import { describe, expect, test } from 'vitest';
import { McpClient } from './client.js';
import { connected, demoServer, initializeResult, scripted } from './client.test-util.js';

describe('listener handles tell when their notifications can arrive', () => {
  test('2026-07-28: a change made right after `await ready` is heard (no wait on the stream by other means)', async () => {
    const { server } = demoServer();
    const { client } = await connected(server);
    const events: string[] = [];
    const off = client.onResourcesListChanged(() => events.push('resources'));
    await off.ready;
    const heard = new Promise<void>((resolve) => client.onResourcesListChanged(resolve));
    server.registerResource({ uri: 'demo://new', name: 'new' }, (uri) => ({ contents: [{ uri, text: '' }] }));
    await heard;
    expect(events).toEqual(['resources']);
    off();
    await client.close();
  });

  test('2026-07-28: ready rejects with CAPABILITY_NOT_SUPPORTED for a list the server does not announce', async () => {
    const server = new McpServer({ name: 'plain', version: '1' });
    server.registerTool({ name: 't', inputSchema: { type: 'object' } }, () => ({ content: [] }));
    const { client } = await connected(server);
    await expect(client.onPromptsListChanged(() => {}).ready).rejects.toMatchObject({ code: 'CAPABILITY_NOT_SUPPORTED' });
    await expect(client.onToolsListChanged(() => {}).ready).resolves.toBeUndefined();
    // Listeners of other notifications are ready at once.
    await expect(client.onLogMessage(() => {}).ready).resolves.toBeUndefined();
    await client.close();
  });

  test('2026-07-28: ready rejects with the failure of the listen stream', async () => {
    const fake = await scripted((method) => {
      if (method === 'server/discover')
        return {
          supportedVersions: ['2026-07-28'],
          capabilities: { tools: { listChanged: true } },
          serverInfo: { name: 's', version: '1' },
        };
      if (method === 'subscriptions/listen') throw new RpcError(-32601, 'Method not found: subscriptions/listen');
      return {};
    });
    const client = new McpClient({ name: 'c', version: '1' }, { era: 'modern', onError: () => {} });
    await client.connect(fake.transport);
    await expect(client.onToolsListChanged(() => {}).ready).rejects.toMatchObject({ code: -32601 });
    await client.close();
  });

  test('before connecting, ready settles once connect() opened the stream', async () => {
    const { server } = demoServer();
    const client = new McpClient({ name: 'c', version: '1' });
    const handle = client.onToolsListChanged(() => {});
    const ready = handle.ready;
    const [a, b] = createLinkedPair();
    await server.connect(b);
    await client.connect(a);
    await expect(ready).resolves.toBeUndefined();
    await client.close();
  });

  test('legacy: ready resolves at once, or rejects for a list without listChanged', async () => {
    const fake = await scripted((method) =>
      method === 'initialize' ? initializeResult('2025-11-25', { tools: { listChanged: true }, prompts: {} }) : {},
    );
    const client = new McpClient({ name: 'c', version: '1' }, { era: 'legacy' });
    await client.connect(fake.transport);
    await expect(client.onToolsListChanged(() => {}).ready).resolves.toBeUndefined();
    await expect(client.onPromptsListChanged(() => {}).ready).rejects.toMatchObject({ code: 'CAPABILITY_NOT_SUPPORTED' });
    await client.close();
  });
});
