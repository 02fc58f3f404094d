import { afterEach, describe, expect, test } from 'vitest';
import { RpcError, type JsonObject } from '@wiremcp/protocol';
import { McpServer, type MiddlewareContext } from './index.js';
import { rawClient, text } from './server.test-util.js';

function echoServer(): McpServer {
  const server = new McpServer({ name: 'mw', version: '1.0.0' });
  server.registerTool({ name: 'echo', inputSchema: { type: 'object' } }, async (args) => ({
    content: [{ type: 'text', text: JSON.stringify(args) }],
  }));
  return server;
}

let servers: McpServer[] = [];
afterEach(async () => {
  for (const server of servers) await server.close();
  servers = [];
});

describe('McpServer.use', () => {
  test('runs in installation order around the method, both eras, with a typed context', async () => {
    const server = echoServer();
    servers.push(server);
    const order: string[] = [];
    const seen: MiddlewareContext[] = [];
    server.use(async (ctx, next) => {
      order.push(`a>${ctx.method}`);
      seen.push(ctx);
      const result = await next();
      order.push(`a<${ctx.method}`);
      return result;
    });
    server.use(async (ctx, next) => {
      order.push(`b>${ctx.method}`);
      return next();
    });
    const client = await rawClient(server);
    await client.initialize();
    await client.request('tools/call', { name: 'echo', arguments: { x: 1 } });
    await client.modern('tools/call', { name: 'echo', arguments: { y: 2 } });
    expect(order).toEqual([
      'a>initialize',
      'b>initialize',
      'a<initialize',
      'a>tools/call',
      'b>tools/call',
      'a<tools/call',
      'a>tools/call',
      'b>tools/call',
      'a<tools/call',
    ]);
    expect(seen[0]).toMatchObject({ method: 'initialize', era: 'legacy', protocolVersion: undefined, name: undefined });
    expect(seen[1]).toMatchObject({
      method: 'tools/call',
      era: 'legacy',
      protocolVersion: '2025-11-25',
      name: 'echo',
      sessionId: undefined,
    });
    expect(seen[2]).toMatchObject({ method: 'tools/call', era: 'modern', protocolVersion: '2026-07-28', name: 'echo' });
    expect(seen[2]!.meta).toHaveProperty(['io.modelcontextprotocol/protocolVersion']);
  });

  test('answers without running the method, rewrites params and results, refuses with an RpcError', async () => {
    const server = echoServer();
    servers.push(server);
    let ran = 0;
    server.registerTool({ name: 'count', inputSchema: { type: 'object' } }, async () => {
      ran++;
      return { content: [] };
    });
    server.use((ctx, next) => {
      if (ctx.name === 'count') return { content: [{ type: 'text', text: 'cached' }] };
      if (ctx.name === 'forbidden') throw new RpcError(-32602, 'not for you');
      if (ctx.method === 'tools/call') {
        const args = (ctx.params as { arguments: JsonObject }).arguments;
        return next({ ...ctx.params, arguments: { ...args, added: true } }).then((result) => ({ ...result, rewritten: true }));
      }
      return next();
    });
    const client = await rawClient(server);
    await client.initialize();
    const counted = await client.request('tools/call', { name: 'count', arguments: {} });
    expect(text(counted)).toBe('cached');
    expect(ran).toBe(0);
    const echoed = (await client.modern('tools/call', { name: 'echo', arguments: { a: 1 } })) as JsonObject;
    expect(JSON.parse(text(echoed))).toEqual({ a: 1, added: true });
    expect(echoed.rewritten).toBe(true);
    // A 2026-07-28 answer from a middleware is still stamped by the server.
    expect(echoed._meta).toBeDefined();
    await expect(client.request('tools/call', { name: 'forbidden', arguments: {} })).rejects.toMatchObject({
      code: -32602,
      message: 'not for you',
    });
  });

  test('a plain error is an internal error without its message; next twice and a non-object result too; the server keeps serving', async () => {
    const reported: unknown[] = [];
    const server = new McpServer({ name: 'mw', version: '1.0.0' }, { onInternalError: (error) => reported.push(error) });
    servers.push(server);
    server.registerTool({ name: 'echo', inputSchema: { type: 'object' } }, async () => ({ content: [] }));
    server.use(async (ctx, next) => {
      const mode = (ctx.params as { arguments?: { mode?: string } } | undefined)?.arguments?.mode;
      if (mode === 'throw') throw new Error('secret detail');
      if (mode === 'twice') {
        await next();
        return next();
      }
      if (mode === 'nothing') return undefined as unknown as JsonObject;
      return next();
    });
    const client = await rawClient(server);
    await client.initialize();
    for (const mode of ['throw', 'twice', 'nothing']) {
      const refused = client.request('tools/call', { name: 'echo', arguments: { mode } });
      await expect(refused).rejects.toMatchObject({ code: -32603 });
      await expect(refused).rejects.not.toMatchObject({ message: expect.stringContaining('secret') });
    }
    expect(reported).toHaveLength(3);
    await expect(client.request('tools/call', { name: 'echo', arguments: {} })).resolves.toMatchObject({ content: [] });
  });

  test('the middleware after a rewrite sees the rewritten request (name, params, meta) with the same signal; a thenable result is adopted', async () => {
    const server = echoServer();
    servers.push(server);
    server.registerTool({ name: 'other', inputSchema: { type: 'object' } }, async () => ({ content: [{ type: 'text', text: 'other' }] }));
    const seen: Array<{ name: string | undefined; meta: unknown; aborted: boolean; sameSignal: boolean }> = [];
    let firstSignal: AbortSignal | undefined;
    server.use((ctx, next) => {
      firstSignal = ctx.signal;
      if (ctx.name !== 'echo') return next();
      return next({ name: 'other', arguments: {}, _meta: { rewritten: true } });
    });
    server.use((ctx, next) => {
      if (ctx.method === 'tools/call') {
        seen.push({ name: ctx.name, meta: ctx.meta, aborted: ctx.signal.aborted, sameSignal: ctx.signal === firstSignal });
      }
      // A thenable that is not a Promise (another promise library's) is waited for, then checked like a result.
      return { then: (resolve: (value: JsonObject) => void) => void next().then(resolve) } as unknown as JsonObject;
    });
    const client = await rawClient(server);
    await client.initialize();
    expect(text(await client.request('tools/call', { name: 'echo', arguments: {} }))).toBe('other');
    expect(seen).toEqual([{ name: 'other', meta: { rewritten: true }, aborted: false, sameSignal: true }]);
  });

  test('wraps lists, reads, prompts, completion and dispatch exchanges; refuses non-functions', async () => {
    const server = echoServer();
    servers.push(server);
    server.registerResource({ uri: 'test://a', name: 'a' }, async () => ({ contents: [{ uri: 'test://a', text: 'A' }] }));
    server.registerPrompt({ name: 'p' }, async () => ({ messages: [] }));
    const methods: Array<[string, string | undefined]> = [];
    server.use((ctx, next) => {
      methods.push([ctx.method, ctx.name]);
      return next();
    });
    expect(() => server.use('nope' as never)).toThrow(/middleware function/);
    const client = await rawClient(server);
    await client.modern('tools/list');
    await client.modern('resources/read', { uri: 'test://a' });
    await client.modern('prompts/get', { name: 'p' });
    const response = await server.dispatch({ jsonrpc: '2.0', id: 9, method: 'resources/list', params: modernParams() }, { notify() {} });
    expect(response).toMatchObject({ id: 9, result: { resources: [{ uri: 'test://a' }] } });
    expect(methods).toEqual([
      ['tools/list', undefined],
      ['resources/read', 'test://a'],
      ['prompts/get', 'p'],
      ['resources/list', undefined],
    ]);
  });
});

function modernParams(): JsonObject {
  return {
    _meta: {
      'io.modelcontextprotocol/protocolVersion': '2026-07-28',
      'io.modelcontextprotocol/clientCapabilities': {},
      'io.modelcontextprotocol/clientInfo': { name: 'd', version: '1' },
    },
  };
}
