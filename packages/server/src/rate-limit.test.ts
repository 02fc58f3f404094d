import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { afterEach, describe, expect, test, vi } from 'vitest';
import { McpServer } from './mcp-server.js';
import { rateLimit, RateLimitedError } from './rate-limit.js';
import { parseRateLimits } from './rate-limit-rules.js';
import { MemoryBucketStore, MAX_KEY_CHARS, type BucketStore, type TakeResult } from './token-buckets.js';
import { rawClient } from './server.test-util.js';
import type { MiddlewareContext } from './middleware.js';

afterEach(() => {
  vi.useRealTimers();
});

const RATE = { capacity: 2, periodMs: 1000 };

describe('MemoryBucketStore', () => {
  test('a bucket starts full, refuses when empty with the wait for one token, refills over time', () => {
    let now = 1_000_000;
    const store = new MemoryBucketStore({ now: () => now });
    expect(store.take('k', RATE)).toEqual({ allowed: true, remaining: 1, retryAfterMs: 0 });
    expect(store.take('k', RATE).allowed).toBe(true);
    expect(store.take('k', RATE)).toEqual({ allowed: false, remaining: 0, retryAfterMs: 500 });
    now += 499;
    expect(store.take('k', RATE).allowed).toBe(false);
    now += 1;
    expect(store.take('k', RATE).allowed).toBe(true);
    // A long pause refills to capacity, never beyond.
    now += 3_600_000;
    expect(store.take('k', RATE).remaining).toBe(1);
  });

  test('a clock that goes back refills nothing and never locks a bucket; a non-finite clock adds nothing', () => {
    let now = 5_000;
    const store = new MemoryBucketStore({ now: () => now });
    store.take('k', RATE);
    store.take('k', RATE);
    now = 1_000; // back by 4 s
    expect(store.take('k', RATE).allowed).toBe(false);
    now += 500; // accrual restarts from the new reading
    expect(store.take('k', RATE).allowed).toBe(true);
    now = Number.NaN;
    expect(store.take('k', RATE).allowed).toBe(false);
  });

  test('hostile keys: huge keys are bounded, the bucket count is capped (least recently used evicted)', () => {
    const store = new MemoryBucketStore({ maxBuckets: 100, now: () => 0 });
    const huge = 'x'.repeat(1_000_000);
    store.take(huge, RATE);
    store.take(huge, RATE);
    expect(store.take(huge, RATE).allowed).toBe(false); // still one bucket for the same huge key
    expect(store.take(`${huge}y`, RATE).allowed).toBe(true); // a different huge key is a different bucket
    for (let i = 0; i < 10_000; i++) store.take(`${'p'.repeat(5_000)}${i}`, RATE);
    expect(store.size).toBe(100);
    expect(MAX_KEY_CHARS).toBeLessThanOrEqual(200);
  });

  test('refuses bad options', () => {
    expect(() => new MemoryBucketStore({ maxBuckets: 0 })).toThrow(/maxBuckets/);
  });
});

describe('parseRateLimits', () => {
  test('reads methods, names and units', () => {
    expect(parseRateLimits('tools/call=10/s, tools/call:search=2/10s,*=100/m,resources/read=5/h,x=1/d')).toEqual([
      { method: 'tools/call', capacity: 10, periodMs: 1000 },
      { method: 'tools/call', name: 'search', capacity: 2, periodMs: 10_000 },
      { method: '*', capacity: 100, periodMs: 60_000 },
      { method: 'resources/read', capacity: 5, periodMs: 3_600_000 },
      { method: 'x', capacity: 1, periodMs: 86_400_000 },
    ]);
  });

  test.each([
    '',
    'tools/call',
    'tools/call=10',
    'tools/call=ten/s',
    'tools/call=10/w',
    '=10/s',
    '*:x=1/s',
    'tools/call:=1/s',
    'a=0/s',
    'a=-1/s',
  ])('%j is a usage error with examples', (text) => {
    expect(() => parseRateLimits(text)).toThrow(/expected METHOD\[:NAME\]=COUNT\/UNIT.*e\.g\. tools\/call=10\/s/);
  });

  test('a huge bad entry is not echoed back whole', () => {
    const error = (() => {
      try {
        parseRateLimits(`${'a'.repeat(100_000)}=x`);
      } catch (e) {
        return e as Error;
      }
      return undefined;
    })();
    expect(error!.message.length).toBeLessThan(400);
  });
});

function limitedServer(options: Parameters<typeof rateLimit>[0]): McpServer {
  const server = new McpServer({ name: 'rl', version: '1.0.0' });
  server.registerTool({ name: 'a', inputSchema: { type: 'object' } }, async () => ({ content: [] }));
  server.registerTool({ name: 'b', inputSchema: { type: 'object' } }, async () => ({ content: [] }));
  server.use(rateLimit(options));
  return server;
}

