import { afterEach, describe, expect, test } from 'vitest';
import { json, serve, type Served } from '../../test/helpers/serve.js';
import { assertUrlAllowed, boundedFetch, policyFetch, readJsonObject } from './fetch-policy.js';

let served: Served | undefined;
afterEach(async () => {
  await served?.close();
  served = undefined;
});

describe('boundedFetch', () => {
  test('returns the body in memory with status and headers', async () => {
    served = await serve(() => json({ ok: true }, 200, { 'x-test': '1' }));
    const response = await boundedFetch(`${served.url}/doc`);
    expect(response.status).toBe(200);
    expect(response.headers.get('x-test')).toBe('1');
    expect(await readJsonObject(response, new URL(served.url))).toEqual({ ok: true });
  });

  test('refuses a body larger than the cap, declared or streamed', async () => {
    served = await serve((request) => {
      const size = 4096;
      if (new URL(request.url).pathname === '/declared') return new Response('x'.repeat(size));
      const stream = new ReadableStream<Uint8Array>({
        pull(controller) {
          controller.enqueue(new Uint8Array(1024).fill(120));
        },
      });
      return new Response(stream);
    });
    await expect(boundedFetch(`${served.url}/declared`, {}, { maxResponseBytes: 1000 })).rejects.toMatchObject({
      code: 'response_too_large',
    });
    await expect(boundedFetch(`${served.url}/endless`, {}, { maxResponseBytes: 64 * 1024 })).rejects.toMatchObject({
      code: 'response_too_large',
    });
  });

  test('times out a server that never answers', async () => {
    served = await serve(() => new Promise<Response>(() => undefined));
    await expect(boundedFetch(`${served.url}/slow`, {}, { timeoutMs: 150 })).rejects.toMatchObject({ code: 'fetch_timeout' });
  });

  test('stops redirect loops and long chains, and follows short ones', async () => {
    served = await serve((request) => {
      const path = new URL(request.url).pathname;
      if (path === '/loop-a') return new Response(null, { status: 302, headers: { location: '/loop-b' } });
      if (path === '/loop-b') return new Response(null, { status: 302, headers: { location: '/loop-a' } });
      const step = /^\/chain\/(\d+)$/.exec(path);
      if (step) return new Response(null, { status: 307, headers: { location: `/chain/${Number(step[1]) + 1}` } });
      if (path === '/short') return new Response(null, { status: 301, headers: { location: '/final' } });
      return json({ path });
    });
    await expect(boundedFetch(`${served.url}/loop-a`)).rejects.toMatchObject({ code: 'too_many_redirects' });
    await expect(boundedFetch(`${served.url}/chain/0`, {}, { maxRedirects: 3 })).rejects.toMatchObject({ code: 'too_many_redirects' });
    expect(await (await boundedFetch(`${served.url}/short`)).json()).toEqual({ path: '/final' });
  });

  test('does not follow redirects for POST, or through policyFetch', async () => {
    served = await serve(() => new Response(null, { status: 302, headers: { location: '/elsewhere' } }));
    expect((await boundedFetch(`${served.url}/token`, { method: 'POST', body: 'a=b' })).status).toBe(302);
    expect((await policyFetch()(`${served.url}/x`)).status).toBe(302);
  });

  test('refuses a redirect into a private address when configured', async () => {
    served = await serve(() => new Response(null, { status: 302, headers: { location: 'http://10.0.0.1/metadata' } }));
    // The first hop is loopback and explicitly allowed; the redirect target is not.
    await expect(
      boundedFetch(`${served.url}/x`, {}, { refusePrivateAddresses: true, allowedPrivateHosts: ['127.0.0.1'], allowHttp: 'always' }),
    ).rejects.toMatchObject({ code: 'address_refused' });
  });

  test('reports connection failures as fetch_failed without the query string', async () => {
    served = await serve(() => json({}));
    const url = `${served.url}/gone?code=secret-code`;
    await served.close();
    served = undefined;
    const error = await boundedFetch(url).catch((e: unknown) => e);
    expect(error).toMatchObject({ code: 'fetch_failed' });
    expect((error as Error).message).not.toContain('secret-code');
  });
});

describe('assertUrlAllowed', () => {
  test('plain http only to loopback by default', async () => {
    await expect(assertUrlAllowed(new URL('http://127.0.0.1:8080/x'))).resolves.toBeUndefined();
    await expect(assertUrlAllowed(new URL('http://localhost/x'))).resolves.toBeUndefined();
    await expect(assertUrlAllowed(new URL('http://example.com/x'))).rejects.toMatchObject({ code: 'insecure_url' });
    await expect(assertUrlAllowed(new URL('http://127.0.0.1/x'), { allowHttp: 'never' })).rejects.toMatchObject({ code: 'insecure_url' });
    await expect(assertUrlAllowed(new URL('ftp://example.com/x'))).rejects.toMatchObject({ code: 'insecure_url' });
    await expect(assertUrlAllowed(new URL('https://user:pw@example.com/'))).rejects.toMatchObject({ code: 'insecure_url' });
  });

  test('private and loopback addresses refused when configured, names checked through the resolver', async () => {
    const policy = {
      refusePrivateAddresses: true,
      resolveHost: (host: string) => Promise.resolve(host === 'internal.example' ? ['10.0.0.5'] : ['93.184.216.34']),
    };
    await expect(assertUrlAllowed(new URL('https://169.254.169.254/latest/meta-data'), policy)).rejects.toMatchObject({
      code: 'address_refused',
    });
    await expect(assertUrlAllowed(new URL('https://[::1]/x'), policy)).rejects.toMatchObject({ code: 'address_refused' });
    await expect(assertUrlAllowed(new URL('https://localhost/x'), policy)).rejects.toMatchObject({ code: 'address_refused' });
    await expect(assertUrlAllowed(new URL('https://internal.example/x'), policy)).rejects.toMatchObject({ code: 'address_refused' });
    await expect(assertUrlAllowed(new URL('https://public.example/x'), policy)).resolves.toBeUndefined();
  });
});
