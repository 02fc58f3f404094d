import { describe, expect, test } from 'vitest';
import { McpServer } from './mcp-server.js';
import { ResourceNotFoundError } from './resource-registry.js';
import { rawClient, text } from './server.test-util.js';
import type { CallToolResult } from './types.js';

const INFO = { name: 'resources', version: '1.0.0' };
const HOUR = 3_600_000;

function textOf(uri: string, body: string) {
  return { contents: [{ uri, mimeType: 'text/plain', text: body }] };
}

describe('per-resource caching hints', () => {
  function hinted() {
    const server = new McpServer(INFO, { caching: { default: { ttlMs: 5_000, cacheScope: 'public' } } });
    server.registerResource({ uri: 'demo://fixed', name: 'fixed' }, (uri) => textOf(uri, 'fixed'), {
      cache: { ttlMs: HOUR, cacheScope: 'public' },
    });
    server.registerResource({ uri: 'demo://mine', name: 'mine' }, (uri) => ({ ...textOf(uri, 'mine'), ttlMs: 10, cacheScope: 'private' }), {
      cache: { ttlMs: HOUR, cacheScope: 'public' },
    });
    server.registerResource({ uri: 'demo://plain', name: 'plain' }, (uri) => textOf(uri, 'plain'));
    server.registerResourceTemplate({ uriTemplate: 'demo://t/{id}', name: 't' }, async (uri) => textOf(uri, 't'), {
      cache: { ttlMs: 60_000, cacheScope: 'private' },
    });
    return server;
  }

  test('2026-07-28 reads carry the resource hint, a reader-given hint wins, the method default fills the rest', async () => {
    const client = await rawClient(hinted());
    expect(await client.modern('resources/read', { uri: 'demo://fixed' })).toMatchObject({ ttlMs: HOUR, cacheScope: 'public' });
    expect(await client.modern('resources/read', { uri: 'demo://mine' })).toMatchObject({ ttlMs: 10, cacheScope: 'private' });
    expect(await client.modern('resources/read', { uri: 'demo://plain' })).toMatchObject({ ttlMs: 5_000, cacheScope: 'public' });
    expect(await client.modern('resources/read', { uri: 'demo://t/1' })).toMatchObject({ ttlMs: 60_000, cacheScope: 'private' });
  });

  test('legacy reads never carry hints, not even those a reader returned', async () => {
    const client = await rawClient(hinted());
    await client.initialize();
    for (const uri of ['demo://fixed', 'demo://mine', 'demo://t/1']) {
      const result = await client.request('resources/read', { uri });
      expect(result).not.toHaveProperty('ttlMs');
      expect(result).not.toHaveProperty('cacheScope');
      expect(result).not.toHaveProperty('resultType');
    }
  });

  test('every page of the resource list has one scope: private when a listing template says so, with the shortest ttl', async () => {
    const server = new McpServer(INFO, { pageSize: 2, caching: { 'resources/list': { ttlMs: HOUR, cacheScope: 'public' } } });
    for (const n of [1, 2, 3]) server.registerResource({ uri: `demo://${n}`, name: `r${n}` }, (uri) => textOf(uri, ''));
    server.registerResourceTemplate({ uriTemplate: 'demo://user/{n}', name: 'user' }, (uri) => textOf(uri, ''), {
      list: () => [{ uri: 'demo://user/1', name: 'u1' }],
      listCache: { ttlMs: 30_000, cacheScope: 'private' },
    });
    const client = await rawClient(server);
    const first = await client.modern('resources/list');
    const second = await client.modern('resources/list', { cursor: first.nextCursor! });
    expect(first).toMatchObject({ ttlMs: 30_000, cacheScope: 'private' });
    expect(second).toMatchObject({ ttlMs: 30_000, cacheScope: 'private' });
    expect(second.nextCursor).toBeUndefined();
    await client.initialize();
    expect(await client.request('resources/list')).not.toHaveProperty('cacheScope');
  });

  test('bad hints are refused when registered', () => {
    const server = new McpServer(INFO);
    const read = (uri: string) => textOf(uri, '');
    expect(() => server.registerResource({ uri: 'a://1', name: 'a' }, read, { cache: { ttlMs: -1, cacheScope: 'public' } })).toThrow(
      /ttlMs/,
    );
    expect(() =>
      server.registerResourceTemplate({ uriTemplate: 'a://{x}', name: 'a' }, read, {
        cache: { ttlMs: 1, cacheScope: 'shared' as 'public' },
      }),
    ).toThrow(/cacheScope/);
    expect(() => new McpServer(INFO, { caching: { 'tools/list': { ttlMs: 1.5, cacheScope: 'public' } } })).toThrow(/ttlMs/);
  });
});

