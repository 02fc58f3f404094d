// `listen`'s close on legacy sessions with a request still running past the grace period: the request counts in
// `requestsCut`, and its client hears what happened —
// its session ended with this process (404), or, when sessions are shared with other processes, that this process
// shut down and the request may be retried elsewhere (503, Retry-After). A request that finishes in time counts nothing.
import { afterEach, describe, expect, test } from 'vitest';
import { MemoryEventStore } from '../server/event-store.js';
import { initialize, sessionHeaders, testHandler, viaSocket } from '../server/http.test-util.js';
import { MemoryBus } from '../server/bus.test-util.js';
import { MemorySessionStore } from '../server/session-store.js';
import { listen, type Listening } from './listen.js';

const cleanups: Array<() => Promise<void>> = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

async function serve(shared: boolean, graceMs: number) {
  const options = shared ? { bus: new MemoryBus(), sessionStore: new MemorySessionStore(), eventStore: new MemoryEventStore() } : {};
  const setup = testHandler({ ...options, onError: () => {} });
  const listening: Listening = await listen(setup.handler, { shutdownGraceMs: graceMs });
  cleanups.push(() => listening.close());
  const send = viaSocket(listening.url);
  const session = await initialize(send);
  const call = (id: number, meta: Record<string, unknown> = {}) =>
    send(
      new Request(listening.url, {
        method: 'POST',
        headers: sessionHeaders(session),
        body: JSON.stringify({ jsonrpc: '2.0', id, method: 'tools/call', params: { name: 'wait', arguments: {}, _meta: meta } }),
      }),
    );
  return { ...setup, listening, call };
}

describe('a legacy request still running when the grace period ends', () => {
  test('its session ends with the process: 404 for it, and it counts as cut', async () => {
    const { listening, probe, call } = await serve(false, 200);
    const pending = call(1);
    await probe.started.promise;
    await listening.close();
    expect(listening.requestsCut).toBe(1);
    const response = await pending;
    expect(response.status).toBe(404);
    expect(await response.json()).toMatchObject({ error: { code: -32600, message: 'Session not found: the session ended' } });
  });

  test('a shared session lives on elsewhere: 503 with Retry-After, its id, a reason; it counts as cut', async () => {
    const { listening, probe, call } = await serve(true, 200);
    const pending = call(2);
    await probe.started.promise;
    await listening.close();
    expect(listening.requestsCut).toBe(1);
    const response = await pending;
    expect(response.status).toBe(503);
    expect(response.headers.get('retry-after')).toBe('1');
    const body = (await response.json()) as { id: unknown; error: { code: number; message: string; data: unknown } };
    expect(body).toMatchObject({ id: 2, error: { code: -32603, data: { reason: 'shutdown' } } });
    expect(body.error.message).not.toMatch(/session not found/i);
  });

  test('a request that finishes within the grace period is answered and nothing counts as cut', async () => {
    const { listening, probe, call } = await serve(true, 30_000);
    const pending = call(4);
    await probe.started.promise;
    const closing = listening.close();
    probe.release.resolve();
    const response = await pending;
    expect(await response.json()).toMatchObject({ id: 4, result: { content: [{ text: 'released' }] } });
    await closing;
    expect(listening.requestsCut).toBe(0);
  });
});
