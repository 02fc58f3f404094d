import { describe, expect, test } from 'vitest';
import { createResourcesDemo } from './resources-demo.js';
import { connectDemo, ERAS, watch } from './resources-demo.test-util.js';

const UPDATED = 'notifications/resources/updated';
const LIST_CHANGED = 'notifications/resources/list_changed';
const SUBSCRIPTION_ID = 'io.modelcontextprotocol/subscriptionId';

describe.each(ERAS)('changes (%s)', (era) => {
  test('add_note: a new resource, list_changed, and a resource_link to it in the result', async () => {
    const connection = await connectDemo(era);
    const { client } = connection;
    const watcher = await watch(connection, { resourcesListChanged: true });
    const result = await client.callTool('add_note', {
      title: 'Shopping',
      text: 'milk\neggs',
      audience: ['user', 'assistant'],
      priority: 0.9,
    });
    expect(result.isError).toBeUndefined();
    expect(result.content).toEqual([
      { type: 'text', text: 'Added demo://notes/1.' },
      {
        type: 'resource_link',
        uri: 'demo://notes/1',
        name: 'notes-1',
        title: 'Shopping',
        description: 'milk',
        mimeType: 'text/markdown',
        size: 9,
        annotations: { audience: ['user', 'assistant'], priority: 0.9, lastModified: expect.stringMatching(/^\d{4}-\d\d-\d\dT/) },
        icons: [expect.objectContaining({ mimeType: 'image/svg+xml' })],
      },
    ]);
    await watcher.next(LIST_CHANGED);
    const all = await client.listAllResources({ fresh: true });
    expect(all.find((resource) => resource.uri === 'demo://notes/1')).toMatchObject({ title: 'Shopping', size: 9 });
    expect((await client.readResource('demo://notes/1')).contents).toEqual([
      { uri: 'demo://notes/1', mimeType: 'text/markdown', text: 'milk\neggs' },
    ]);
  });

  test('edit_note: updated for the note (and list_changed: its size and lastModified changed); the result embeds it', async () => {
    const connection = await connectDemo(era);
    const { client } = connection;
    await client.callTool('add_note', { title: 'Draft', text: 'v1' });
    const watcher = await watch(connection, { resourcesListChanged: true, resourceSubscriptions: ['demo://notes/1'] });
    const edited = await client.callTool('edit_note', { uri: 'demo://notes/1', text: 'version two' });
    expect(edited.content).toEqual([
      { type: 'text', text: 'Edited demo://notes/1; it now reads:' },
      { type: 'resource', resource: { uri: 'demo://notes/1', mimeType: 'text/markdown', text: 'version two' } },
    ]);
    expect((await watcher.next(UPDATED)).params).toMatchObject({ uri: 'demo://notes/1' });
    await watcher.next(LIST_CHANGED);
    expect((await client.readResource('demo://notes/1')).contents[0]).toMatchObject({ text: 'version two' });
    const listed = (await client.listAllResources({ fresh: true })).find((resource) => resource.uri === 'demo://notes/1');
    expect(listed).toMatchObject({ title: 'Draft', size: 11 });
  });

  test('edit_note keeps the note in its place in the list (its entry is updated, not registered again)', async () => {
    const { client } = await connectDemo(era);
    await client.callTool('add_note', { title: 'First', text: '1' });
    await client.callTool('add_note', { title: 'Second', text: '2' });
    const notes = async () =>
      (await client.listAllResources({ fresh: true })).filter((resource) => resource.uri.startsWith('demo://notes/')).map((r) => r.title);
    expect(await notes()).toEqual(['First', 'Second']);
    await client.callTool('edit_note', { uri: 'demo://notes/1', text: 'one, edited', title: 'First, edited' });
    expect(await notes()).toEqual(['First, edited', 'Second']);
  });

  test('delete_note: list_changed, updated for its subscribers, and a read finds nothing; unknown notes are tool errors', async () => {
    const connection = await connectDemo(era);
    const { client } = connection;
    await client.callTool('add_note', { title: 'Temp', text: 'x' });
    const watcher = await watch(connection, { resourcesListChanged: true, resourceSubscriptions: ['demo://notes/1'] });
    expect((await client.callTool('delete_note', { uri: 'demo://notes/1' })).content).toEqual([
      { type: 'text', text: 'Deleted demo://notes/1.' },
    ]);
    await watcher.next(UPDATED, (params) => params.uri === 'demo://notes/1');
    await watcher.next(LIST_CHANGED);
    await expect(client.readResource('demo://notes/1')).rejects.toMatchObject({ code: era === 'legacy' ? -32002 : -32602 });
    expect(await client.callTool('delete_note', { uri: 'demo://notes/1' })).toMatchObject({
      content: [{ type: 'text', text: 'There is no note demo://notes/1.' }],
      isError: true,
    });
    expect((await client.callTool('edit_note', { uri: 'demo://files/docs/welcome.md', text: 'x' })).isError).toBe(true);
    // Arguments that fail the input schema are a tool error too.
    expect((await client.callTool('add_note', { title: '', text: 'x' })).isError).toBe(true);
  });

  test('the watched resource: updated after update_watched_resource, and nothing once unsubscribed', async () => {
    const connection = await connectDemo(era);
    const { client } = connection;
    const watcher = await watch(connection, { resourcesListChanged: true, resourceSubscriptions: ['test://watched-resource'] });
    await client.callTool('update_watched_resource', {});
    expect((await watcher.next(UPDATED)).params.uri).toBe('test://watched-resource');
    expect((await client.readResource('test://watched-resource')).contents[0]).toMatchObject({ text: 'Watched resource, version 2' });
    if (era === 'legacy') await client.unsubscribeResource('test://watched-resource');
    else await watcher.close();
    const before = watcher.seen.length;
    await client.callTool('update_watched_resource', {});
    // A later notification (the list change of add_note) shows the update would have arrived by now.
    const after = await watch(connection, { resourcesListChanged: true });
    await client.callTool('add_note', { title: 'later', text: 'x' });
    await after.next(LIST_CHANGED);
    expect([...watcher.seen.slice(before), ...after.seen].filter((item) => item.method === UPDATED)).toEqual([]);
  });

  test('the clock changes by itself: each tick is an update for its subscribers', async () => {
    const connection = await connectDemo(era);
    const { client, demo } = connection;
    const watcher = await watch(connection, { resourceSubscriptions: ['demo://live/clock'] });
    const read = async () =>
      JSON.parse(((await client.readResource('demo://live/clock', { fresh: true })).contents[0] as { text: string }).text);
    expect(await read()).toEqual({ time: expect.any(String), tick: 0 });
    demo.live.tick();
    await watcher.next(UPDATED, (params) => params.uri === 'demo://live/clock');
    demo.live.tick();
    await watcher.next(UPDATED, (params) => params.uri === 'demo://live/clock');
    expect(await read()).toMatchObject({ tick: 2 });
  });
});

