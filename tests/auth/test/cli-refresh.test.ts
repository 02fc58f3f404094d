/**
 * The `wiremcp` command's saved OAuth login outlives the process: two separate runs of the built command against the
 * everything server (spawned with `--http --auth-issuer` of the in-process oidc-provider), sharing a token store in a
 * temporary directory, each on its own loopback redirect port (`--auth-port`, two different free ports). Between the
 * runs the saved access token is made expired: its stored expiry is moved into the past and its value replaced by one
 * the server refuses, as it would refuse an expired token. The provider's own events count what the second run did.
 * - The refresh token still good: the second run refreshes (one refresh grant) and succeeds, with no new client
 *   registration and no new authorization, although its redirect URI differs from the registered one.
 * - The grant revoked at the provider: the second run says on stderr, once, why the saved login could not be
 *   refreshed (no token or secret in that line) and logs in again.
 */
import { createServer } from 'node:net';
import type { AddressInfo } from 'node:net';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { KoaContextWithOIDC } from 'oidc-provider';
import { describe, expect, test } from 'vitest';
import { cliTestHooks, runWiremcp, secretsIn, type CliRun } from './cli-process.js';
import { startOpenIdProvider, type OpenIdProvider } from './openid-provider.js';
import { EVERYTHING, startHttpServer } from './server-process.js';

const cleanup = cliTestHooks();

/** Two distinct free loopback ports (both held while chosen, so they differ). */
async function twoFreePorts(): Promise<[number, number]> {
  const servers = [createServer(), createServer()];
  await Promise.all(servers.map((s) => new Promise<void>((resolve) => s.listen(0, '127.0.0.1', resolve))));
  const ports = servers.map((s) => (s.address() as AddressInfo).port);
  await Promise.all(servers.map((s) => new Promise((resolve) => s.close(resolve))));
  return [ports[0]!, ports[1]!];
}

/** What the provider did, counted from its events. */
interface ProviderCounts {
  registrations: number;
  authorizations: number;
  codeGrants: number;
  refreshGrants: number;
  refusedRefreshes: number;
}

function countEvents(op: OpenIdProvider): ProviderCounts {
  const counts: ProviderCounts = { registrations: 0, authorizations: 0, codeGrants: 0, refreshGrants: 0, refusedRefreshes: 0 };
  const grantType = (ctx: KoaContextWithOIDC): unknown => ctx.oidc?.params?.grant_type;
  op.provider.on('registration_create.success', () => void counts.registrations++);
  op.provider.on('authorization.success', () => void counts.authorizations++);
  op.provider.on('grant.success', (ctx: KoaContextWithOIDC) => {
    if (grantType(ctx) === 'refresh_token') counts.refreshGrants++;
    if (grantType(ctx) === 'authorization_code') counts.codeGrants++;
  });
  op.provider.on('grant.error', (ctx: KoaContextWithOIDC) => {
    if (grantType(ctx) === 'refresh_token') counts.refusedRefreshes++;
  });
  return counts;
}

interface StoreFile {
  clients: Record<string, unknown>;
  tokens: Record<string, { accessToken: string; refreshToken?: string; expiresAt?: number }>;
}

/** The one saved login of the store. */
function savedLogin(store: string): StoreFile['tokens'][string] {
  const file = JSON.parse(readFileSync(store, 'utf8')) as StoreFile;
  const logins = Object.values(file.tokens);
  expect(logins).toHaveLength(1);
  return logins[0]!;
}

/** Expires the saved access token: its expiry a minute ago, its value one the server refuses. */
function expireSavedLogin(store: string): void {
  const file = JSON.parse(readFileSync(store, 'utf8')) as StoreFile;
  for (const tokens of Object.values(file.tokens)) {
    tokens.expiresAt = Date.now() - 60_000;
    tokens.accessToken = 'expired-access-token-0123456789';
  }
  writeFileSync(store, JSON.stringify(file), { mode: 0o600 });
}

function expectNoSecretPrinted(runs: readonly CliRun[], secrets: readonly string[]): void {
  expect(secrets.length).toBeGreaterThan(0);
  for (const run of runs)
    for (const secret of secrets)
      expect(run.stdout.includes(secret) || run.stderr.includes(secret), 'a token or secret was printed').toBe(false);
}

