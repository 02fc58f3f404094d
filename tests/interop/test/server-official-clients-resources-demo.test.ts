/**
 * The resources demo (its built bin) driven over stdio by the official MCP TypeScript clients: v1
 * (`@modelcontextprotocol/sdk`), v2 (`@modelcontextprotocol/client`) with its default negotiation (legacy), with
 * `versionNegotiation: 'auto'` and pinned to 2026-07-28 (modern). Each test uses the client's own API and, where
 * the era matters, checks the wire (pages requested, error codes, caching hints, subscription ids).
 */
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { afterAll, afterEach, beforeAll, describe, expect, test } from 'vitest';
import type { JsonObject, Resource } from '@wiremcp/protocol';
import {
  closeAll,
  connectOfficial,
  eraOnTheWire,
  resourceTextOf,
  type Flavor,
  type OfficialConnection,
} from './server-official-clients-helpers.js';

const BIN = fileURLToPath(new URL('../../../servers/resources-demo/bin/wiremcp-resources-demo.js', import.meta.url));
const DIST = fileURLToPath(new URL('../../../servers/resources-demo/dist/bin.js', import.meta.url));
const SUBSCRIPTION_ID = 'io.modelcontextprotocol/subscriptionId';
const UPDATED = 'notifications/resources/updated';
const LIST_CHANGED = 'notifications/resources/list_changed';
/** 8 catalogue files, 6 other direct resources, the browse-catalogue skill's SKILL.md, 118 elements. */
const RESOURCE_COUNT = 133;

/** Notification params as the helpers deliver them. */
type Json = JsonObject;

beforeAll(() => {
  if (!existsSync(DIST)) throw new Error(`${DIST} is missing: run \`turbo run build\` first`);
});

const leftovers: number[] = [];
afterEach(async () => {
  leftovers.push(...(await closeAll()));
});
afterAll(() => {
  // Every server process ended on its own when its client closed (the clock's timer never holds one open).
  expect(leftovers).toEqual([]);
});

const CLIENTS: Array<{ flavor: Flavor; era: 'legacy' | 'modern'; version: string }> = [
  { flavor: 'v1', era: 'legacy', version: '2025-11-25' },
  { flavor: 'v2', era: 'legacy', version: '2025-11-25' },
  { flavor: 'v2-auto', era: 'modern', version: '2026-07-28' },
  { flavor: 'v2-pin', era: 'modern', version: '2026-07-28' },
];

/** Collects the resource notifications of a connection; `next` waits (bounded) for one not returned before. */
function inbox(connection: OfficialConnection) {
  const seen: Array<{ method: string; params: Json }> = [];
  const taken = new Set<number>();
  const wakers = new Set<() => void>();
  for (const method of [UPDATED, LIST_CHANGED] as const) {
    connection.onNotification(method, (params) => {
      seen.push({ method, params: params ?? {} });
      for (const wake of [...wakers]) wake();
    });
  }
  const find = (method: string, accept: (params: Json) => boolean) => {
    const index = seen.findIndex((item, i) => !taken.has(i) && item.method === method && accept(item.params));
    if (index >= 0) taken.add(index);
    return index >= 0 ? seen[index]!.params : undefined;
  };
  return {
    seen,
    next(method: string, accept: (params: Json) => boolean = () => true): Promise<Json> {
      const found = find(method, accept);
      if (found) return Promise.resolve(found);
      return new Promise((resolve, reject) => {
        const timer = setTimeout(() => {
          wakers.delete(wake);
          reject(new Error(`no ${method} within 5 s; seen ${JSON.stringify(seen)}`));
        }, 5000);
        const wake = () => {
          const item = find(method, accept);
          if (item === undefined) return;
          clearTimeout(timer);
          wakers.delete(wake);
          resolve(item);
        };
        wakers.add(wake);
      });
    },
  };
}

/** The text of a read's first contents, parsed as JSON. */
const json = (result: { contents: ReadonlyArray<{ uri: string }> }): Record<string, unknown> =>
  JSON.parse(resourceTextOf(result) ?? 'null') as Record<string, unknown>;

