import { createLinkedPair } from '@wiremcp/jsonrpc';
import { LocalError, MetaKey, RpcError } from '@wiremcp/protocol';
import { describe, expect, test } from 'vitest';
import { McpClient } from './client.js';
import { demoServer, initializeResult, recording, scripted } from './client.test-util.js';
import { MemoryEraCache } from './era-cache.js';

const INFO = { name: 'detector', version: '1.0.0' };
const never = () => new Promise(() => {});

describe('era detection', () => {
  test('a modern (dual-era) server is detected as modern from server/discover alone', async () => {
    const { server } = demoServer();
    const [a, b] = createLinkedPair();
    await server.connect(b);
    const { transport, written } = recording(a);
    const client = new McpClient(INFO);
    await client.connect(transport);
    expect(client.era).toBe('modern');
    expect(client.protocolVersion).toBe('2026-07-28');
    expect(client.serverInfo).toEqual({ name: 'demo', version: '1.0.0', title: 'Demo' });
    expect(client.instructions).toBe('Be nice.');
    expect(client.serverCapabilities?.tools).toEqual({ listChanged: true });
    expect(written.map((m) => JSON.parse(m).method)).toEqual(['server/discover']);
    expect(JSON.parse(written[0]!).params._meta).toEqual({
      [MetaKey.protocolVersion]: '2026-07-28',
      [MetaKey.clientCapabilities]: {},
      [MetaKey.clientInfo]: INFO,
    });
    await client.close();
  });

  test('a legacy-only peer answering -32601 to discover gets initialize with the newest legacy version', async () => {
    const fake = await scripted((method) => {
      if (method === 'server/discover') throw new RpcError(-32601, 'Method not found');
      if (method === 'initialize') return initializeResult('2025-11-25', { tools: { listChanged: true } });
      return {};
    });
    const client = new McpClient(INFO, {
      handlers: { sampling: () => ({ role: 'assistant', content: { type: 'text', text: 'x' }, model: 'm' }) },
    });
    await client.connect(fake.transport);
    expect(client.era).toBe('legacy');
    expect(client.protocolVersion).toBe('2025-11-25');
    expect(fake.methods()).toEqual(['server/discover', 'initialize', 'notifications/initialized']);
    const init = fake.received[1] as { params: Record<string, unknown> };
    expect(init.params).toEqual({ protocolVersion: '2025-11-25', capabilities: { sampling: {} }, clientInfo: INFO });
    await client.close();
  });

  test('any other error (-32602, -32603) also means legacy: the fallback is not keyed to one code', async () => {
    for (const code of [-32602, -32603, -32000]) {
      const fake = await scripted((method) => {
        if (method === 'server/discover') throw new RpcError(code, 'nope');
        if (method === 'initialize') return initializeResult('2025-06-18');
        return {};
      });
      const client = new McpClient(INFO);
      await client.connect(fake.transport);
      expect(client.era).toBe('legacy');
      expect(client.protocolVersion).toBe('2025-06-18');
      await client.close();
    }
  });

  test('a peer that never answers discover is legacy after the probe timeout; the probe is cancelled', async () => {
    const fake = await scripted((method) => (method === 'initialize' ? initializeResult() : never()));
    const client = new McpClient(INFO, { probeTimeoutMs: 50 });
    const started = Date.now();
    await client.connect(fake.transport);
    expect(Date.now() - started).toBeGreaterThanOrEqual(45);
    expect(client.era).toBe('legacy');
    expect(fake.methods()).toEqual(['server/discover', 'notifications/cancelled', 'initialize', 'notifications/initialized']);
    expect((fake.received[1] as { params: unknown }).params).toMatchObject({ requestId: 0 });
    await client.close();
  });

  test('a success that is not a DiscoverResult is treated as legacy', async () => {
    const fake = await scripted((method) => (method === 'initialize' ? initializeResult() : {}));
    const client = new McpClient(INFO);
    await client.connect(fake.transport);
    expect(client.era).toBe('legacy');
    await client.close();
  });

  test('-32022 listing the very version that was refused: one more try with it, then no loop, no fallback', async () => {
    const fake = await scripted((method, params) => {
      const version = (params?._meta as Record<string, unknown>)[MetaKey.protocolVersion];
      throw new RpcError(-32022, 'Unsupported protocol version', { supported: ['2026-07-28'], requested: version });
    });
    const client = new McpClient(INFO);
    const error = await client.connect(fake.transport).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(LocalError);
    expect(error).toMatchObject({ code: 'UNSUPPORTED_PROTOCOL_VERSION', details: { supported: ['2026-07-28'] } });
    expect(fake.methods()).toEqual(['server/discover', 'server/discover']);
  });

  test('-32022 once for a version the server lists: the retry with it succeeds and the client is modern', async () => {
    let refused = false;
    const fake = await scripted((method, params) => {
      const version = (params?._meta as Record<string, unknown>)[MetaKey.protocolVersion];
      if (!refused) {
        refused = true;
        throw new RpcError(-32022, 'Unsupported protocol version', { supported: ['2026-07-28'], requested: version });
      }
      return { resultType: 'complete', supportedVersions: ['2026-07-28'], capabilities: {}, ttlMs: 0, cacheScope: 'private' };
    });
    const client = new McpClient(INFO);
    await client.connect(fake.transport);
    expect(client.era).toBe('modern');
    expect(fake.methods()).toEqual(['server/discover', 'server/discover']);
    await client.close();
  });

  test('-32022 listing only legacy versions: initialize with the newest shared one', async () => {
    const fake = await scripted((method, params) => {
      if (method === 'server/discover')
        throw new RpcError(-32022, 'Unsupported protocol version', { supported: ['2025-03-26', '2024-11-05'], requested: 'x' });
      if (method === 'initialize') return initializeResult(params?.protocolVersion as string);
      return {};
    });
    const client = new McpClient(INFO);
    await client.connect(fake.transport);
    expect(client.era).toBe('legacy');
    expect(client.protocolVersion).toBe('2025-03-26');
    await client.close();
  });

  test('an initialize answer with a version the client does not speak closes and throws UNSUPPORTED_PROTOCOL_VERSION', async () => {
    const fake = await scripted((method) =>
      method === 'initialize' ? initializeResult('1999-01-01') : Promise.reject(new RpcError(-32601, 'x')),
    );
    const client = new McpClient(INFO);
    await expect(client.connect(fake.transport)).rejects.toMatchObject({ code: 'UNSUPPORTED_PROTOCOL_VERSION' });
    expect(client.connected).toBe(false);
    expect((fake.transport as { closed?: boolean }).closed).toBe(true);
  });

  test("era: 'legacy' skips the probe; era: 'modern' refuses a legacy server", async () => {
    const legacyServer = async () =>
      scripted((method) => {
        if (method === 'initialize') return initializeResult();
        throw new RpcError(-32601, 'Method not found');
      });
    const first = await legacyServer();
    const legacy = new McpClient(INFO, { era: 'legacy' });
    await legacy.connect(first.transport);
    expect(first.methods()).toEqual(['initialize', 'notifications/initialized']);
    await legacy.close();

    const second = await legacyServer();
    const modern = new McpClient(INFO, { era: 'modern' });
    const error = await modern.connect(second.transport).catch((e: unknown) => e);
    expect(error).toMatchObject({ code: 'UNSUPPORTED_PROTOCOL_VERSION' });
    expect((error as Error).message).toMatch(/-32601/);
  });
});

