import { describe, expect, test } from 'vitest';
import { ResultCache } from './result-cache.js';

describe('ResultCache', () => {
  test('keeps a result while now < received + ttlMs; ttl 0, negative or absent is never cached', () => {
    let now = 1000;
    const cache = new ResultCache(() => now);
    cache.put('tools/list', '', { tools: [], ttlMs: 50 });
    cache.put('prompts/list', '', { prompts: [], ttlMs: 0 });
    cache.put('resources/list', '', { resources: [], ttlMs: -5 });
    cache.put('resources/templates/list', '', { resourceTemplates: [] });
    expect(cache.get('tools/list', '')).toEqual({ tools: [], ttlMs: 50 });
    expect(cache.get('prompts/list', '')).toBeUndefined();
    expect(cache.get('resources/list', '')).toBeUndefined();
    expect(cache.get('resources/templates/list', '')).toBeUndefined();
    now = 1049;
    expect(cache.get('tools/list', '')).toBeDefined();
    now = 1050;
    expect(cache.get('tools/list', '')).toBeUndefined();
  });

  test('list_changed drops every page of its lists; resources/updated drops that uri only', () => {
    const cache = new ResultCache(() => 0);
    cache.put('tools/list', '', { ttlMs: 10 });
    cache.put('tools/list', 'c1', { ttlMs: 10 });
    cache.put('resources/list', '', { ttlMs: 10 });
    cache.put('resources/templates/list', '', { ttlMs: 10 });
    cache.put('resources/read', 'a:1', { ttlMs: 10 });
    cache.put('resources/read', 'a:2', { ttlMs: 10 });
    cache.invalidate('notifications/tools/list_changed', undefined);
    expect(cache.get('tools/list', '')).toBeUndefined();
    expect(cache.get('tools/list', 'c1')).toBeUndefined();
    expect(cache.get('resources/list', '')).toBeDefined();
    cache.invalidate('notifications/resources/list_changed', undefined);
    expect(cache.get('resources/list', '')).toBeUndefined();
    expect(cache.get('resources/templates/list', '')).toBeUndefined();
    cache.invalidate('notifications/resources/updated', { uri: 'a:1' });
    expect(cache.get('resources/read', 'a:1')).toBeUndefined();
    expect(cache.get('resources/read', 'a:2')).toBeDefined();
  });

  test('through() loads once while fresh, bypasses when disabled or asked for a fresh copy', async () => {
    const cache = new ResultCache(() => 0);
    let loads = 0;
    const load = async () => ({ n: ++loads, ttlMs: 100 });
    expect(await cache.through('tools/list', '', true, false, load)).toEqual({ n: 1, ttlMs: 100 });
    expect(await cache.through('tools/list', '', true, false, load)).toEqual({ n: 1, ttlMs: 100 });
    expect(await cache.through('tools/list', '', true, true, load)).toEqual({ n: 2, ttlMs: 100 });
    expect(await cache.through('tools/list', '', false, false, load)).toEqual({ n: 3, ttlMs: 100 });
    cache.drop('tools/list');
    expect(await cache.through('tools/list', '', true, false, load)).toEqual({ n: 4, ttlMs: 100 });
  });
});
