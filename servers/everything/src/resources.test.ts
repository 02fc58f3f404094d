import { MetaKey } from '@wiremcp/protocol';
import { describe, expect, test } from 'vitest';
import { connectEverything, ERAS, resourceText } from './everything.test-util.js';
import { PNG_MIME_TYPE, RED_PIXEL_PNG_BASE64 } from './media.js';
import { ITEM_COUNT, STATIC_TEXT } from './resources.js';

describe.each(ERAS)('resources (%s)', (era) => {
  test('resources/list pages through the fixed resources and the numbered items; every entry has a description', async () => {
    const client = await connectEverything(era);
    const first = await client.call('resources/list');
    expect(first.resources).toHaveLength(100);
    expect(first.resources.slice(0, 3).map((r: { uri: string }) => r.uri)).toEqual([
      'test://static-text',
      'test://static-binary',
      'test://watched-resource',
    ]);
    expect(typeof first.nextCursor).toBe('string');
    const second = await client.call('resources/list', { cursor: first.nextCursor });
    expect(second.nextCursor).toBeUndefined();
    const all = [...first.resources, ...second.resources];
    // The fixed three, the numbered items, the SKILL.md of each of the four skills and the counter App's view.
    expect(all).toHaveLength(3 + ITEM_COUNT + 4 + 1);
    for (const resource of all)
      expect(resource).toMatchObject({ uri: expect.any(String), name: expect.any(String), description: expect.any(String) });
    expect(all[0]).toMatchObject({ mimeType: 'text/plain', annotations: { priority: 0.8 }, icons: [{ mimeType: 'image/svg+xml' }] });
    await expect(client.call('resources/list', { cursor: 'not-a-cursor' })).rejects.toMatchObject({ code: -32602 });
  });

  test('a smaller page size paginates every list', async () => {
    const client = await connectEverything(era, { serverOptions: { pageSize: 2 } });
    const tools = await client.call('tools/list');
    expect(tools.tools).toHaveLength(2);
    expect(typeof tools.nextCursor).toBe('string');
    const prompts = await client.call('prompts/list');
    expect(prompts.prompts).toHaveLength(2);
    const next = await client.call('prompts/list', { cursor: prompts.nextCursor });
    expect(next.prompts).toHaveLength(2);
  });

  test('reads the static text and the static binary', async () => {
    const client = await connectEverything(era);
    expect((await client.call('resources/read', { uri: 'test://static-text' })).contents).toEqual([
      { uri: 'test://static-text', mimeType: 'text/plain', text: STATIC_TEXT },
    ]);
    expect((await client.call('resources/read', { uri: 'test://static-binary' })).contents).toEqual([
      { uri: 'test://static-binary', mimeType: PNG_MIME_TYPE, blob: RED_PIXEL_PNG_BASE64 },
    ]);
  });

  test('templates are listed, and test://template/{id}/data substitutes the id', async () => {
    const client = await connectEverything(era);
    const { resourceTemplates } = await client.call('resources/templates/list');
    expect(resourceTemplates.map((t) => t.uriTemplate)).toEqual(['test://template/{id}/data', 'test://items/{n}', 'skill://{+path}']);
    const { contents } = await client.call('resources/read', { uri: 'test://template/123/data' });
    expect(contents).toEqual([
      { uri: 'test://template/123/data', mimeType: 'application/json', text: '{"id":"123","templateTest":true,"data":"Data for ID: 123"}' },
    ]);
    expect(resourceText(await client.call('resources/read', { uri: 'test://items/150' }))).toBe('Item 150 of 150');
  });

  test('a missing resource is -32002 in legacy revisions and -32602 in 2026-07-28', async () => {
    const client = await connectEverything(era);
    for (const uri of ['test://nonexistent-resource-for-conformance-testing', 'test://items/151', 'test://items/007']) {
      await expect(client.call('resources/read', { uri })).rejects.toMatchObject({
        code: era === 'legacy' ? -32002 : -32602,
        data: { uri },
      });
    }
  });

  test('completion: template variables and prompt arguments, with context', async () => {
    const client = await connectEverything(era);
    const complete = (ref: Record<string, unknown>, name: string, value: string, context?: Record<string, string>) =>
      client.call('completion/complete', { ref, argument: { name, value }, ...(context ? { context: { arguments: context } } : {}) });
    expect((await complete({ type: 'ref/resource', uri: 'test://template/{id}/data' }, 'id', '12')).completion).toEqual({
      values: ['123', '124', '125'],
      total: 3,
      hasMore: false,
    });
    expect((await complete({ type: 'ref/resource', uri: 'test://items/{n}' }, 'n', '1')).completion).toMatchObject({
      total: 62,
      hasMore: false,
    });
    expect((await complete({ type: 'ref/prompt', name: 'test_prompt_with_arguments' }, 'arg1', 'par')).completion.values).toEqual([
      'paris',
      'park',
      'party',
    ]);
    expect((await complete({ type: 'ref/prompt', name: 'test_prompt_with_arguments' }, 'arg1', 'test')).completion.values).toEqual([
      'test',
      'testing',
    ]);
    expect(
      (await complete({ type: 'ref/prompt', name: 'test_prompt_with_arguments' }, 'arg2', '', { arg1: 'hi' })).completion.values,
    ).toEqual(['hi-world', 'hi-again', 'hi-hi']);
    await expect(complete({ type: 'ref/prompt', name: 'nope' }, 'x', '')).rejects.toMatchObject({ code: -32602 });
  });
});