describe('rateLimit', () => {
  test('per method and per tool, over stdio-like connections: -32029 with a retry hint in data', async () => {
    vi.useFakeTimers({ now: 0 });
    const server = limitedServer({ rules: 'tools/call=3/s,tools/call:b=1/m' });
    const client = await rawClient(server);
    await client.initialize();
    await client.request('tools/call', { name: 'b', arguments: {} });
    await expect(client.request('tools/call', { name: 'b', arguments: {} })).rejects.toMatchObject({
      code: -32029,
      data: { retryAfterMs: 60_000, retryAfter: 60, limit: 'tools/call:b=1/60000ms' },
    });
    await client.request('tools/call', { name: 'a', arguments: {} });
    // The refused call to b took a tools/call token before b's own rule refused it: 3 taken.
    await expect(client.modern('tools/call', { name: 'a', arguments: {} })).rejects.toMatchObject({
      code: -32029,
      data: { retryAfter: 1 },
    });
    // Lists are not limited by a tools/call rule.
    await client.request('tools/list');
    vi.advanceTimersByTime(1000);
    await client.modern('tools/call', { name: 'a', arguments: {} });
    await server.close();
  });

  test('by principal, session or address keeps callers apart; missing keys share one bucket', async () => {
    const mw = rateLimit({ rules: '*=1/m', by: 'address', store: new MemoryBucketStore({ now: () => 0 }) });
    const ctx = (clientAddress?: string) => ({ method: 'tools/list', name: undefined, clientAddress }) as MiddlewareContext;
    const next = async () => ({});
    await mw(ctx('10.0.0.1'), next);
    await mw(ctx('10.0.0.2'), next);
    await expect(mw(ctx('10.0.0.1'), next)).rejects.toBeInstanceOf(RateLimitedError);
    await mw(ctx(undefined), next);
    await expect(mw(ctx(undefined), next)).rejects.toBeInstanceOf(RateLimitedError);
    const byKey = rateLimit({ rules: '*=1/m', by: (c) => c.principalKey, store: new MemoryBucketStore({ now: () => 0 }) });
    await byKey({ ...ctx(), principalKey: 'alice' } as MiddlewareContext, next);
    await byKey({ ...ctx(), principalKey: 'bob' } as MiddlewareContext, next);
    await expect(byKey({ ...ctx(), principalKey: 'alice' } as MiddlewareContext, next)).rejects.toMatchObject({ code: -32029 });
  });

  test('interleaved callers and rules that apply to some methods only: each caller counts in its own bucket per rule', async () => {
    const mw = rateLimit({ rules: 'tools/call=1/m,tools/list=1/m', by: 'address', store: new MemoryBucketStore({ now: () => 0 }) });
    const ctx = (method: string, clientAddress: string) => ({ method, name: undefined, clientAddress }) as MiddlewareContext;
    const next = async () => ({});
    await mw(ctx('tools/list', 'a'), next);
    await mw(ctx('tools/call', 'b'), next);
    await mw(ctx('tools/call', 'a'), next);
    await expect(mw(ctx('tools/list', 'a'), next)).rejects.toMatchObject({ code: -32029 });
    await mw(ctx('tools/list', 'b'), next);
    await expect(mw(ctx('tools/call', 'b'), next)).rejects.toMatchObject({ code: -32029 });
    await expect(mw(ctx('tools/call', 'a'), next)).rejects.toMatchObject({ code: -32029 });
  });

  test('a store that throws at once fails open or closed like one that rejects; a later answer is judged, then the next rule', async () => {
    const ctx = { method: 'tools/call', name: 'x' } as MiddlewareContext;
    const next = async () => ({ ok: true });
    const reports: unknown[] = [];
    const throwing = {
      take: () => {
        throw new Error('store broken');
      },
    };
    const open = rateLimit({ rules: 'tools/call=1/m', store: throwing, onStoreError: (e) => reports.push(e) });
    await expect(open(ctx, next)).resolves.toEqual({ ok: true });
    await expect(open(ctx, next)).resolves.toEqual({ ok: true });
    expect(reports).toHaveLength(1);
    const closed = rateLimit({ rules: 'tools/call=1/m', store: throwing, failure: 'closed', onStoreError: () => {} });
    await expect(closed(ctx, next)).rejects.toMatchObject({ code: -32029, data: { limit: 'store-unavailable' } });
    // Rule 0 answered later (allowed), rule 1 at once: refused by rule 1, and the method never runs.
    const memory = new MemoryBucketStore({ now: () => 0 });
    let calls = 0;
    const mixed = {
      take: (key: string, rate: { capacity: number; periodMs: number }) =>
        calls++ === 0 ? Promise.resolve(memory.take(key, rate)) : memory.take(key, rate),
    };
    const both = rateLimit({ rules: 'tools/call=5/m,*=1/m', store: mixed });
    let ran = 0;
    const counted = async () => (ran++, {});
    await expect(both(ctx, counted)).resolves.toEqual({});
    calls = 0;
    await expect(both(ctx, counted)).rejects.toMatchObject({ code: -32029, data: { limit: '*=1/60000ms' } });
    expect(ran).toBe(1);
  });

  test('refuses bad options', () => {
    expect(() => rateLimit({ rules: [] })).toThrow(/at least one rule/);
    expect(() => rateLimit({ rules: [{ method: 'x', capacity: 0.5, periodMs: 1 }] })).toThrow(/capacity/);
    expect(() => rateLimit({ rules: 'x=1/s', by: 'nobody' as never })).toThrow(/principal, session, address/);
    expect(() => rateLimit({ rules: 'x=1/s', failure: 'maybe' as never })).toThrow(/open or closed/);
    expect(() => rateLimit({ rules: 'x=1/s', storeTimeoutMs: 0 })).toThrow(/storeTimeoutMs/);
  });
});

