// Rate limit buckets in a real redis-server: two "processes" share one limit; concurrent takes never hand out the same
// last token; a paused (hung) or restarted Redis never holds a request, under both failure policies, and limiting
// resumes when Redis answers again.
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { rateLimit, type MiddlewareContext } from '@wiremcp/server';
import { connectRedisState, RedisBucketStore, type RedisState } from '../src/index.js';
import { startTestRedis, type TestRedis } from './redis-server.test-util.js';

let redis: TestRedis;
let a: RedisState;
let b: RedisState;

beforeAll(async () => {
  redis = await startTestRedis();
  a = await connectRedisState({ url: redis.url, prefix: 'rl-a:', commandTimeoutMs: 300, onError: () => {} });
  b = await connectRedisState({ url: redis.url, prefix: 'rl-a:', commandTimeoutMs: 300, onError: () => {} });
}, 120_000);

afterAll(async () => {
  redis?.resume();
  await a?.close();
  await b?.close();
  await redis?.stop();
});

const RATE = { capacity: 5, periodMs: 60_000 };

describe('RedisBucketStore', () => {
  test('two processes share one bucket; 40 concurrent takes hand out exactly the capacity', async () => {
    const stores = [new RedisBucketStore(a.client, { prefix: 'rl-a:' }), new RedisBucketStore(b.client, { prefix: 'rl-a:' })];
    const results = await Promise.all(Array.from({ length: 40 }, (_, i) => stores[i % 2]!.take('shared', RATE)));
    expect(results.filter((r) => r.allowed)).toHaveLength(5);
    const refused = results.filter((r) => !r.allowed);
    expect(refused).toHaveLength(35);
    for (const r of refused) expect(r.retryAfterMs).toBeGreaterThan(0);
    // The key expires once the bucket would be full again: it is not kept forever.
    const ttl = await a.client.pttl('rl-a:rl:shared');
    expect(ttl).toBeGreaterThan(0);
    expect(ttl).toBeLessThanOrEqual(61_000);
  });

  test('huge keys are stored bounded', async () => {
    const store = new RedisBucketStore(a.client, { prefix: 'rl-a:' });
    await store.take('k'.repeat(1_000_000), RATE);
    const keys = await a.client.keys('rl-a:rl:k*');
    expect(keys).toHaveLength(1);
    expect(keys[0]!.length).toBeLessThan(250);
  });

  test.each(['open', 'closed'] as const)(
    'Redis hung then restarted: fail-%s answers within the timeout, then limits again',
    async (failure) => {
      const store = new RedisBucketStore(a.client, { prefix: `rl-${failure}:` });
      const mw = rateLimit({ rules: '*=1/m', store, failure, storeTimeoutMs: 200, onStoreError: () => {} });
      const ctx = { method: 'tools/list', name: undefined } as MiddlewareContext;
      const next = async () => ({ ok: true });
      const run = () =>
        Promise.resolve(mw(ctx, next)).then(
          (result) => ({ result }),
          (error: unknown) => ({ error }),
        );
      expect(await run()).toEqual({ result: { ok: true } });
      expect(await run()).toMatchObject({ error: { code: -32029 } });
      redis.pause();
      try {
        const during = await run();
        if (failure === 'open') expect(during).toEqual({ result: { ok: true } });
        else expect(during).toMatchObject({ error: { code: -32029, data: { limit: 'store-unavailable' } } });
      } finally {
        redis.resume();
      }
      await redis.restart();
      // Down (refused connections) while it restarts, then back, empty: the first request after recovery is allowed, the next limited.
      let back: unknown;
      for (let i = 0; i < 100; i++) {
        back = await run();
        if (
          failure === 'closed'
            ? !('error' in (back as object))
            : await a.client.ping().then(
                () => true,
                () => false,
              )
        )
          break;
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
      const after = [await run(), await run()];
      expect(after.some((r) => 'error' in r && (r.error as { code: number }).code === -32029)).toBe(true);
    },
  );
});