describe('updating a registered resource', () => {
  test('update changes the listing entry in place and announces list_changed', async () => {
    const server = new McpServer(INFO);
    const first = server.registerResource({ uri: 'demo://1', name: 'one', size: 1 }, (uri) => textOf(uri, '1'));
    server.registerResource({ uri: 'demo://2', name: 'two' }, (uri) => textOf(uri, '2'));
    const client = await rawClient(server);
    await client.initialize();
    first.update({ title: 'One', size: 42, annotations: { lastModified: '2026-01-01T00:00:00Z' } });
    await client.notified(1, 'notifications/resources/list_changed');
    const { resources } = await client.request('resources/list');
    expect(resources.map((r) => r.uri)).toEqual(['demo://1', 'demo://2']);
    expect(resources[0]).toEqual({
      uri: 'demo://1',
      name: 'one',
      title: 'One',
      size: 42,
      annotations: { lastModified: '2026-01-01T00:00:00Z' },
    });
  });

  test('a renamed resource keeps its place; its reader and hint can change; a taken URI is refused', async () => {
    const server = new McpServer(INFO);
    const first = server.registerResource({ uri: 'demo://1', name: 'one' }, (uri) => textOf(uri, 'old'));
    server.registerResource({ uri: 'demo://2', name: 'two' }, (uri) => textOf(uri, '2'));
    first.update({ uri: 'demo://renamed', read: (uri) => textOf(uri, 'new'), cache: { ttlMs: 7, cacheScope: 'private' } });
    expect(first.uri).toBe('demo://renamed');
    expect(() => first.update({ uri: 'demo://2' })).toThrow(/already registered/);
    const client = await rawClient(server);
    expect((await client.modern('resources/list')).resources.map((r) => r.uri)).toEqual(['demo://renamed', 'demo://2']);
    expect(await client.modern('resources/read', { uri: 'demo://renamed' })).toMatchObject({
      contents: [{ text: 'new' }],
      ttlMs: 7,
      cacheScope: 'private',
    });
    await expect(client.modern('resources/read', { uri: 'demo://1' })).rejects.toMatchObject({ code: -32602 });
  });

  test('a template updates in place: its options can be replaced or removed', async () => {
    const server = new McpServer(INFO);
    const template = server.registerResourceTemplate({ uriTemplate: 'a://{x}', name: 'a' }, (uri) => textOf(uri, 'a'), {
      list: () => [{ uri: 'a://1', name: '1' }],
    });
    server.registerResourceTemplate({ uriTemplate: 'b://{x}', name: 'b' }, (uri) => textOf(uri, 'b'));
    template.update({ uriTemplate: 'c://{y}', title: 'C', list: null, complete: { y: () => ['yes'] } });
    const client = await rawClient(server);
    expect((await client.modern('resources/templates/list')).resourceTemplates.map((t) => t.uriTemplate)).toEqual(['c://{y}', 'b://{x}']);
    expect((await client.modern('resources/list')).resources).toEqual([]);
    expect(
      await client.modern('completion/complete', { ref: { type: 'ref/resource', uri: 'c://{y}' }, argument: { name: 'y', value: '' } }),
    ).toMatchObject({
      completion: { values: ['yes'] },
    });
  });
});

describe('announcing list changes', () => {
  test('notify*ListChanged reach legacy sessions and listen streams, coalesced within a tick', async () => {
    const server = new McpServer(INFO, { capabilities: { tools: true, prompts: true, resources: true } });
    const legacy = await rawClient(server);
    await legacy.initialize();
    const modern = await rawClient(server);
    const listening = modern.modern('subscriptions/listen', { notifications: { resourcesListChanged: true, toolsListChanged: true } });
    await modern.notified(1, 'notifications/subscriptions/acknowledged');
    server.notifyResourceListChanged();
    server.notifyResourceListChanged();
    server.notifyToolListChanged();
    server.notifyPromptListChanged();
    await legacy.settle();
    await modern.notified(1, 'notifications/tools/list_changed');
    expect(legacy.notifications.map((n) => n.method)).toEqual([
      'notifications/resources/list_changed',
      'notifications/tools/list_changed',
      'notifications/prompts/list_changed',
    ]);
    expect(modern.notifications.filter((n) => n.method.endsWith('list_changed')).map((n) => n.method)).toEqual([
      'notifications/resources/list_changed',
      'notifications/tools/list_changed',
    ]);
    await server.close();
    await listening;
  });
});

