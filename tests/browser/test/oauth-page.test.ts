/**
 * OAuth in Chromium: a browser app (the built `@wiremcp/auth/client`, `client` and `transport-http`) connects to the
 * everything server protected by a real OpenID provider (oidc-provider, see tests/auth). Discovery from the 401,
 * PKCE S256, the login page in a popup filled in like a person would (a wrong password first), the redirect back
 * to the app's origin, the token exchange over CORS, both eras (DPoP-bound tokens in 2026-07-28). A person closing
 * the popup ends the connection attempt (`AUTHORIZATION_FAILED`, caused by `interaction_cancelled`).
 */
import type { Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, describe, expect, test } from 'vitest';
import { LOGIN_PASSWORD, startOpenIdProvider, type OpenIdProvider } from '../../auth/test/openid-provider.js';
import { assertBuilt, EVERYTHING, startHttpServer, stopAllServers, type ServerProcess } from '../../auth/test/server-process.js';
import { launchChromium, type Browser } from './chromium.js';
import { recordChromiumResults } from './runtime-results.js';
import { startPageServer, type PageServer } from './page-server.js';
import type { OAuthRun, OAuthSetup } from './pages/oauth.js';

const CLIENT_ID = 'browser-app';

recordChromiumResults(import.meta.url);

let browser: Browser | undefined;
let pages: PageServer | undefined;
let provider: OpenIdProvider | undefined;
let server: ServerProcess | undefined;

beforeAll(async () => {
  assertBuilt(EVERYTHING);
  [browser, pages] = await Promise.all([launchChromium(), startPageServer(['oauth', 'callback'])]);
  provider = await startOpenIdProvider({
    loginPage: true,
    clients: [
      {
        client_id: CLIENT_ID,
        application_type: 'web',
        token_endpoint_auth_method: 'none',
        grant_types: ['authorization_code', 'refresh_token'],
        response_types: ['code'],
        redirect_uris: [pages.page('callback')],
      },
    ],
  });
  server = await startHttpServer(EVERYTHING, ['--auth-issuer', provider.issuer, '--auth-scope', 'mcp:read']);
}, 600_000); // a first run installs Chromium with apt-get (minutes)
const open: Page[] = [];
afterEach(async () => {
  for (const page of open.splice(0)) await page.close().catch(() => undefined);
  // The provider's login session lives in a cookie: without clearing it the next popup would sign in unasked.
  await browser?.context.clearCookies();
});
afterAll(async () => {
  await browser?.close();
  await pages?.close();
  await stopAllServers();
  await provider?.close();
});

type PageApi = { wiremcpOAuthPage: { configure(setup: OAuthSetup): void; outcome(): Promise<OAuthRun> } };

/** Opens the app page, configures it and clicks Connect; resolves with the login popup that opened. */
async function clickConnect(era: 'legacy' | 'modern'): Promise<{ page: Page; popup: Page }> {
  const page = await browser!.context.newPage();
  open.push(page);
  await page.goto(pages!.page('oauth'));
  const setup: OAuthSetup = { url: server!.url, era, clientId: CLIENT_ID, issuer: provider!.issuer };
  await page.evaluate((config) => (globalThis as unknown as PageApi).wiremcpOAuthPage.configure(config), setup);
  const popupOpened = page.waitForEvent('popup');
  await page.click('#connect');
  const popup = await popupOpened;
  open.push(popup);
  await popup.waitForSelector('form input[name=login]');
  return { page, popup };
}

const outcome = (page: Page): Promise<OAuthRun> => page.evaluate(() => (globalThis as unknown as PageApi).wiremcpOAuthPage.outcome());

const claims = (token: string): Record<string, unknown> =>
  JSON.parse(Buffer.from(token.split('.')[1]!, 'base64url').toString('utf8')) as Record<string, unknown>;

describe.each(['legacy', 'modern'] as const)('a browser app logs in through a popup (%s era)', (era) => {
  test(
    'discovery from the 401, the login page (a wrong password, then the right one), code + PKCE, the tool call',
    { timeout: 90_000 },
    async () => {
      const { page, popup } = await clickConnect(era);
      expect(popup.url()).toContain(`${provider!.issuer}/interaction/`);
      await popup.fill('input[name=login]', 'alice');
      await popup.fill('input[name=password]', 'not the password');
      await popup.click('button[type=submit]');
      await popup.waitForSelector('[role=alert]');
      expect(await popup.textContent('[role=alert]')).toContain('Wrong user name or password');

      const closed = popup.waitForEvent('close');
      await popup.fill('input[name=login]', 'alice');
      await popup.fill('input[name=password]', LOGIN_PASSWORD);
      await popup.click('button[type=submit]');
      await closed; // the app closed it once the redirect came back
      const run = await outcome(page);
      expect(run).toMatchObject({
        ok: true,
        era,
        text: 'This is a simple text response for testing.',
        tokenType: era === 'modern' ? 'dpop' : 'bearer',
      });
      const token = (run as Extract<OAuthRun, { ok: true }>).accessToken;
      expect(claims(token)).toMatchObject({ iss: provider!.issuer, aud: server!.url, sub: 'alice', scope: 'mcp:read' });
      if (era === 'modern') expect(claims(token)).toHaveProperty('cnf.jkt');
      expect(provider!.errors).toEqual([]);
    },
  );
});

test('closing the login popup ends the attempt: AUTHORIZATION_FAILED caused by interaction_cancelled', { timeout: 90_000 }, async () => {
  const { page, popup } = await clickConnect('modern');
  await popup.close();
  expect(await outcome(page)).toMatchObject({
    ok: false,
    code: 'AUTHORIZATION_FAILED',
    cause: 'interaction_cancelled',
    message: expect.stringContaining('the login window was closed'),
  });
});