/** A store that can be switched between working, failing and hanging. */
class FlakyStore implements BucketStore {
  mode: 'up' | 'down' | 'hung' = 'up';
  readonly inner = new MemoryBucketStore({ now: () => 0 });
  take(key: string, rate: { capacity: number; periodMs: number }): Promise<TakeResult> {
    if (this.mode === 'down') return Promise.reject(new Error('ECONNREFUSED'));
    if (this.mode === 'hung') return new Promise<TakeResult>(() => {});
    return Promise.resolve(this.inner.take(key, rate));
  }
}

describe('rateLimit with a failing store', () => {
  const ctx = { method: 'tools/list', name: undefined } as MiddlewareContext;
  const next = async () => ({ ok: true });

  test.each(['open', 'closed'] as const)(
    'fail-%s: a store that is down or hangs never holds a request; recovery is reported',
    async (failure) => {
      // setImmediate stays real: a due store timeout lets the event loop read first (one turn), then fails the take.
      vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'setInterval', 'clearInterval', 'Date'] });
      const store = new FlakyStore();
      const reports: string[] = [];
      const mw = rateLimit({
        rules: '*=1/m',
        store,
        failure,
        storeTimeoutMs: 100,
        onStoreError: (e) => reports.push((e as Error).message),
      });
      await expect(mw(ctx, next)).resolves.toEqual({ ok: true });
      await expect(mw(ctx, next)).rejects.toMatchObject({ code: -32029 });
      for (const mode of ['down', 'hung'] as const) {
        store.mode = mode;
        const outcome = Promise.resolve(mw(ctx, next)).then(
          (result) => ({ result }),
          (error: unknown) => ({ error }),
        );
        await vi.advanceTimersByTimeAsync(100);
        if (failure === 'open') expect(await outcome).toEqual({ result: { ok: true } });
        else expect(await outcome).toMatchObject({ error: { code: -32029, data: { limit: 'store-unavailable', retryAfter: 1 } } });
      }
      expect(vi.getTimerCount()).toBe(0);
      store.mode = 'up';
      // Back: the bucket it kept is still empty, so the limit holds again.
      await expect(mw(ctx, next)).rejects.toMatchObject({ code: -32029, data: { limit: '*=1/60000ms' } });
      expect(reports).toEqual([
        expect.stringMatching(/store failed \(ECONNREFUSED\); failing (open|closed)/),
        'rate limit store answering again',
      ]);
    },
  );
});

describe('rateLimit on a busy process', () => {
  test('a take answered while the process had no CPU for longer than the store timeout is judged, not failed', async () => {
    // The store's answer comes from another process over a pipe, as Redis's over a socket.
    const peer = spawn(process.execPath, ['-e', 'process.stdin.pipe(process.stdout)'], { stdio: ['pipe', 'pipe', 'inherit'] });
    try {
      const memory = new MemoryBucketStore();
      const store: BucketStore = {
        take: async (key, rate) => {
          peer.stdin.write('t');
          await once(peer.stdout, 'data');
          return memory.take(key, rate);
        },
      };
      await store.take('warm-up', RATE);
      const reports: unknown[] = [];
      const mw = rateLimit({ rules: '*=5/m', store, failure: 'closed', storeTimeoutMs: 50, onStoreError: (e) => reports.push(e) });
      const ctx = { method: 'tools/list', name: undefined } as MiddlewareContext;
      // The take starts, then the process gets no CPU for 300 ms (as on a starved machine) while the answer arrives:
      // from setImmediate, the event loop's next step is a new turn, its due timers before its pipes.
      const outcome = await new Promise<Promise<unknown>>((resolve) =>
        setImmediate(() => {
          const judged = Promise.resolve(mw(ctx, async () => ({ ok: true }))).catch((error: unknown) => error);
          const until = performance.now() + 300;
          while (performance.now() < until) {
            // Spinning: no timer and no I/O runs meanwhile.
          }
          resolve(judged);
        }),
      );
      expect(outcome).toEqual({ ok: true });
      expect(reports).toEqual([]);
    } finally {
      peer.kill();
    }
  }, 30_000);
});