describe('era cache', () => {
  test('a cached legacy era skips the probe on the next connection', async () => {
    const cache = new MemoryEraCache();
    const serve = () =>
      scripted((method) => {
        if (method === 'initialize') return initializeResult('2025-06-18');
        throw new RpcError(-32601, 'Method not found');
      });
    const first = await serve();
    const client = new McpClient(INFO, { eraCache: cache, serverKey: 'node legacy.js' });
    await client.connect(first.transport);
    expect(first.methods()[0]).toBe('server/discover');
    expect(cache.get('node legacy.js')).toEqual({ era: 'legacy', protocolVersion: '2025-06-18' });
    await client.close();

    const second = await serve();
    await client.connect(second.transport);
    expect(second.methods()).toEqual(['initialize', 'notifications/initialized']);
    expect(client.era).toBe('legacy');
    await client.close();
  });

  test('a cached modern era with a fresh discover result skips discover entirely', async () => {
    const cache = new MemoryEraCache();
    const { server } = demoServer({ caching: { 'server/discover': { ttlMs: 60_000, cacheScope: 'public' } } });
    const connectOnce = async () => {
      const [a, b] = createLinkedPair();
      await server.connect(b);
      const rec = recording(a);
      const client = new McpClient(INFO, { eraCache: cache, serverKey: 'demo' });
      await client.connect(rec.transport);
      return { client, written: rec.written };
    };
    const first = await connectOnce();
    expect(first.written).toHaveLength(1);
    const second = await connectOnce();
    expect(second.written).toEqual([]);
    expect(second.client.era).toBe('modern');
    expect(second.client.serverCapabilities?.tools).toEqual({ listChanged: true });
    expect((await second.client.listTools()).tools.length).toBeGreaterThan(0);
    await first.client.close();
    await second.client.close();
  });

  test('a stale cached legacy guess is re-probed when initialize is refused', async () => {
    const cache = new MemoryEraCache();
    cache.set('srv', { era: 'legacy', protocolVersion: '2025-11-25' });
    // A modern-only server: refuses initialize naming its versions, answers discover.
    const fake = await scripted((method) => {
      if (method === 'initialize')
        throw new RpcError(-32022, 'Unsupported protocol version', { supported: ['2026-07-28'], requested: '2025-11-25' });
      return { resultType: 'complete', supportedVersions: ['2026-07-28'], capabilities: { tools: {} }, ttlMs: 0, cacheScope: 'public' };
    });
    const client = new McpClient(INFO, { eraCache: cache, serverKey: 'srv' });
    await client.connect(fake.transport);
    expect(fake.methods()).toEqual(['initialize', 'server/discover']);
    expect(client.era).toBe('modern');
    expect(cache.get('srv')?.era).toBe('modern');
    await client.close();
  });

  test('a throwing cache behaves like an empty one', async () => {
    const { server } = demoServer();
    const [a, b] = createLinkedPair();
    await server.connect(b);
    const broken = {
      get: () => {
        throw new Error('disk');
      },
      set: () => Promise.reject(new Error('disk')),
      delete: () => {},
    };
    const client = new McpClient(INFO, { eraCache: broken, serverKey: 'x' });
    await client.connect(a);
    expect(client.era).toBe('modern');
    await client.close();
  });
});