describe('watched resource subscriptions', () => {
  test('legacy: subscribe answers {}, updates arrive for subscribed URIs only, unsubscribe stops them', async () => {
    const client = await connectEverything('legacy');
    expect(await client.call('resources/subscribe', { uri: 'test://watched-resource' })).toEqual({});
    await client.tool('test_update_watched_resource');
    await client.settle();
    expect(client.received('notifications/resources/updated')).toEqual([{ uri: 'test://watched-resource' }]);
    expect(resourceText(await client.call('resources/read', { uri: 'test://watched-resource' }))).toBe(
      'Watched resource content (version 2)',
    );
    expect(await client.call('resources/unsubscribe', { uri: 'test://watched-resource' })).toEqual({});
    const bumped = await client.tool('test_update_watched_resource');
    expect(bumped.structuredContent).toEqual({ uri: 'test://watched-resource', version: 3 });
    await client.settle();
    expect(client.received('notifications/resources/updated')).toHaveLength(1);
  });

  test('2026-07-28: a listen stream with resourceSubscriptions gets tagged updates; resources/subscribe does not exist', async () => {
    const client = await connectEverything('modern');
    await expect(client.modern('resources/subscribe', { uri: 'test://watched-resource' })).rejects.toMatchObject({ code: -32601 });
    const controller = new AbortController();
    const listen = client.peer.request(
      'subscriptions/listen',
      {
        notifications: { resourceSubscriptions: ['test://watched-resource'] },
        _meta: { [MetaKey.protocolVersion]: '2026-07-28', [MetaKey.clientCapabilities]: {} },
      },
      { signal: controller.signal },
    );
    await client.settle();
    const [ack] = client.received('notifications/subscriptions/acknowledged');
    expect(ack?.notifications).toEqual({ resourceSubscriptions: ['test://watched-resource'] });
    const id = ack?._meta?.[MetaKey.subscriptionId];
    await client.tool('test_update_watched_resource');
    await client.settle();
    expect(client.received('notifications/resources/updated')).toEqual([
      { _meta: { [MetaKey.subscriptionId]: id }, uri: 'test://watched-resource' },
    ]);
    controller.abort();
    await expect(listen).rejects.toMatchObject({ code: 'REQUEST_CANCELLED' });
  });
});