describe('legacy subscriptions and 2026-07-28 listen streams', () => {
  test('a listen stream is acknowledged with what it honours, and every notification carries its subscription id', async () => {
    const connection = await connectDemo('modern');
    const { client, requests } = connection;
    const watcher = await watch(connection, { resourcesListChanged: true, resourceSubscriptions: ['demo://live/log'] });
    expect(watcher.acknowledged).toEqual({ resourcesListChanged: true, resourceSubscriptions: ['demo://live/log'] });
    const listenId = requests('subscriptions/listen').at(-1)!.id;
    await client.callTool('add_note', { title: 'tagged', text: 'x' });
    expect((await watcher.next(UPDATED)).params).toEqual({ uri: 'demo://live/log', _meta: { [SUBSCRIPTION_ID]: listenId } });
    expect((await watcher.next(LIST_CHANGED)).params).toEqual({ _meta: { [SUBSCRIPTION_ID]: listenId } });
  });

  test('one server, both eras at once: a legacy subscriber and a listen stream both hear of the same change', async () => {
    const demo = createResourcesDemo({ tickMs: 0 });
    const legacy = await connectDemo('legacy', { demo });
    const modern = await connectDemo('modern', { demo });
    const legacyWatcher = await watch(legacy, { resourceSubscriptions: ['test://watched-resource'] });
    const modernWatcher = await watch(modern, { resourceSubscriptions: ['test://watched-resource'] });
    await modern.client.callTool('update_watched_resource', {});
    expect((await legacyWatcher.next(UPDATED)).params).toEqual({ uri: 'test://watched-resource' });
    expect((await modernWatcher.next(UPDATED)).params).toMatchObject({
      uri: 'test://watched-resource',
      _meta: { [SUBSCRIPTION_ID]: expect.anything() },
    });
    expect(legacy.requests('resources/subscribe')).toHaveLength(1);
    expect(modern.requests('resources/subscribe')).toHaveLength(0);
  });

  test('resources/subscribe does not exist in 2026-07-28 (-32601); subscriptions/listen does not exist before it', async () => {
    const modern = await connectDemo('modern');
    await expect(modern.client.request('resources/subscribe', { uri: 'test://watched-resource' })).rejects.toMatchObject({ code: -32601 });
    const legacy = await connectDemo('legacy');
    await expect(legacy.client.listen({ resourcesListChanged: true })).rejects.toMatchObject({ code: 'CAPABILITY_NOT_SUPPORTED' });
  });
});