describe.each(CLIENTS)('official $flavor client → resources demo', ({ flavor, era, version }) => {
  const connect = () => connectOfficial(flavor, { bin: BIN, args: ['--tick-ms', '50'] });

  test(`negotiates the ${era} era at ${version}`, async () => {
    const connection = await connect();
    await connection.client.listTools();
    expect(eraOnTheWire(connection)).toEqual({ era, version });
    expect(connection.serverInfo()).toMatchObject({ name: 'wiremcp-resources-demo', version: '0.1.0' });
    if (connection.v2) expect(connection.v2.getProtocolEra()).toBe(era);
  });

  test('resources/list in pages of five, text and blob contents, several contents in one read', async () => {
    const connection = await connect();
    const { client } = connection;
    let resources: Resource[];
    if (flavor === 'v1') {
      // v1 returns one page at a time; the cursors bring the rest.
      const first = await client.listResources();
      expect(first.resources).toHaveLength(5);
      resources = [...first.resources];
      for (let cursor = first.nextCursor; cursor !== undefined;) {
        const page = await client.listResources({ cursor });
        resources.push(...page.resources);
        cursor = page.nextCursor;
      }
    } else {
      // v2 walks every page itself.
      resources = (await client.listResources()).resources;
    }
    expect(resources).toHaveLength(RESOURCE_COUNT);
    expect(connection.wire.sent.filter((message) => message.method === 'resources/list')).toHaveLength(Math.ceil(RESOURCE_COUNT / 5));
    expect(resources[0]).toMatchObject({
      uri: 'demo://files/docs/welcome.md',
      title: 'Welcome',
      mimeType: 'text/markdown',
      size: expect.any(Number),
      annotations: { audience: ['user', 'assistant'], priority: 1, lastModified: '2026-11-20T09:00:00Z' },
      icons: [{ mimeType: 'image/svg+xml', sizes: ['any'] }],
    });
    expect(resourceTextOf(await client.readResource({ uri: 'demo://files/docs/welcome.md' }))).toMatch(/^# Welcome to the resources demo/);
    expect((await client.readResource({ uri: 'demo://files/images/pixel-art/heart.png' })).contents[0]).toMatchObject({
      mimeType: 'image/png',
      blob: expect.stringMatching(/^iVBORw0KGgo/),
    });
    const folder = await client.readResource({ uri: 'demo://folders/images' });
    expect(folder.contents.map((item) => item.uri)).toEqual(['demo://folders/images', 'demo://files/images/logo.svg']);
  });

  test('templates beyond level 1, completion that depends on context.arguments, invalid cursors and missing resources', async () => {
    const connection = await connect();
    const { client } = connection;
    const templates = (await client.listResourceTemplates()).resourceTemplates.map((template) => template.uriTemplate);
    expect(templates.slice(0, 4)).toEqual([
      'demo://files/{folder}/{+name}',
      'demo://folders{/segments*}',
      'skill://{+path}',
      'demo://search{?q,limit}',
    ]);
    expect(templates).toHaveLength(flavor === 'v1' ? 5 : 7);

    expect(json(await client.readResource({ uri: 'demo://search?q=iron&limit=5' }))).toMatchObject({
      total: 1,
      results: [{ uri: 'demo://elements/Fe' }],
    });
    expect((await client.readResource({ uri: 'demo://files/images/pixel-art/star.png' })).contents[0]?.mimeType).toBe('image/png');
    const names = await client.complete({
      ref: { type: 'ref/resource', uri: 'demo://files/{folder}/{+name}' },
      argument: { name: 'name', value: '' },
      context: { arguments: { folder: 'images' } },
    });
    expect(names.completion.values).toEqual(['logo.svg', 'pixel-art/heart.png', 'pixel-art/star.png']);
    const symbols = await client.complete({
      ref: { type: 'ref/resource', uri: 'demo://elements/{symbol}' },
      argument: { name: 'symbol', value: 'iro' },
    });
    expect(symbols.completion.values).toEqual(['Fe']);

    await expect(client.listResources({ cursor: 'page-2' })).rejects.toMatchObject({ code: -32602 });
    await client.readResource({ uri: 'demo://elements/Xx' }).catch(() => undefined);
    expect(connection.wire.received.at(-1)).toMatchObject({
      error: { code: era === 'legacy' ? -32002 : -32602, data: { uri: 'demo://elements/Xx' } },
    });
  });

  test('notes: add, edit and delete bring list_changed and updated; results carry a resource_link and an embedded resource', async () => {
    const connection = await connect();
    const { client } = connection;
    const notifications = inbox(connection);
    const subscription =
      era === 'modern' ? await connection.v2!.listen({ resourcesListChanged: true, resourceSubscriptions: ['demo://notes/1'] }) : undefined;
    expect(subscription?.honoredFilter).toEqual(
      era === 'modern' ? { resourcesListChanged: true, resourceSubscriptions: ['demo://notes/1'] } : undefined,
    );

    const added = await connection.callTool({ name: 'add_note', arguments: { title: 'Interop', text: 'first' } });
    expect(added.content[1]).toMatchObject({
      type: 'resource_link',
      uri: 'demo://notes/1',
      title: 'Interop',
      mimeType: 'text/markdown',
      size: 5,
    });
    await notifications.next(LIST_CHANGED);
    if (era === 'legacy') expect(await client.subscribeResource({ uri: 'demo://notes/1' })).toEqual({});

    const edited = await connection.callTool({ name: 'edit_note', arguments: { uri: 'demo://notes/1', text: 'second' } });
    expect(edited.content[1]).toEqual({ type: 'resource', resource: { uri: 'demo://notes/1', mimeType: 'text/markdown', text: 'second' } });
    const updated = await notifications.next(UPDATED, (params) => params.uri === 'demo://notes/1');
    if (era === 'modern') expect(updated._meta).toEqual({ [SUBSCRIPTION_ID]: expect.anything() });
    expect(resourceTextOf(await client.readResource({ uri: 'demo://notes/1' }))).toBe('second');

    await connection.callTool({ name: 'delete_note', arguments: { uri: 'demo://notes/1' } });
    await notifications.next(LIST_CHANGED);
    expect((await connection.callTool({ name: 'delete_note', arguments: { uri: 'demo://notes/1' } })).isError).toBe(true);
    await subscription?.close();
  });

  test('the clock ticks by itself and its subscribers hear of it', async () => {
    const connection = await connect();
    const { client } = connection;
    const notifications = inbox(connection);
    let subscription: { close(): Promise<void> } | undefined;
    if (era === 'legacy') expect(await client.subscribeResource({ uri: 'demo://live/clock' })).toEqual({});
    else subscription = await connection.v2!.listen({ resourceSubscriptions: ['demo://live/clock'] });
    await notifications.next(UPDATED, (params) => params.uri === 'demo://live/clock');
    await notifications.next(UPDATED, (params) => params.uri === 'demo://live/clock');
    expect(json(await client.readResource({ uri: 'demo://live/clock' })).tick).toBeGreaterThanOrEqual(2);
    if (era === 'legacy') expect(await client.unsubscribeResource({ uri: 'demo://live/clock' })).toEqual({});
    await subscription?.close();
  });

  test(era === 'modern' ? 'caching hints differ per resource on the wire' : 'legacy results carry no caching hints', async () => {
    const connection = await connect();
    const { client } = connection;
    const hints = async (uri: string) => {
      await client.readResource({ uri });
      const answer = connection.wire.received
        .map((message) => message.result as { contents?: Array<{ uri: string }>; ttlMs?: number; cacheScope?: string } | undefined)
        .filter((result) => result?.contents?.[0]?.uri === uri)
        .at(-1);
      return { ttlMs: answer?.ttlMs, cacheScope: answer?.cacheScope };
    };
    if (era === 'legacy') {
      expect(await hints('demo://files/docs/caching.md')).toEqual({ ttlMs: undefined, cacheScope: undefined });
      return;
    }
    expect(await hints('demo://files/docs/caching.md')).toEqual({ ttlMs: 3_600_000, cacheScope: 'public' });
    expect(await hints('demo://elements/He')).toEqual({ ttlMs: 86_400_000, cacheScope: 'public' });
    expect(await hints('demo://live/log')).toEqual({ ttlMs: 0, cacheScope: 'public' });
    expect(await hints('demo://request')).toEqual({ ttlMs: 60_000, cacheScope: 'private' });
  });

  test('prompts embed a resource and link a folder’s files; find_resources and embed_resource', async () => {
    const connection = await connect();
    const { client } = connection;
    const discuss = await client.getPrompt({ name: 'discuss_resource', arguments: { uri: 'demo://elements/Au' } });
    expect(discuss.messages[0]?.content).toMatchObject({
      type: 'resource',
      resource: { uri: 'demo://elements/Au', mimeType: 'application/json' },
    });
    const tour = await client.getPrompt({ name: 'tour', arguments: { folder: 'docs' } });
    expect(tour.messages.slice(1).map((message) => message.content.type)).toEqual([
      'resource_link',
      'resource_link',
      'resource_link',
      'resource_link',
    ]);
    const found = await connection.callTool({ name: 'find_resources', arguments: { query: 'pixel' } });
    expect(found.content.flatMap((block) => (block.type === 'resource_link' ? [block.uri] : []))).toEqual([
      'demo://files/images/pixel-art/heart.png',
      'demo://files/images/pixel-art/star.png',
    ]);
    const embedded = await connection.callTool({ name: 'embed_resource', arguments: { uri: 'demo://files/images/pixel-art/star.png' } });
    expect(embedded.content[1]).toMatchObject({ type: 'resource', resource: { mimeType: 'image/png', blob: expect.any(String) } });
    await expect(client.getPrompt({ name: 'tour', arguments: { folder: 'nope' } })).rejects.toMatchObject({ code: -32602 });
  });
});
