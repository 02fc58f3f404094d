// The peer's timeouts (one shared timer for every pending request) and progress, both ways.
import { LocalError } from '@wiremcp/protocol';
import { describe, expect, test, vi } from 'vitest';
import { createLinkedPair } from './linked-pair.js';
import { Peer } from './peer.js';
import { rawHarness } from './harness.test-util.js';

async function connectedPair() {
  const [a, b] = createLinkedPair();
  const client = new Peer({ onInternalError: () => {} });
  const server = new Peer({ onInternalError: () => {} });
  await server.connect(b);
  await client.connect(a);
  return { client, server };
}

describe('timeouts and progress', () => {
  test('a request times out with REQUEST_TIMEOUT and is cancelled on the wire', async () => {
    const h = await rawHarness();
    await expect(h.peer.request('never', {}, { timeoutMs: 20 })).rejects.toMatchObject({ code: 'REQUEST_TIMEOUT' });
    const [, cancelled] = (await h.waitFor(2)) as Array<Record<string, unknown>>;
    expect(cancelled).toMatchObject({ method: 'notifications/cancelled', params: { requestId: 0 } });
    expect(h.peer.pendingCount).toBe(0);
  });

  test('progress reaches onprogress, and resets the timeout when asked', async () => {
    vi.useFakeTimers();
    try {
      const { client, server } = await connectedPair();
      server.setRequestHandler('work', async (_params, ctx) => {
        for (let i = 1; i <= 4; i++) {
          await new Promise((resolve) => setTimeout(resolve, 25));
          await ctx.sendProgress(i, 4, `step ${i}`);
        }
        return { done: true };
      });
      const seen: unknown[] = [];
      const result = client.request('work', {}, { timeoutMs: 60, resetTimeoutOnProgress: true, onprogress: (p) => seen.push(p) });
      // 100 ms in all, well past the 60 ms timeout, which every progress report restarts.
      await vi.advanceTimersByTimeAsync(100);
      expect(await result).toEqual({ done: true });
      expectProgress(seen);
    } finally {
      vi.useRealTimers();
    }
  });

  function expectProgress(seen: unknown[]): void {
    expect(seen).toEqual([
      { progress: 1, total: 4, message: 'step 1' },
      { progress: 2, total: 4, message: 'step 2' },
      { progress: 3, total: 4, message: 'step 3' },
      { progress: 4, total: 4, message: 'step 4' },
    ]);
  }

  test('one timer serves every pending request: each times out at its own deadline, in any order', async () => {
    vi.useFakeTimers();
    try {
      const { client, server } = await connectedPair();
      server.setRequestHandler('hang', () => new Promise(() => {}));
      server.setRequestHandler('quick', () => ({ ok: true }));
      const outcomes: string[] = [];
      const track = (name: string, promise: Promise<unknown>) =>
        promise.then(
          () => outcomes.push(`${name} ok`),
          (error: LocalError) => outcomes.push(`${name} ${error.code} ${error.message}`),
        );
      const slow = track('slow', client.request('hang', {}, { timeoutMs: 300 }));
      const fast = track('fast', client.request('hang', {}, { timeoutMs: 100 }));
      const answered = track('answered', client.request('quick', {}, { timeoutMs: 50 }));
      const none = client.request('hang', {}, { timeoutMs: 0 });
      await vi.advanceTimersByTimeAsync(1);
      expect(vi.getTimerCount()).toBe(1);
      await answered;
      await vi.advanceTimersByTimeAsync(100);
      await fast;
      expect(outcomes).toEqual(['answered ok', "fast REQUEST_TIMEOUT Request 'hang' timed out after 100 ms"]);
      expect(client.pendingCount).toBe(2);
      await vi.advanceTimersByTimeAsync(200);
      await slow;
      expect(outcomes[2]).toBe("slow REQUEST_TIMEOUT Request 'hang' timed out after 300 ms");
      // The request without a timeout keeps no timer alive.
      expect(client.pendingCount).toBe(1);
      expect(vi.getTimerCount()).toBe(0);
      await client.close();
      await expect(none).rejects.toMatchObject({ code: 'CONNECTION_CLOSED' });
    } finally {
      vi.useRealTimers();
    }
  });

  test('a settled request never times out later; the timer, left armed, then fires once and is gone', async () => {
    vi.useFakeTimers();
    try {
      const { client, server } = await connectedPair();
      server.setRequestHandler('quick', () => ({ ok: true }));
      await expect(client.request('quick', {}, { timeoutMs: 50 })).resolves.toEqual({ ok: true });
      await vi.advanceTimersByTimeAsync(1000);
      expect(client.pendingCount).toBe(0);
      expect(vi.getTimerCount()).toBe(0);
    } finally {
      vi.useRealTimers();
    }
  });

  test('once nothing is pending the timer does not hold the process; the next request holds it again', async () => {
    const { client, server } = await connectedPair();
    server.setRequestHandler('quick', () => ({ ok: true }));
    let release!: () => void;
    server.setRequestHandler('held', () => new Promise<{ ok: boolean }>((resolve) => (release = () => resolve({ ok: true }))));
    const timers = (): number => process.getActiveResourcesInfo().filter((kind) => kind === 'Timeout').length;
    const before = timers();
    const first = client.request('quick', {});
    expect(timers()).toBe(before + 1);
    await first;
    expect(timers()).toBe(before);
    const second = client.request('held', {});
    expect(timers()).toBe(before + 1);
    await new Promise<void>((resolve) => setImmediate(resolve));
    release();
    await second;
    expect(timers()).toBe(before);
    // A request without a timeout does not make the timer hold the process either.
    const untimed = client.request('held', {}, { timeoutMs: 0 });
    expect(timers()).toBe(before);
    await new Promise<void>((resolve) => setImmediate(resolve));
    release();
    await untimed;
    await client.close();
    expect(timers()).toBe(before);
  });

  test('progress pushes a deadline back past the shared timer; maxTotalTimeoutMs still ends it', async () => {
    vi.useFakeTimers();
    try {
      const { client, server } = await connectedPair();
      server.setRequestHandler('work', async (_params, ctx) => {
        for (let i = 1; i <= 20 && !ctx.signal.aborted; i++) {
          await new Promise((resolve) => setTimeout(resolve, 30));
          await ctx.sendProgress(i);
        }
        return {};
      });
      let error: LocalError | undefined;
      const request = client
        .request('work', {}, { timeoutMs: 50, resetTimeoutOnProgress: true, maxTotalTimeoutMs: 200, onprogress: () => {} })
        .catch((e: LocalError) => (error = e));
      await vi.advanceTimersByTimeAsync(190);
      expect(error).toBeUndefined();
      await vi.advanceTimersByTimeAsync(20);
      await request;
      expect(error).toMatchObject({ code: 'REQUEST_TIMEOUT', message: "Request 'work' exceeded its maximum total time" });
    } finally {
      vi.useRealTimers();
    }
  });

  test('progress must increase: repeated or smaller values are not sent', async () => {
    const h = await rawHarness();
    h.peer.setRequestHandler('work', async (_params, ctx) => {
      await ctx.sendProgress(1);
      await ctx.sendProgress(1);
      await ctx.sendProgress(0.5);
      await ctx.sendProgress(2);
      return {};
    });
    h.send({ jsonrpc: '2.0', id: 1, method: 'work', params: { _meta: { progressToken: 'tok' } } });
    const messages = (await h.waitFor(3)) as Array<{ params?: { progress?: number } }>;
    expect(messages.slice(0, 2).map((m) => m.params?.progress)).toEqual([1, 2]);
    expect(messages[2]).toEqual({ jsonrpc: '2.0', id: 1, result: {} });
  });

  test('no progress is sent without a progress token', async () => {
    const h = await rawHarness();
    h.peer.setRequestHandler('work', async (_params, ctx) => {
      await ctx.sendProgress(1);
      return {};
    });
    h.send({ jsonrpc: '2.0', id: 1, method: 'work' });
    await h.waitFor(1);
    await h.settle();
    expect(h.received).toEqual([{ jsonrpc: '2.0', id: 1, result: {} }]);
  });
});
