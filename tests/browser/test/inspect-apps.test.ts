/**
 * MCP Apps views in `wiremcp inspect`, in Chromium: the everything server's counter view renders under the result of
 * `test_app_counter`, served from the inspector's view origin (another port, no token, its CSP in the response
 * header, sandboxed to scripts), and works — its +1 button calls the app-only tool through the bridge, and the call is
 * in the view's log and the wire view. Then a hostile view: it reads nothing of the page (document, location,
 * storage, cookies), cannot open windows or navigate the page, cannot reach the inspector's API with or without a
 * guessed token (even with the inspector's origin in its declared CSP), reaches no origin it did not declare, and
 * its garbage, flood, oversized message and forbidden tool call are refused; the page keeps working. The Conformance
 * tab's jobs field is checked too. Screenshots go to `tests/browser/artifacts/`.
 */
import { createServer, request, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { fileURLToPath } from 'node:url';
import { describe, expect, test } from 'vitest';
import { EVERYTHING } from '../../auth/test/server-process.js';
import { ARTIFACTS, callTool, useInspectorBrowser } from './inspector-browser.js';

const HOSTILE = fileURLToPath(new URL('./fixtures/hostile-app-server.mjs', import.meta.url));

const suite = useInspectorBrowser({ builds: [EVERYTHING] });
let beacon: Server | undefined;
const beaconHits: string[] = [];
suite.cleanup(async () => {
  beacon?.closeAllConnections();
  await new Promise<void>((resolve) => (beacon ? beacon.close(() => resolve()) : resolve()));
});

function headersOf(url: string): Promise<{ status: number; headers: Record<string, unknown> }> {
  return new Promise((resolve, reject) => {
    const req = request(url, { method: 'HEAD' }, (res) => {
      res.resume();
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers }));
    });
    req.on('error', reject);
    req.end();
  });
}

