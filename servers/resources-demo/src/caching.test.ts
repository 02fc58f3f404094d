import { afterEach, describe, expect, test, vi } from 'vitest';
import { connectDemo, watch } from './resources-demo.test-util.js';

afterEach(() => {
  vi.useRealTimers();
});

const HOUR = 3_600_000;

describe('caching hints (2026-07-28)', () => {
  test('each kind of resource carries its own ttlMs and cacheScope; the lists theirs', async () => {
    const { client } = await connectDemo('modern');
    await client.callTool('add_note', { title: 'n', text: 'x' });
    const hint = async (uri: string) => {
      const { ttlMs, cacheScope } = await client.readResource(uri, { fresh: true });
      return { ttlMs, cacheScope };
    };
    expect(await hint('demo://files/docs/welcome.md')).toEqual({ ttlMs: HOUR, cacheScope: 'public' });
    expect(await hint('demo://folders/images')).toEqual({ ttlMs: HOUR, cacheScope: 'public' });
    expect(await hint('demo://elements/Fe')).toEqual({ ttlMs: 24 * HOUR, cacheScope: 'public' });
    expect(await hint('demo://notes/1')).toEqual({ ttlMs: 60_000, cacheScope: 'public' });
    expect(await hint('demo://live/log')).toEqual({ ttlMs: 0, cacheScope: 'public' });
    expect(await hint('demo://request')).toEqual({ ttlMs: 60_000, cacheScope: 'private' });
    expect(await hint('demo://search?q=iron')).toEqual({ ttlMs: 0, cacheScope: 'public' });
    expect(await hint('test://static-text')).toEqual({ ttlMs: HOUR, cacheScope: 'public' });
    expect(await hint('test://watched-resource')).toEqual({ ttlMs: 0, cacheScope: 'public' });
    // Without a running timer the clock can change whenever tick() is called: not cacheable.
    expect(await hint('demo://live/clock')).toEqual({ ttlMs: 0, cacheScope: 'public' });
    expect(await client.listResources()).toMatchObject({ ttlMs: 60_000, cacheScope: 'public' });
    expect(await client.listResourceTemplates()).toMatchObject({ ttlMs: HOUR, cacheScope: 'public' });
    expect(await client.discover()).toMatchObject({ ttlMs: HOUR, cacheScope: 'public' });
  });

  test('legacy results carry no hints', async () => {
    const { client } = await connectDemo('legacy');
    const read = await client.readResource('demo://files/docs/welcome.md');
    expect(read).not.toHaveProperty('ttlMs');
    expect(read).not.toHaveProperty('cacheScope');
    expect(await client.listResources()).not.toHaveProperty('ttlMs');
  });

  test('the client serves fresh copies from its cache and asks again for what has ttlMs 0', async () => {
    const { client, requests } = await connectDemo('modern');
    const reads = (uri: string) => requests('resources/read').filter((message) => message.params.uri === uri).length;
    for (let i = 0; i < 3; i++) {
      await client.readResource('demo://files/docs/welcome.md');
      await client.readResource('demo://request');
      await client.readResource('demo://live/log');
    }
    expect(reads('demo://files/docs/welcome.md')).toBe(1);
    expect(reads('demo://request')).toBe(1);
    expect(reads('demo://live/log')).toBe(3);
    await client.readResource('demo://files/docs/welcome.md', { fresh: true });
    expect(reads('demo://files/docs/welcome.md')).toBe(2);
  });

  test('a cached note is served until its minute is up, unless an update notification drops it first', async () => {
    vi.useFakeTimers({ toFake: ['Date'] });
    const connection = await connectDemo('modern');
    const { client, requests } = connection;
    const reads = () => requests('resources/read').filter((message) => message.params.uri === 'demo://notes/1').length;
    const text = async () => ((await client.readResource('demo://notes/1')).contents[0] as { text: string }).text;
    await client.callTool('add_note', { title: 'n', text: 'first' });
    expect(await text()).toBe('first');

    // Nobody listens for updates: the client keeps the copy the server said was fresh for 60 s.
    await client.callTool('edit_note', { uri: 'demo://notes/1', text: 'second' });
    expect(await text()).toBe('first');
    expect(reads()).toBe(1);
    vi.setSystemTime(Date.now() + 60_001);
    expect(await text()).toBe('second');
    expect(reads()).toBe(2);

    // Subscribed: the update notification invalidates the cached copy at once.
    const watcher = await watch(connection, { resourceSubscriptions: ['demo://notes/1'] });
    await client.callTool('edit_note', { uri: 'demo://notes/1', text: 'third' });
    await watcher.next('notifications/resources/updated');
    expect(await text()).toBe('third');
    expect(reads()).toBe(3);
  });

  test('the clock is fresh exactly until the next tick', async () => {
    vi.useFakeTimers({ toFake: ['Date', 'setInterval', 'clearInterval'] });
    const { client, requests } = await connectDemo('modern', { demoOptions: { tickMs: 1000 } });
    const clock = async () => {
      const result = await client.readResource('demo://live/clock');
      return { ttlMs: result.ttlMs, tick: JSON.parse((result.contents[0] as { text: string }).text).tick as number };
    };
    vi.advanceTimersByTime(400);
    expect(await clock()).toEqual({ ttlMs: 600, tick: 0 });
    vi.advanceTimersByTime(599);
    expect(await clock()).toEqual({ ttlMs: 600, tick: 0 }); // served from the cache
    vi.advanceTimersByTime(1);
    expect(await clock()).toEqual({ ttlMs: 1000, tick: 1 });
    expect(requests('resources/read')).toHaveLength(2);
  });

  test('list_changed drops the cached pages of resources/list', async () => {
    const connection = await connectDemo('modern');
    const { client, requests } = connection;
    const watcher = await watch(connection, { resourcesListChanged: true });
    const first = await client.listAllResources();
    const pages = requests('resources/list').length;
    await client.listAllResources();
    expect(requests('resources/list')).toHaveLength(pages);
    await client.callTool('add_note', { title: 'n', text: 'x' });
    await watcher.next('notifications/resources/list_changed');
    const second = await client.listAllResources();
    expect(requests('resources/list')).toHaveLength(2 * pages);
    expect(second).toHaveLength(first.length + 1);
  });
});
