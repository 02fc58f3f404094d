/**
 * OAuth login inside the inspector page, in Chromium, against the everything server protected by a real OpenID
 * provider (`oidc-provider` with its HTML login form). The target answers the inspector with 401; the page offers
 * "Log in"; the authorization code flow with PKCE runs in the `wiremcp inspect` process, the page only opening the
 * provider's sign-in page; the redirect comes back to the inspector's loopback listener, which refuses a forged
 * `state`; then the inspector connects and the page works — and no token ever reaches the page or its wire view.
 * Fault: the authorization server down — the page says why and offers the login again.
 */
import { mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { secretsIn } from '../../auth/test/cli-process.js';
import { LOGIN_PASSWORD, startOpenIdProvider } from '../../auth/test/openid-provider.js';
import { assertBuilt, EVERYTHING, startHttpServer, stopAllServers } from '../../auth/test/server-process.js';
import { launchChromium, type Browser } from './chromium.js';
import { startInspect, WIREMCP_BIN } from './inspect-process.js';

const ARTIFACTS = fileURLToPath(new URL('../artifacts/', import.meta.url));

let browser: Browser | undefined;
const stops: Array<() => Promise<unknown> | void> = [];

beforeAll(async () => {
  assertBuilt(EVERYTHING);
  assertBuilt({ dist: WIREMCP_BIN });
  mkdirSync(ARTIFACTS, { recursive: true });
  browser = await launchChromium();
}, 600_000); // a first run installs Chromium with apt-get (minutes)
afterAll(async () => {
  await browser?.close();
  for (const stop of stops.splice(0).reverse()) await Promise.resolve(stop()).catch(() => undefined);
  await stopAllServers();
});

/** A protected everything server, an inspector on it with its own token file, and a page open on the inspector. */
async function setUp(): Promise<{ page: Page; store: string; issuer: string; closeProvider(): Promise<void>; stderr(): string }> {
  const provider = await startOpenIdProvider({ loginPage: true });
  stops.push(() => provider.close());
  const server = await startHttpServer(EVERYTHING, ['--auth-issuer', provider.issuer, '--auth-scope', 'mcp:read']);
  const home = mkdtempSync(join(tmpdir(), 'wiremcp-inspect-login-'));
  stops.push(() => rmSync(home, { recursive: true, force: true }));
  const store = join(home, 'auth.json');
  const inspector = await startInspect(['--era', 'legacy', '--auth-store', store, server.url]);
  stops.push(() => inspector.stop());
  const page = await browser!.context.newPage();
  stops.push(() => page.close().catch(() => undefined));
  await page.goto(inspector.url);
  return { page, store, issuer: provider.issuer, closeProvider: () => provider.close(), stderr: inspector.stderr };
}

test(
  'Log in from the page: the flow runs in the CLI, a forged state is refused, no token reaches the page',
  { timeout: 120_000 },
  async () => {
    const { page, store, issuer, stderr } = await setUp();
    const errors: string[] = [];
    page.on('pageerror', (error) => errors.push(error.message));
    await expect.poll(() => page.locator('header').textContent()).toContain('not connected');
    const login = page.getByRole('region', { name: 'Login' });
    await login.getByText(/401/).waitFor();
    expect(stderr()).toMatch(/wiremcp inspect: .*401.*; log in from the page/);
    await page.screenshot({ path: `${ARTIFACTS}inspect-login-needed.png`, fullPage: true });

    const [popup] = await Promise.all([page.waitForEvent('popup'), login.getByRole('button', { name: 'Log in' }).click()]);
    await popup.waitForSelector('input[name=login]');
    expect(popup.url()).toContain(`${issuer}/interaction/`);

    // The redirect listener is the CLI's: a redirect with another state is refused, and the login still waits.
    const href = await login.getByRole('link', { name: 'Open the sign-in page' }).getAttribute('href');
    const authorization = new URL(href!);
    expect(authorization.searchParams.get('code_challenge_method')).toBe('S256');
    const redirectUri = authorization.searchParams.get('redirect_uri')!;
    expect(redirectUri).toMatch(/^http:\/\/127\.0\.0\.1:\d+\//);
    const forged = await fetch(`${redirectUri}?code=forged&state=${'x'.repeat(43)}`);
    expect(forged.status).toBe(400);

    await popup.fill('input[name=login]', 'alice');
    await popup.fill('input[name=password]', LOGIN_PASSWORD);
    await popup.click('button[type=submit]');
    await popup.getByText('Authorized. You can close this window.').waitFor();
    await expect.poll(() => page.locator('header .good').textContent()).toBe('connected');
    expect(await login.isHidden()).toBe(true);
    expect(stderr()).toContain('wiremcp inspect: logged in');

    await page.getByRole('tab', { name: 'Tools' }).click();
    await page.getByRole('button', { name: /^test_simple_text( —|$)/ }).click();
    await page.getByRole('button', { name: 'Call tool' }).click();
    await page.getByRole('region', { name: 'Tool result' }).getByText('This is a simple text response for testing.').waitFor();
    await page.screenshot({ path: `${ARTIFACTS}inspect-login-done.png`, fullPage: true });

    // The tokens are in the CLI's file, and nowhere in the page or its wire log.
    const tokens = secretsIn(store);
    expect(tokens.length).toBeGreaterThan(0);
    await page.getByRole('tab', { name: /^Wire/ }).click();
    const [download] = await Promise.all([page.waitForEvent('download'), page.getByRole('button', { name: 'Download trace' }).click()]);
    const trace = readFileSync((await download.path())!, 'utf8');
    expect(trace).toContain('www-authenticate');
    const html = await page.content();
    for (const token of tokens) {
      expect(trace.includes(token), 'a token is in the wire log').toBe(false);
      expect(html.includes(token), 'a token is in the page').toBe(false);
    }
    expect(errors).toEqual([]);
  },
);

test(
  'fault: the authorization server down — the page says why, the inspector keeps serving, Log in is offered again',
  { timeout: 60_000 },
  async () => {
    const { page, closeProvider, stderr } = await setUp();
    await closeProvider();
    // The `failed` event may reach the page before the answer to its `login` call (the refused connection is
    // quicker than that answer's round trip). Hold the first answer until the failure is shown, so that order — the
    // one in which the page once covered the failure with "Waiting…" and dropped the button — is tested every run.
    let release!: () => void;
    const released = new Promise<void>((resolve) => (release = resolve));
    let held = 0;
    const isLogin = (body: string | null): boolean => (JSON.parse(body ?? '{}') as { op?: string }).op === 'login';
    await page.route('**/api/rpc', async (route) => {
      if (!isLogin(route.request().postData()) || held++ > 0) return route.continue();
      const response = await route.fetch();
      await released;
      await route.fulfill({ response });
    });
    const login = page.getByRole('region', { name: 'Login' });
    await login.getByRole('button', { name: 'Log in' }).click();
    const failure = login.getByRole('alert').filter({ hasText: 'Login failed' });
    await failure.waitFor();
    const answered = page.waitForResponse((response) => response.url().endsWith('/api/rpc') && isLogin(response.request().postData()));
    release();
    await answered;
    await page.evaluate(() => new Promise((resolve) => setTimeout(resolve, 0))); // the page's turn to read the answer
    expect(await failure.textContent()).toMatch(/authorization|fetch|connect|ECONNREFUSED/i);
    expect(await login.getByRole('status').count(), 'no "Waiting…" over the failure').toBe(0);
    // Log in is offered again, and a second try fails the same way.
    await login.getByRole('button', { name: 'Log in' }).click();
    await expect.poll(() => held).toBe(2);
    await failure.waitFor();
    await login.getByRole('button', { name: 'Log in' }).waitFor();
    await expect.poll(() => page.locator('header').textContent()).toContain('not connected');
    expect(stderr()).not.toContain('logged in');
    await page.screenshot({ path: `${ARTIFACTS}inspect-login-failed.png`, fullPage: true });
  },
);
