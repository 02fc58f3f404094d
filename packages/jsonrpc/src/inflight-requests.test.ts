// A request whose handler runs synchronously is tracked outside the id map (InflightRequests' slot): these tests
// check that it is still in flight in every way the engine promises, including re-entrant deliveries made while
// its handler runs, and that the map takes over when the handler returns a promise.
import { ErrorCode } from '@wiremcp/protocol';
import { describe, expect, test } from 'vitest';
import { deferred, rawHarness } from './harness.test-util.js';

describe('requests in flight while a handler runs synchronously', () => {
  test('the request counts as in flight until its handler returns, and not after', async () => {
    const h = await rawHarness();
    const seen: number[] = [];
    h.peer.setRequestHandler('count', () => {
      seen.push(h.peer.inflightCount);
      return { ok: true };
    });
    h.send({ jsonrpc: '2.0', id: 1, method: 'count' });
    await h.waitFor(1);
    expect(seen).toEqual([1]);
    expect(h.peer.inflightCount).toBe(0);
    expect(h.received).toEqual([{ jsonrpc: '2.0', id: 1, result: { ok: true } }]);
  });

  test('a request re-entering with the id of the running one is refused as a duplicate; a nested one is served', async () => {
    const h = await rawHarness();
    const counts: number[] = [];
    h.peer.setRequestHandler('inner', () => {
      counts.push(h.peer.inflightCount);
      return { inner: true };
    });
    h.peer.setRequestHandler('outer', () => {
      h.peer.receive({ jsonrpc: '2.0', id: 1, method: 'inner' });
      h.peer.receive({ jsonrpc: '2.0', id: 2, method: 'inner' });
      return { outer: true };
    });
    h.send({ jsonrpc: '2.0', id: 1, method: 'outer' });
    const received = await h.waitFor(3);
    expect(counts).toEqual([2]);
    expect(received).toContainEqual({ jsonrpc: '2.0', id: 2, result: { inner: true } });
    expect(received).toContainEqual({ jsonrpc: '2.0', id: 1, result: { outer: true } });
    const duplicate = received.find((m) => (m as { error?: unknown }).error !== undefined) as { id: number; error: { code: number } };
    expect(duplicate).toMatchObject({ id: 1, error: { code: ErrorCode.InvalidRequest } });
    expect(h.peer.inflightCount).toBe(0);
  });

  test('a cancellation delivered while the handler runs suppresses its response', async () => {
    const h = await rawHarness();
    let cancelled: boolean | undefined;
    h.peer.setRequestHandler('work', (_params, ctx) => {
      h.peer.receive({ jsonrpc: '2.0', method: 'notifications/cancelled', params: { requestId: 7 } });
      cancelled = ctx.signal.aborted;
      return { done: true };
    });
    h.peer.setRequestHandler('ping', () => ({}));
    h.send({ jsonrpc: '2.0', id: 7, method: 'work' });
    h.send({ jsonrpc: '2.0', id: 8, method: 'ping' });
    await h.waitFor(1);
    await h.settle();
    expect(cancelled).toBe(true);
    expect(h.received).toEqual([{ jsonrpc: '2.0', id: 8, result: {} }]);
    expect(h.peer.inflightCount).toBe(0);
  });

  test('a handler that returns a promise stays in flight (and cancellable) after it returns', async () => {
    const h = await rawHarness();
    const gate = deferred();
    let signal: AbortSignal | undefined;
    h.peer.setRequestHandler('slow', async (_params, ctx) => {
      signal = ctx.signal;
      await gate.promise;
      return { late: true };
    });
    h.peer.setRequestHandler('fast', () => ({ fast: true }));
    h.send({ jsonrpc: '2.0', id: 'a', method: 'slow' });
    h.send({ jsonrpc: '2.0', id: 'b', method: 'fast' });
    await h.waitFor(1);
    expect(h.peer.inflightCount).toBe(1);
    h.send({ jsonrpc: '2.0', id: 'a', method: 'fast' });
    await h.waitFor(2);
    expect(h.received[1]).toMatchObject({ id: 'a', error: { code: ErrorCode.InvalidRequest } });
    h.send({ jsonrpc: '2.0', method: 'notifications/cancelled', params: { requestId: 'a' } });
    await h.settle();
    expect(signal?.aborted).toBe(true);
    gate.resolve();
    const drained = h.peer.drain();
    await drained;
    await h.settle();
    expect(h.peer.inflightCount).toBe(0);
    expect(h.received).toHaveLength(2);
  });

  test('closing the connection from inside a synchronous handler cancels it', async () => {
    const h = await rawHarness();
    let aborted: boolean | undefined;
    h.peer.setRequestHandler('bye', (_params, ctx) => {
      void h.peer.close();
      aborted = ctx.signal.aborted;
      return {};
    });
    h.send({ jsonrpc: '2.0', id: 1, method: 'bye' });
    for (let turn = 0; aborted === undefined && turn < 100; turn++) await h.settle();
    expect(aborted).toBe(true);
    expect(h.peer.inflightCount).toBe(0);
    expect(h.internalErrors).toEqual([]);
  });
});
