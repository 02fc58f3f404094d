/**
 * The MCP Apps view origin of the inspector: each view served with its own CSP in the header, sandboxed, framed by the
 * page's origin only, at a path nobody can guess; nothing else served. And the `app-view` operation that fills it
 * from the target's `ui://` resource (never from the page), refusing what is not a view or declares a CSP it cannot read.
 */
import { request } from 'node:http';
import { buildCsp } from '@wiremcp/ext-apps';
import type { McpClient } from '@wiremcp/client';
import { afterEach, describe, expect, test } from 'vitest';
import { appViewOperations } from './app-views.js';
import { MAX_VIEWS, startViewServer, type ViewServer } from './view-server.js';

let views: ViewServer | undefined;
afterEach(async () => {
  await views?.close();
  views = undefined;
});

function get(
  url: string,
  headers: Record<string, string> = {},
  method = 'GET',
): Promise<{ status: number; text: string; headers: Record<string, unknown> }> {
  return new Promise((resolve, reject) => {
    const req = request(url, { method, headers }, (res) => {
      let text = '';
      res.setEncoding('utf8').on('data', (chunk: string) => (text += chunk));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, text, headers: res.headers }));
    });
    req.on('error', reject);
    req.end();
  });
}

const PAGE = ['http://127.0.0.1:4567', 'http://localhost:4567'];

describe('the view server', () => {
  test('serves a registered view with its CSP, sandbox and frame-ancestors in the header, and nothing else', async () => {
    views = await startViewServer();
    expect(views.origin).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    const csp = buildCsp({ connectDomains: ['https://api.example.com'] });
    const url = views.register('<!DOCTYPE html><p>hello</p>', csp);
    expect(url).toMatch(new RegExp(`^${views.origin}/view/[A-Za-z0-9_-]{22}$`));
    // Not before the page's origin is known: nothing may frame it yet.
    expect((await get(url)).status).toBe(404);
    views.embedBy(PAGE);
    const view = await get(url);
    expect(view.status).toBe(200);
    expect(view.text).toBe('<!DOCTYPE html><p>hello</p>');
    expect(view.headers['content-type']).toBe('text/html; charset=utf-8');
    expect(view.headers['content-security-policy']).toBe(`${csp}; frame-ancestors ${PAGE.join(' ')}; sandbox allow-scripts`);
    expect(view.headers['content-security-policy']).toContain('connect-src https://api.example.com;');
    expect(view.headers['set-cookie']).toBeUndefined();
    expect(view.headers['referrer-policy']).toBe('no-referrer');
    expect((await get(url, {}, 'HEAD')).status).toBe(200);
  });

  test('refuses a foreign Host, other methods, other paths, guessed ids; forgets the oldest beyond its bound', async () => {
    views = await startViewServer();
    views.embedBy(PAGE);
    const url = views.register('<p>x</p>', buildCsp(undefined));
    const { port } = new URL(views.origin);
    expect((await get(url, { host: `evil.example:${port}` })).status).toBe(421);
    expect((await get(url, { host: `localhost:${port}` })).status).toBe(200);
    expect((await get(url, {}, 'POST')).status).toBe(405);
    for (const path of [
      '/',
      '/api/rpc',
      '/view/',
      `${new URL(url).pathname}x`,
      `${new URL(url).pathname}/..`,
      '/view/AAAAAAAAAAAAAAAAAAAAAA',
    ])
      expect((await get(`${views.origin}${path}`)).status, path).toBe(404);
    for (let i = 0; i < MAX_VIEWS; i++) views.register(`<p>${i}</p>`, buildCsp(undefined));
    expect((await get(url)).status).toBe(404);
    expect(() => views!.register('<p>y</p>', "default-src 'none'\r\nset-cookie: a=b")).toThrow(TypeError);
    expect(() => views!.embedBy(['https://evil.example'])).toThrow(TypeError);
  });
});

describe('the app-view operation', () => {
  const registered: { html: string; csp: string }[] = [];
  const fake = (contents: unknown[]) => {
    registered.length = 0;
    return appViewOperations({
      client: () => ({ readResource: async () => ({ contents }) }) as unknown as McpClient,
      views: { register: (html, csp) => (registered.push({ html, csp }), 'http://127.0.0.1:1/view/x') },
    })['app-view'];
  };

  test("registers the target's view with the CSP it declared", async () => {
    const meta = { ui: { csp: { resourceDomains: ['https://cdn.example.com'] } } };
    const op = fake([{ uri: 'ui://a/b', mimeType: 'text/html;profile=mcp-app', text: '<p>view</p>', _meta: meta }]);
    expect(await op({ uri: 'ui://a/b' })).toMatchObject({ url: 'http://127.0.0.1:1/view/x', resourceMeta: meta.ui });
    expect(registered).toEqual([{ html: '<p>view</p>', csp: buildCsp(meta.ui.csp) }]);
  });

  test('refuses what is not a ui:// view, an oversized view, a CSP that is not origins; the page names no HTML', async () => {
    const view = { uri: 'ui://a/b', mimeType: 'text/html;profile=mcp-app', text: '<p>view</p>' };
    for (const uri of [undefined, 'https://evil.example/', 'file:///etc/passwd', 'ui://', `ui://${'a'.repeat(3000)}`])
      await expect(fake([view])({ uri, html: '<script>1</script>' })).rejects.toMatchObject({ status: 400 });
    await expect(fake([{ ...view, mimeType: 'text/html' }])({ uri: 'ui://a/b' })).rejects.toMatchObject({ status: 422 });
    await expect(fake([{ ...view, text: 'x'.repeat(5 * 1024 * 1024 + 1) }])({ uri: 'ui://a/b' })).rejects.toMatchObject({
      status: 422,
      message: expect.stringContaining('larger than'),
    });
    const loosening = { ...view, _meta: { ui: { csp: { connectDomains: ["'unsafe-eval'", 'http://x; script-src *'] } } } };
    await expect(fake([loosening])({ uri: 'ui://a/b' })).rejects.toMatchObject({
      status: 422,
      message: expect.stringContaining('CSP the inspector refuses'),
    });
    expect(registered).toEqual([]);
  });
});
