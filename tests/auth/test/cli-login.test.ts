/**
 * The `wiremcp` command's `--auth` end to end: the built command logs in to the everything server (spawned with
 * `--http --auth-issuer` of the in-process oidc-provider) through its loopback redirect. The test plays the person at
 * the browser: it takes the authorization URL the command prints, lets the provider's headless interaction log in and
 * consent (`automaticUserAgent`, as the other tests here do), and delivers the redirect to the command's loopback
 * listener. Then: the listing and a tool call succeed, the token file is written readable by its owner only, a second
 * run reuses it without a login, and no token ever appears on the command's output.
 */
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { automaticUserAgent } from '@wiremcp/auth/client';
import { afterEach, beforeAll, describe, expect, test } from 'vitest';
import { startOpenIdProvider } from './openid-provider.js';
import { assertBuilt, EVERYTHING, startHttpServer, stopAllServers } from './server-process.js';

const WIREMCP = {
  script: fileURLToPath(new URL('../../../packages/cli/bin/wiremcp.js', import.meta.url)),
  dist: fileURLToPath(new URL('../../../packages/cli/dist/bin.js', import.meta.url)),
};

beforeAll(() => {
  assertBuilt(EVERYTHING);
  assertBuilt(WIREMCP);
});

const cleanup: Array<() => Promise<void> | void> = [];
afterEach(async () => {
  for (const step of cleanup.splice(0).reverse()) await Promise.resolve(step()).catch(() => undefined);
  await stopAllServers();
});

interface Run {
  readonly code: number | null;
  readonly stdout: string;
  readonly stderr: string;
  /** Whether the command asked for a login (printed an authorization URL). */
  readonly loggedIn: boolean;
}

/**
 * Runs the built command. When it prints an authorization URL, the login is completed as a browser would; the PATH
 * holds only Node's directory, so the command's attempt to open a real browser finds no opener.
 */
function wiremcp(args: readonly string[], timeoutMs = 30_000): Promise<Run> {
  const child = spawn(process.execPath, [WIREMCP.script, ...args], {
    stdio: ['ignore', 'pipe', 'pipe'],
    env: { ...process.env, PATH: dirname(process.execPath) },
  });
  let stdout = '';
  let stderr = '';
  let login: Promise<void> | undefined;
  const timer = setTimeout(() => child.kill('SIGKILL'), timeoutMs);
  cleanup.push(() => void child.kill('SIGKILL'));
  child.stdout.setEncoding('utf8').on('data', (chunk: string) => (stdout += chunk));
  child.stderr.setEncoding('utf8').on('data', (chunk: string) => {
    stderr += chunk;
    const match = /Open this URL to authorize: (\S+)/.exec(stderr);
    if (match && login === undefined) login = browse(new URL(match[1]!));
  });
  return new Promise((resolve, reject) => {
    child.once('error', reject);
    child.once('exit', (code) => {
      clearTimeout(timer);
      void Promise.resolve(login).then(() => resolve({ code, stdout, stderr, loggedIn: login !== undefined }), reject);
    });
  });
}

/** What the person at the browser does: log in, consent, and land on the command's loopback redirect. */
async function browse(authorization: URL): Promise<void> {
  const redirectUri = authorization.searchParams.get('redirect_uri');
  const state = authorization.searchParams.get('state');
  expect(redirectUri).toMatch(/^http:\/\/(127\.0\.0\.1|localhost|\[::1\]):\d+\//);
  const callback = await automaticUserAgent().authorize(authorization, { redirectUri: redirectUri!, state: state! });
  const landing = await fetch(callback);
  expect(landing.status).toBe(200);
  await landing.text();
}

/** Every string under a key that names a token (access, refresh, id) in the token file. */
function tokensIn(file: string): string[] {
  const found: string[] = [];
  const visit = (value: unknown, key = ''): void => {
    if (typeof value === 'string' && /token/i.test(key) && !/type/i.test(key) && value.length >= 16) found.push(value);
    else if (value && typeof value === 'object') for (const [k, v] of Object.entries(value)) visit(v, k);
  };
  visit(JSON.parse(readFileSync(file, 'utf8')));
  return found;
}

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
