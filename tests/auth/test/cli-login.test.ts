/**
 * The `wiremcp` command's `--auth` end to end: the built command logs in to the everything server (spawned with
 * `--http --auth-issuer` of the in-process oidc-provider) through its loopback redirect. The test plays the person at
 * the browser: it takes the authorization URL the command prints, lets the provider's headless interaction log in and
 * consent (`automaticUserAgent`, as the other tests here do), and delivers the redirect to the command's loopback
 * listener. Then: the listing and a tool call succeed, the token file is written readable by its owner only, a second
 * run reuses it without a login, and no token ever appears on the command's output.
 */
import { existsSync, mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { describe, expect, test } from 'vitest';
import { cliTestHooks, runWiremcp as wiremcp, secretsIn as tokensIn } from './cli-process.js';
import { startOpenIdProvider } from './openid-provider.js';
import { EVERYTHING, startHttpServer } from './server-process.js';

const cleanup = cliTestHooks();

describe('wiremcp --auth against the everything server behind oidc-provider', () => {
  test('logs in through the loopback redirect, keeps the tokens private, reuses them, and never prints them', async () => {
    const op = await startOpenIdProvider();
    cleanup.push(() => op.close());
    const server = await startHttpServer(EVERYTHING, ['--auth-issuer', op.issuer, '--auth-scope', 'mcp:read']);
    const home = mkdtempSync(join(tmpdir(), 'wiremcp-cli-auth-'));
    cleanup.push(() => rmSync(home, { recursive: true, force: true }));
    const store = join(home, 'config', 'auth.json');

    const unauthorized = await wiremcp(['list', '--json', server.url]);
    expect(unauthorized.code, unauthorized.stderr).toBe(4);
    expect(unauthorized.loggedIn).toBe(false);

    const first = await wiremcp(['list', '--json', '--auth', '--auth-store', store, server.url]);
    expect(first.stderr, first.stderr).not.toMatch(/wiremcp: /);
    expect(first.code).toBe(0);
    expect(first.loggedIn).toBe(true);
    const listing = JSON.parse(first.stdout) as { tools: Array<{ name: string }> };
    expect(listing.tools.map((tool) => tool.name)).toContain('test_simple_text');

    expect(existsSync(store)).toBe(true);
    expect(statSync(store).mode & 0o777).toBe(0o600);
    expect(statSync(dirname(store)).mode & 0o077).toBe(0);
    const tokens = tokensIn(store);
    expect(tokens.length).toBeGreaterThan(0);

    const second = await wiremcp(['call', '--json', '--auth', '--auth-store', store, 'test_simple_text', server.url]);
    expect(second.code).toBe(0);
    expect(second.loggedIn).toBe(false);
    expect(JSON.parse(second.stdout)).toMatchObject({ content: [{ type: 'text', text: 'This is a simple text response for testing.' }] });

    for (const run of [first, second]) {
      for (const token of tokens) {
        expect(run.stdout.includes(token) || run.stderr.includes(token), 'a token was printed').toBe(false);
      }
    }
  }, 90_000);
});
