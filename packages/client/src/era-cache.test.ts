import { describe, expect, test } from 'vitest';
import { cacheCall, cacheEntry, MemoryEraCache } from './era-cache.js';

describe('era cache', () => {
  test('MemoryEraCache remembers, forgets, and bounds its size (oldest first)', () => {
    const cache = new MemoryEraCache(2);
    cache.set('a', { era: 'legacy', protocolVersion: '2025-11-25' });
    cache.set('b', { era: 'modern', protocolVersion: '2026-07-28' });
    cache.set('c', { era: 'legacy', protocolVersion: '2025-06-18' });
    expect(cache.size).toBe(2);
    expect(cache.get('a')).toBeUndefined();
    expect(cache.get('c')?.protocolVersion).toBe('2025-06-18');
    cache.delete('c');
    expect(cache.get('c')).toBeUndefined();
  });

  test('cacheEntry keeps the discover result with its freshness from ttlMs', () => {
    const discover = { supportedVersions: ['2026-07-28'], capabilities: {}, ttlMs: 500 };
    expect(cacheEntry({ era: 'modern', protocolVersion: '2026-07-28', discover }, 1000)).toEqual({
      era: 'modern',
      protocolVersion: '2026-07-28',
      discover: { result: discover, freshUntil: 1500 },
    });
    expect(cacheEntry({ era: 'legacy', protocolVersion: '2025-11-25' })).toEqual({ era: 'legacy', protocolVersion: '2025-11-25' });
  });

  test('cacheCall turns a failing cache (sync or async) into undefined', async () => {
    expect(
      await cacheCall(() => {
        throw new Error('x');
      }),
    ).toBeUndefined();
    expect(await cacheCall(() => Promise.reject(new Error('y')))).toBeUndefined();
    expect(await cacheCall(() => 42)).toBe(42);
  });
});