async function setUp(): Promise<{ op: OpenIdProvider; counts: ProviderCounts; url: string; store: string; ports: [number, number] }> {
  const op = await startOpenIdProvider();
  cleanup.push(() => op.close());
  const counts = countEvents(op);
  const server = await startHttpServer(EVERYTHING, ['--auth-issuer', op.issuer, '--auth-scope', 'mcp:read']);
  const home = mkdtempSync(join(tmpdir(), 'wiremcp-cli-refresh-'));
  cleanup.push(() => rmSync(home, { recursive: true, force: true }));
  return { op, counts, url: server.url, store: join(home, 'auth.json'), ports: await twoFreePorts() };
}

const login = (store: string, port: number, url: string): Promise<CliRun> =>
  runWiremcp(['list', '--json', '--auth', '--auth-store', store, '--auth-port', String(port), url]);

const call = (store: string, port: number, url: string): Promise<CliRun> =>
  runWiremcp(['call', '--json', '--auth', '--auth-store', store, '--auth-port', String(port), 'test_simple_text', url]);

const SIMPLE_TEXT = { content: [{ type: 'text', text: 'This is a simple text response for testing.' }] };

describe('wiremcp --auth: a second process after the access token expired', () => {
  test('refreshes with the saved client on another redirect port: no new registration, no new authorization', async () => {
    const { counts, url, store, ports } = await setUp();

    const first = await login(store, ports[0], url);
    expect(first.code, first.stderr).toBe(0);
    expect(first.loggedIn).toBe(true);
    expect(new URL(first.redirectUri!).port).toBe(String(ports[0]));
    expect(counts).toEqual({ registrations: 1, authorizations: 1, codeGrants: 1, refreshGrants: 0, refusedRefreshes: 0 });
    const before = savedLogin(store);
    expect(before.refreshToken).toBeDefined();
    const secrets = secretsIn(store);

    expireSavedLogin(store);
    const second = await call(store, ports[1], url);
    expect(second.stderr, second.stderr).not.toMatch(/wiremcp: /);
    expect(second.code).toBe(0);
    expect(JSON.parse(second.stdout)).toMatchObject(SIMPLE_TEXT);
    expect(second.loggedIn).toBe(false);
    expect(counts).toEqual({ registrations: 1, authorizations: 1, codeGrants: 1, refreshGrants: 1, refusedRefreshes: 0 });

    // The refresh was saved: a new access token and, with rotation, a new refresh token.
    const after = savedLogin(store);
    expect(after.accessToken).not.toBe('expired-access-token-0123456789');
    expect(after.refreshToken).toBeDefined();
    expect(after.refreshToken).not.toBe(before.refreshToken);
    expectNoSecretPrinted([first, second], [...secrets, ...secretsIn(store)]);
  }, 120_000);

  test('a refused refresh is reported on stderr with its reason, without the token, and the run logs in again', async () => {
    const { op, counts, url, store, ports } = await setUp();

    const first = await login(store, ports[0], url);
    expect(first.code, first.stderr).toBe(0);
    expect(first.loggedIn).toBe(true);
    const secrets = secretsIn(store);
    await op.revokeGrant(savedLogin(store).refreshToken!);

    expireSavedLogin(store);
    const second = await call(store, ports[1], url);
    expect(second.code, second.stderr).toBe(0);
    expect(JSON.parse(second.stdout)).toMatchObject(SIMPLE_TEXT);
    const reports = second.stderr.split('\n').filter((line) => line.startsWith('wiremcp: '));
    expect(reports).toHaveLength(1);
    const reason = /^wiremcp: the saved OAuth login could not be refreshed \((.+)\); logging in again$/.exec(reports[0]!)?.[1];
    expect(reason, reports[0]).toBeDefined();
    expect(reason).toMatch(/invalid_grant/);
    expect(counts.refusedRefreshes).toBeGreaterThanOrEqual(1);
    expect(counts.refreshGrants).toBe(0);
    // Logged in again, on the second run's own redirect port.
    expect(second.loggedIn).toBe(true);
    expect(new URL(second.redirectUri!).port).toBe(String(ports[1]));
    expect(counts.authorizations).toBe(2);
    expectNoSecretPrinted([first, second], [...secrets, ...secretsIn(store), 'expired-access-token-0123456789']);
  }, 120_000);
});
