import { describe, expect, test } from 'vitest';
import { MemoryBucketStore, rateLimit, type MiddlewareContext } from '@wiremcp/server';

// A stopped clock: the buckets do not refill while a busy machine runs the test.
const frozen = () => new MemoryBucketStore({ now: () => 0 });
import { initialize, json, modernPost, post, sessionHeaders, testHandler } from './http.test-util.js';

const call = (id: number) => ({ jsonrpc: '2.0', id, method: 'tools/call', params: { name: 'echo', arguments: { text: 'hi' } } });

describe('rate-limited requests over HTTP', () => {
  test('2026-07-28: 429 with Retry-After in seconds and the -32029 error; other methods still served', async () => {
    const { handler, server } = testHandler();
    server.use(rateLimit({ rules: 'tools/call=1/m', store: frozen() }));
    const first = await handler(modernPost('tools/call', { name: 'echo', arguments: { text: 'a' } }));
    expect(first.status).toBe(200);
    const refused = await handler(modernPost('tools/call', { name: 'echo', arguments: { text: 'b' } }, {}, 2));
    expect(refused.status).toBe(429);
    expect(refused.headers.get('retry-after')).toBe('60');
    expect(await json(refused)).toMatchObject({
      id: 2,
      error: { code: -32029, data: { retryAfter: 60, retryAfterMs: expect.any(Number) } },
    });
    expect((await handler(modernPost('tools/list'))).status).toBe(200);
    await server.close();
  });

  test('legacy session: a POST whose only request is refused is a 429 with Retry-After; sessions have their own buckets', async () => {
    const { handler, server } = testHandler();
    server.use(rateLimit({ rules: 'tools/call=1/s', by: 'session', store: frozen() }));
    const session = await initialize(handler);
    expect((await handler(post(call(1), sessionHeaders(session)))).status).toBe(200);
    const refused = await handler(post(call(2), sessionHeaders(session)));
    expect(refused.status).toBe(429);
    expect(refused.headers.get('retry-after')).toBe('1');
    expect(await json(refused)).toMatchObject({ id: 2, error: { code: -32029 } });
    // Another session has its own bucket.
    const other = await initialize(handler);
    expect((await handler(post(call(1), sessionHeaders(other)))).status).toBe(200);
    await server.close();
  });

  test('middleware sees the transport, the client address and the session id', async () => {
    const { handler, server } = testHandler();
    const seen: MiddlewareContext[] = [];
    server.use((ctx, next) => {
      seen.push(ctx);
      return next();
    });
    server.use(rateLimit({ rules: '*=1/m', by: 'address', store: frozen() }));
    const connection = (remoteAddress: string) => ({ remoteAddress });
    expect((await handler(modernPost('tools/list'), connection('127.0.0.7'))).status).toBe(200);
    expect((await handler(modernPost('tools/list'), connection('127.0.0.8'))).status).toBe(200);
    expect((await handler(modernPost('tools/list'), connection('127.0.0.7'))).status).toBe(429);
    expect(seen[0]).toMatchObject({ transport: 'http', clientAddress: '127.0.0.7', era: 'modern', sessionId: undefined });
    await server.close();
  });
});
