import { createLinkedPair } from '@wiremcp/jsonrpc';
import { LocalError, RpcError } from '@wiremcp/protocol';
import { describe, expect, test } from 'vitest';
import { McpClient } from './client.js';
import { connected, demoServer, initializeResult, scripted, turn, until } from './client.test-util.js';

const INFO = { name: 'c', version: '1' };

describe('errors and the connection lifecycle', () => {
  test('calls before connect reject NOT_CONNECTED', async () => {
    const client = new McpClient(INFO);
    await expect(client.listTools()).rejects.toMatchObject({ code: 'NOT_CONNECTED' });
    await expect(client.callTool('x')).rejects.toBeInstanceOf(LocalError);
    expect(client.era).toBeUndefined();
    expect(client.connected).toBe(false);
  });

  test('bad options and clientInfo are INVALID_ARGUMENT at construction', () => {
    expect(() => new McpClient({ name: 'x' } as never)).toThrow(expect.objectContaining({ code: 'INVALID_ARGUMENT' }));
    expect(() => new McpClient(INFO, { protocolVersion: '2020-01-01' as never })).toThrow(
      expect.objectContaining({ code: 'INVALID_ARGUMENT' }),
    );
    expect(() => new McpClient(INFO, { era: 'modern', supportedVersions: ['2025-11-25'] })).toThrow(
      expect.objectContaining({ code: 'INVALID_ARGUMENT' }),
    );
    expect(() => new McpClient(INFO, { probeTimeoutMs: -1 })).toThrow(expect.objectContaining({ code: 'INVALID_ARGUMENT' }));
  });

  test('connecting twice is ALREADY_CONNECTED', async () => {
    const { client } = await connected(demoServer().server);
    await expect(client.connect(createLinkedPair()[0])).rejects.toMatchObject({ code: 'ALREADY_CONNECTED' });
    await client.close();
  });

  test('close() rejects pending calls with CONNECTION_CLOSED, is idempotent, and later calls are NOT_CONNECTED', async () => {
    const { server, log } = demoServer();
    const { client } = await connected(server, { era: 'legacy' });
    const closes: unknown[] = [];
    client.onClose((error) => closes.push(error));
    const pending = client.callTool('hang');
    await until(() => log.started.some((call) => call.startsWith('hang#')));
    await client.close();
    await client.close();
    await expect(pending).rejects.toMatchObject({ code: 'CONNECTION_CLOSED' });
    await expect(client.listTools()).rejects.toMatchObject({ code: 'NOT_CONNECTED' });
    expect(closes).toEqual([undefined]);
    expect(client.connected).toBe(false);
  });

  test('Symbol.asyncDispose closes the client', async () => {
    const { server } = demoServer();
    const [a, b] = createLinkedPair();
    await server.connect(b);
    {
      await using client = new McpClient(INFO);
      await client.connect(a);
      expect(client.connected).toBe(true);
    }
    expect(a.closed).toBe(true);
  });

  test('the server closing the connection rejects pending calls and later calls with CONNECTION_CLOSED; onClose gets the error', async () => {
    const { server, log } = demoServer();
    const { client, serverEnd } = await connected(server);
    const closes: Array<LocalError | undefined> = [];
    client.onClose((error) => closes.push(error));
    const pending = client.callTool('hang');
    await until(() => log.started.some((call) => call.startsWith('hang#')));
    await serverEnd.close();
    await expect(pending).rejects.toMatchObject({ code: 'CONNECTION_CLOSED' });
    await expect(client.listTools()).rejects.toMatchObject({
      code: 'CONNECTION_CLOSED',
      message: expect.stringMatching(/Cannot send 'tools\/list'/),
    });
    expect(closes).toHaveLength(1);
    expect(closes[0]).toMatchObject({ code: 'CONNECTION_CLOSED' });
  });

  test('a transport closeReason (e.g. SERVER_EXITED) is what pending and later calls fail with', async () => {
    const fake = await scripted((method) => (method === 'initialize' ? initializeResult() : new Promise(() => {})));
    const exited = new LocalError('SERVER_EXITED', "Server process 'x' exited with code 3");
    Object.defineProperty(fake.transport, 'closeReason', { get: () => (fake.transport.closed ? exited : undefined) });
    const client = new McpClient(INFO, { era: 'legacy' });
    await client.connect(fake.transport);
    const pending = client.callTool('t');
    await until(() => fake.methods().includes('tools/call'));
    await fake.peer.close();
    await expect(pending).rejects.toBe(exited);
    await expect(client.listTools()).rejects.toMatchObject({ code: 'SERVER_EXITED', message: expect.stringMatching(/exited with code 3/) });
  });

  test('a server that closes during the handshake makes connect reject and leaves the client reusable', async () => {
    // The server closes the connection while it has the probe in hand, before answering it.
    const fake = await scripted(async () => {
      await turn();
      await fake.peer.close();
      return new Promise(() => {});
    });
    const client = new McpClient(INFO);
    await expect(client.connect(fake.transport)).rejects.toMatchObject({ code: 'CONNECTION_CLOSED' });
    const { server } = demoServer();
    const [a, b] = createLinkedPair();
    await server.connect(b);
    await client.connect(a);
    expect(client.era).toBe('modern');
    await client.close();
  });

  test('close() during connect aborts the handshake', async () => {
    const fake = await scripted(() => new Promise(() => {}));
    const client = new McpClient(INFO, { probeTimeoutMs: 10_000 });
    const connecting = client.connect(fake.transport);
    await until(() => fake.methods().includes('server/discover'));
    await client.close();
    await expect(connecting).rejects.toMatchObject({ code: 'CONNECTION_CLOSED' });
  });

  test('a capability the server did not declare fails CAPABILITY_NOT_SUPPORTED before sending, in both eras', async () => {
    for (const era of ['legacy', 'modern'] as const) {
      const server = demoServer({ capabilities: { logging: false } }).server;
      const { client, written } = await connected(server, { era });
      const before = written.length;
      await expect(client.setLoggingLevel('info')).rejects.toMatchObject({
        code: 'CAPABILITY_NOT_SUPPORTED',
        details: { capability: 'logging' },
      });
      expect(written.length).toBe(before);
      await client.close();
    }
    const bare = await scripted((method) => {
      if (method === 'initialize') return initializeResult('2025-11-25', {});
      throw new RpcError(-32601, 'nope');
    });
    const client = new McpClient(INFO);
    await client.connect(bare.transport);
    for (const call of [
      () => client.listTools(),
      () => client.callTool('x'),
      () => client.listResources(),
      () => client.readResource('x:y'),
      () => client.listPrompts(),
      () => client.getPrompt('p'),
      () => client.complete({ ref: { type: 'ref/prompt', name: 'p' }, argument: { name: 'a', value: '' } }),
      () => client.subscribeResource('x:y'),
    ]) {
      await expect(call()).rejects.toMatchObject({ code: 'CAPABILITY_NOT_SUPPORTED' });
    }
    expect(bare.methods()).toEqual(['server/discover', 'initialize', 'notifications/initialized']);
    await client.close();
  });

  test('enforceCapabilities: false sends anyway and surfaces the server error', async () => {
    const bare = await scripted((method) => {
      if (method === 'initialize') return initializeResult('2025-11-25', {});
      throw new RpcError(-32601, `Method not found: ${method}`);
    });
    const client = new McpClient(INFO, { era: 'legacy', enforceCapabilities: false });
    await client.connect(bare.transport);
    await expect(client.listTools()).rejects.toMatchObject({ code: -32601, message: 'Method not found: tools/list' });
    await client.close();
  });

  test('completion/complete is ungated in 2024-11-05', async () => {
    const fake = await scripted((method) => {
      if (method === 'initialize') return initializeResult('2024-11-05', {});
      if (method === 'completion/complete') return { completion: { values: ['a'] } };
      return {};
    });
    const client = new McpClient(INFO, { era: 'legacy', protocolVersion: '2024-11-05' });
    await client.connect(fake.transport);
    expect(
      (await client.complete({ ref: { type: 'ref/prompt', name: 'p' }, argument: { name: 'a', value: '' } })).completion.values,
    ).toEqual(['a']);
    await client.close();
  });

  test('a throwing notification listener is reported through onError and does not stop others', async () => {
    const errors: unknown[] = [];
    const { server } = demoServer();
    const { client } = await connected(server, { era: 'legacy', onError: (error) => errors.push(error) });
    const seen: string[] = [];
    client.onToolsListChanged(() => {
      throw new Error('listener bug');
    });
    client.onToolsListChanged(() => seen.push('second'));
    server.registerTool({ name: 'late', inputSchema: { type: 'object' } }, () => ({ content: [] }));
    await until(() => seen.length === 1);
    expect(seen).toEqual(['second']);
    expect(errors).toEqual([expect.objectContaining({ message: 'listener bug' })]);
    await client.close();
  });
});