describe('page sizes and listing order', () => {
  test('each list has its own page size, with a default for the others; bad sizes are refused', async () => {
    const server = new McpServer(INFO, { pageSize: { default: 3, resources: 1 } });
    for (const n of [1, 2, 3, 4]) {
      server.registerResource({ uri: `r://${n}`, name: `r${n}` }, (uri) => textOf(uri, ''));
      server.registerPrompt({ name: `p${n}` }, () => ({ messages: [] }));
    }
    const client = await rawClient(server);
    expect((await client.modern('resources/list')).resources).toHaveLength(1);
    expect((await client.modern('prompts/list')).prompts).toHaveLength(3);
    expect(() => new McpServer(INFO, { pageSize: { tools: 0 } })).toThrow(/pageSize of tools/);
    expect(() => new McpServer(INFO, { pageSize: 2.5 })).toThrow(/integer/);
  });

  test('template-listed resources come after every fixed one, or where the template was registered', async () => {
    const build = (order?: 'registration' | 'direct-first') => {
      const server = new McpServer(INFO, order ? { resourceListOrder: order } : {});
      server.registerResource({ uri: 'a://first', name: 'first' }, (uri) => textOf(uri, ''));
      server.registerResourceTemplate({ uriTemplate: 'e://{n}', name: 'e' }, (uri) => textOf(uri, ''), {
        list: () => [
          { uri: 'e://1', name: 'e1' },
          { uri: 'e://2', name: 'e2' },
        ],
      });
      server.registerResource({ uri: 'a://last', name: 'last' }, (uri) => textOf(uri, ''));
      return server;
    };
    const uris = async (server: McpServer) => (await (await rawClient(server)).modern('resources/list')).resources.map((r) => r.uri);
    expect(await uris(build())).toEqual(['a://first', 'a://last', 'e://1', 'e://2']);
    expect(await uris(build('registration'))).toEqual(['a://first', 'e://1', 'e://2', 'a://last']);
  });

  test("a template's list callback gets the request's context", async () => {
    const server = new McpServer(INFO);
    const seen: string[] = [];
    server.registerResourceTemplate({ uriTemplate: 'e://{n}', name: 'e' }, (uri) => textOf(uri, ''), {
      list: (ctx) => {
        seen.push(`${ctx.era} ${ctx.protocolVersion} ${ctx.clientInfo?.name}`);
        return [];
      },
    });
    const client = await rawClient(server);
    await client.modern('resources/list');
    await client.initialize();
    await client.request('resources/list');
    expect(seen).toEqual(['modern 2026-07-28 modern-client', 'legacy 2025-11-25 test-client']);
  });
});

describe("a handler reads the server's own resources", () => {
  test('server.readResource runs the reader with the handler context, without hints; unknown URIs reject', async () => {
    const server = new McpServer(INFO);
    server.registerResource({ uri: 'doc://a', name: 'a' }, (uri, ctx) => ({
      ...textOf(uri, `read in ${ctx.era}`),
      ttlMs: 5,
      cacheScope: 'public',
    }));
    server.registerResourceTemplate({ uriTemplate: 'doc://t/{id}', name: 't' }, (uri, variables) =>
      textOf(uri, `t ${String(variables.id)}`),
    );
    server.registerTool({ name: 'embed', inputSchema: { type: 'object', properties: { uri: { type: 'string' } } } }, async (args, ctx) => {
      const read = await server.readResource(String(args.uri), ctx);
      expect(read).not.toHaveProperty('ttlMs');
      return { content: read.contents.map((resource) => ({ type: 'resource' as const, resource })) };
    });
    const client = await rawClient(server);
    const call = async (uri: string) => (await client.modern('tools/call', { name: 'embed', arguments: { uri } })) as CallToolResult;
    const embedded = await call('doc://a');
    expect(embedded.content).toEqual([{ type: 'resource', resource: { uri: 'doc://a', mimeType: 'text/plain', text: 'read in modern' } }]);
    const fromTemplate = await call('doc://t/7');
    expect(fromTemplate.content?.[0]).toMatchObject({ resource: { text: 't 7' } });
    const missing = await call('doc://none');
    expect(missing.isError).toBe(true);
    expect(text(missing)).toBe('Resource not found: doc://none');
    await expect(server.readResource('doc://none', {} as never)).rejects.toBeInstanceOf(ResourceNotFoundError);
  });
});
