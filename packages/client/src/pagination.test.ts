import { RpcError } from '@wiremcp/protocol';
import { describe, expect, test } from 'vitest';
import { McpClient } from './client.js';
import { connected, demoServer, initializeResult, scripted } from './client.test-util.js';

const INFO = { name: 'c', version: '1' };

describe('pagination helpers', () => {
  test('listAll* follow nextCursor across pages, in both eras', async () => {
    for (const era of ['legacy', 'modern'] as const) {
      const { server } = demoServer({ pageSize: 2 });
      for (let i = 0; i < 5; i++) server.registerPrompt({ name: `p${i}` }, () => ({ messages: [] }));
      const { client, written } = await connected(server, { era });
      const tools = await client.listAllTools();
      expect(tools.map((t) => t.name)).toEqual(['echo', 'add', 'slow', 'hang', 'greet', 'parallel', 'roots', 'noisy']);
      expect(written.filter((line) => line.includes('"tools/list"'))).toHaveLength(4);
      expect((await client.listAllPrompts()).map((p) => p.name)).toEqual(['hello', 'p0', 'p1', 'p2', 'p3', 'p4']);
      const page = await client.listPrompts();
      expect(page.prompts).toHaveLength(2);
      expect(typeof page.nextCursor).toBe('string');
      const next = await client.listPrompts({ cursor: page.nextCursor });
      expect(next.prompts.map((p) => p.name)).toEqual(['p1', 'p2']);
      await client.close();
    }
  });

  test('a server that repeats a cursor fails PROTOCOL_VIOLATION instead of looping', async () => {
    const fake = await scripted((method) => {
      if (method === 'initialize') return initializeResult('2025-11-25', { tools: {}, resources: {} });
      return { tools: [{ name: 'x', inputSchema: { type: 'object' } }], resources: [], nextCursor: 'same' };
    });
    const client = new McpClient(INFO, { era: 'legacy' });
    await client.connect(fake.transport);
    await expect(client.listAllTools()).rejects.toMatchObject({ code: 'PROTOCOL_VIOLATION', message: expect.stringMatching(/twice/) });
    expect(fake.methods().filter((m) => m === 'tools/list')).toHaveLength(2);
    await client.close();
  });

  test('maxPages bounds servers whose cursors never end', async () => {
    let n = 0;
    const fake = await scripted((method) => {
      if (method === 'initialize') return initializeResult('2025-11-25', { resources: {} });
      return { resources: [], nextCursor: `c${n++}` };
    });
    const client = new McpClient(INFO, { era: 'legacy', maxPages: 5 });
    await client.connect(fake.transport);
    await expect(client.listAllResources()).rejects.toMatchObject({ code: 'PROTOCOL_VIOLATION', details: { pages: 5 } });
    expect(fake.methods().filter((m) => m === 'resources/list')).toHaveLength(5);
    await client.close();
  });

  test('a page without its list is INVALID_RESULT', async () => {
    const fake = await scripted((method) => (method === 'initialize' ? initializeResult('2025-11-25', { prompts: {} }) : {}));
    const client = new McpClient(INFO, { era: 'legacy' });
    await client.connect(fake.transport);
    await expect(client.listAllPrompts()).rejects.toMatchObject({ code: 'INVALID_RESULT' });
    await client.close();
  });

  test('a cached cursor the server refuses: every page is dropped and the listing starts over', async () => {
    let generation = 0;
    const fake = await scripted((method, params) => {
      if (method === 'server/discover') return { supportedVersions: ['2026-07-28'], capabilities: { tools: {} } };
      const cursor = params?.cursor as string | undefined;
      const hints = { resultType: 'complete', ttlMs: 60_000, cacheScope: 'public' };
      if (cursor === undefined)
        return { ...hints, tools: [{ name: `a${generation}`, inputSchema: { type: 'object' } }], nextCursor: `g${generation}` };
      if (cursor !== `g${generation}`) throw new RpcError(-32602, 'Invalid cursor');
      // The last page is not cacheable: it is fetched every time, with the (possibly cached) cursor.
      return { ...hints, ttlMs: 0, tools: [{ name: `b${generation}`, inputSchema: { type: 'object' } }] };
    });
    const client = new McpClient(INFO);
    await client.connect(fake.transport);
    expect((await client.listAllTools()).map((t) => t.name)).toEqual(['a0', 'b0']);
    expect((await client.listAllTools()).map((t) => t.name)).toEqual(['a0', 'b0']);
    expect(fake.methods().filter((m) => m === 'tools/list')).toHaveLength(3);
    // The server moved on: the cached first page names a cursor it no longer accepts.
    generation = 1;
    expect((await client.listAllTools()).map((t) => t.name)).toEqual(['a1', 'b1']);
    // cached page 1 + refused page 2, then both pages again from the start.
    expect(fake.methods().filter((m) => m === 'tools/list')).toHaveLength(6);
    await client.close();
  });
});
