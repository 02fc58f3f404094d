import { describe, expect, test } from 'vitest';
import { createHttpHandler } from './http-handler.js';
import type { HttpServable } from './servable.js';

const server = { dispatch: async () => undefined, connect: async () => ({ close: async () => {} }) } as unknown as HttpServable;
const local = { localAddress: '127.0.0.1', localPort: 3000 };
const get = (path: string, headers: Record<string, string> = {}, method = 'GET'): Request =>
  new Request(`http://127.0.0.1:3000${path}`, { method, headers: { host: '127.0.0.1:3000', ...headers } });

describe('health endpoints', () => {
  test('off by default: 404', async () => {
    const handler = createHttpHandler(server);
    expect((await handler(get('/healthz'), local)).status).toBe(404);
  });

  test('/healthz and /readyz, no auth needed, readiness reasons shown, a throwing check is not ready', async () => {
    let readiness: 'ok' | 'down' | 'throw' = 'ok';
    const handler = createHttpHandler(server, {
      health: {
        ready: () => {
          if (readiness === 'throw') throw new Error('secret detail redis://:pw@host');
          return readiness === 'ok' ? { ready: true } : { ready: false, reason: 'redis unreachable' };
        },
      },
      authenticator: {
        protectedResourceMetadata: () => undefined,
        authenticate: async () => ({ response: new Response(null, { status: 401 }) }),
      } as never,
    });
    const live = await handler(get('/healthz'), local);
    expect(live.status).toBe(200);
    expect(await live.json()).toEqual({ status: 'ok' });
    expect(live.headers.get('cache-control')).toBe('no-store');
    expect((await handler(get('/readyz'), local)).status).toBe(200);
    readiness = 'down';
    const down = await handler(get('/readyz'), local);
    expect(down.status).toBe(503);
    expect(await down.json()).toEqual({ status: 'unavailable', reason: 'redis unreachable' });
    readiness = 'throw';
    const thrown = await handler(get('/readyz'), local);
    expect(thrown.status).toBe(503);
    expect(await thrown.text()).not.toContain('secret');
    expect((await handler(get('/mcp'), local)).status).toBe(401);
  });

  test('the Host and Origin checks still apply; other methods are 405', async () => {
    const handler = createHttpHandler(server, { health: true });
    expect((await handler(get('/healthz', { host: 'evil.example' }), local)).status).toBe(403);
    expect((await handler(get('/readyz', { origin: 'https://evil.example' }), local)).status).toBe(403);
    const post = await handler(get('/readyz', {}, 'POST'), local);
    expect(post.status).toBe(405);
    expect(post.headers.get('allow')).toBe('GET, HEAD');
  });

  test('health paths may not take the MCP path', () => {
    expect(() => createHttpHandler(server, { health: { livePath: '/mcp' } })).toThrow(/health paths/);
  });
});