describe('MCP Apps views in wiremcp inspect', () => {
  test("the everything server's counter view renders from its own origin and works", { timeout: 120_000 }, async () => {
    const inspector = await suite.inspect(['node', EVERYTHING.script]);
    const page = await suite.newPage();
    const errors: string[] = [];
    page.on('pageerror', (error) => errors.push(error.message));
    try {
      await page.goto(inspector.url);
      await callTool(page, 'test_app_counter');
      const iframe = page.locator('iframe.app-view');
      await iframe.waitFor();
      const frame = page.frameLocator('iframe.app-view');
      // The view got the tool's result through the bridge.
      await expect.poll(() => frame.locator('#count').textContent(), { timeout: 30_000 }).toBe('0');
      const src = (await iframe.getAttribute('src'))!;
      const viewOrigin = new URL(src).origin;
      expect(viewOrigin).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
      expect(viewOrigin).not.toBe(inspector.origin);
      expect(src).not.toContain(inspector.token);
      expect(await iframe.getAttribute('sandbox')).toBe('allow-scripts');
      const served = await headersOf(src);
      expect(served.status).toBe(200);
      expect(served.headers['content-security-policy']).toMatch(
        /^default-src 'none'; script-src 'self' 'unsafe-inline'.*; connect-src 'none'/,
      );
      expect(served.headers['content-security-policy']).toContain(`frame-ancestors ${inspector.origin}`);
      expect(served.headers['content-security-policy']).toMatch(/; sandbox allow-scripts$/);
      expect(served.headers['set-cookie']).toBeUndefined();

      // The view's own button: an app-only tool, called through the bridge, logged in the page.
      await frame.locator('#more').click();
      await expect.poll(() => frame.locator('#count').textContent()).toBe('1');
      await frame.locator('#more').click();
      await expect.poll(() => frame.locator('#count').textContent()).toBe('2');
      const log = page.getByRole('log', { name: /Requests of the view ui:\/\/everything\/counter/ });
      await expect.poll(() => log.locator('li').filter({ hasText: 'tools/call test_app_increment {} (allowed)' }).count()).toBe(2);
      await page.screenshot({ path: `${ARTIFACTS}inspect-app-view.png`, fullPage: true });
      // The view's calls went through the inspector: they are in the wire view.
      await page.getByRole('tab', { name: 'Wire' }).click();
      await page.locator('#wire-text').fill('test_app_increment');
      await expect.poll(() => page.locator('#panel-wire tbody tr:not(.details)').count()).toBeGreaterThanOrEqual(2);
      expect(errors).toEqual([]);
    } finally {
      await page.close();
    }
    expect(await inspector.stop()).toBe(143);
  });

  test('a hostile view gets nothing, and the page keeps working', { timeout: 180_000 }, async () => {
    beacon = createServer((req, res) => {
      beaconHits.push(req.url ?? '');
      res.end('hit');
    });
    await new Promise<void>((resolve) => beacon!.listen(0, '127.0.0.1', resolve));
    const beaconOrigin = `http://127.0.0.1:${(beacon.address() as AddressInfo).port}`;
    const inspector = await suite.inspect(['node', HOSTILE]);
    const page = await suite.newPage();
    const errors: string[] = [];
    page.on('pageerror', (error) => errors.push(error.message));
    const popups: string[] = [];
    suite.browser.context.on('page', (opened) => popups.push(opened.url()));
    try {
      await page.goto(inspector.url);
      // The view declares the inspector's own origin for connections: only the inspector's checks stand in its way.
      await callTool(page, 'hostile_view', { connect: inspector.origin, beacon: beaconOrigin });
      const frame = page.frameLocator('iframe.app-view');
      const report = async (): Promise<Record<string, unknown>> =>
        JSON.parse((await frame.locator('#report').textContent()) ?? '{}') as Record<string, unknown>;
      await expect.poll(async () => (await report()).finished, { timeout: 60_000 }).toBe(true);
      const got = await report();
      expect(got.parentOrigin).toBe(inspector.origin);
      expect(String(got.ownUrl)).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/view\/[A-Za-z0-9_-]{22}$/);
      expect(String(got.ownUrl)).not.toContain(inspector.token);
      for (const key of ['parentDocument', 'parentLocation', 'cookie', 'sessionStorage', 'localStorage', 'popup'])
        expect(got[key], key).toMatch(/^refused: /);
      for (const key of ['apiNoToken', 'apiGuessedToken', 'events', 'page', 'undeclared']) expect(got[key], key).toBe('refused: TypeError');
      // A no-cors request is either not sent (Chromium refuses it from the sandboxed frame) or gives an opaque answer:
      // nothing readable either way, and \`calls\` below shows the inspector ran nothing.
      expect(got.apiNoCors).toMatch(/^(refused: TypeError|got: opaque 0)$/);
      expect(got.forbiddenTool).toMatch(/^refused: tool 'secret_tool' may not be called by an app/);
      expect(got.openLink).toMatch(/^refused: opening the link was refused by the host/);
      expect(JSON.stringify(got)).not.toContain(inspector.token);
      expect(beaconHits).toEqual([]);
      expect(popups).toEqual([]);
      expect(page.url()).toBe(inspector.url);

      const log = page.getByRole('log', { name: /Requests of the view ui:\/\/hostile\/view/ });
      for (const kind of ['malformed', 'oversized', 'forbidden-tool', 'flood', 'ui/open-link https://evil.example/ (refused'])
        await expect.poll(() => log.locator('li').filter({ hasText: kind }).count(), { message: kind }).toBeGreaterThan(0);
      await page.screenshot({ path: `${ARTIFACTS}inspect-app-hostile.png`, fullPage: true });

      // The page still works: the server saw no call but the page's own (secret_tool never reached it).
      await callTool(page, 'calls');
      await expect.poll(() => page.locator('.result pre').first().textContent()).toBe('hostile_view,calls');
      await callTool(page, 'secret_tool');
      await expect.poll(() => page.locator('.result pre').first().textContent()).toBe('the model only');
      expect(errors).toEqual([]);
    } finally {
      await page.close();
    }
    expect(await inspector.stop()).toBe(143);
  });

  test('the Conformance tab offers the jobs setting: the default of the CLI, bounded', { timeout: 60_000 }, async () => {
    const inspector = await suite.inspect(['node', EVERYTHING.script]);
    const page = await suite.newPage();
    try {
      await page.goto(inspector.url);
      await page.getByRole('tab', { name: 'Conformance' }).click();
      const jobs = page.getByLabel('Jobs (cells run at once)');
      const state = await page.evaluate(async (token) => {
        const response = await fetch('/api/rpc', {
          method: 'POST',
          headers: { 'content-type': 'application/json', 'x-wiremcp-inspector-token': token },
          body: JSON.stringify({ op: 'conformance' }),
        });
        return ((await response.json()) as { result: { jobs: { default: number; max: number } } }).result.jobs;
      }, inspector.token);
      await expect.poll(() => jobs.inputValue()).toBe(String(state.default));
      expect(await jobs.getAttribute('max')).toBe('64');
      // Refused by the inspector too, whatever the page sends.
      const refused = await page.evaluate(async (token) => {
        const response = await fetch('/api/rpc', {
          method: 'POST',
          headers: { 'content-type': 'application/json', 'x-wiremcp-inspector-token': token },
          body: JSON.stringify({ op: 'conformance-start', params: { jobs: 65 } }),
        });
        return { status: response.status, body: await response.text() };
      }, inspector.token);
      expect(refused).toEqual({ status: 400, body: JSON.stringify({ error: "'jobs' must be an integer from 1 to 64" }) });
    } finally {
      await page.close();
    }
    expect(await inspector.stop()).toBe(143);
  });
});
