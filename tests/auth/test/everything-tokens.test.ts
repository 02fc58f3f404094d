/**
 * Token lifecycle against the spawned everything server (`--http --auth-issuer`): the client refreshes with rotation
 * when its token expires and keeps working; a DPoP proof replayed to the server is refused, and a DPoP-bound token is
 * useless as a Bearer token; with a key set of our own (`--auth-jwks`), expired tokens, `alg: none`, HMAC-signed and
 * oversized tokens are refused with 401/400 and a readable challenge.
 */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { authorizationCodeGrant, automaticUserAgent, McpOAuthProvider, MemoryAuthStore } from '@wiremcp/auth/client';
import { McpClient } from '@wiremcp/client';
import { httpTransportFactory } from '@wiremcp/transport-http';
import { exportJWK, generateKeyPair, SignJWT } from 'jose';
import { afterEach, beforeAll, describe, expect, test } from 'vitest';
import { startOpenIdProvider } from './openid-provider.js';
import { assertBuilt, EVERYTHING, startHttpServer, stopAllServers } from './server-process.js';

beforeAll(() => assertBuilt(EVERYTHING));

const cleanup: Array<() => Promise<void>> = [];
afterEach(async () => {
  for (const step of cleanup.splice(0).reverse()) await step().catch(() => undefined);
  await stopAllServers();
});

const JSON_HEADERS = { 'content-type': 'application/json', accept: 'application/json, text/event-stream' };
const LIST = JSON.stringify({
  jsonrpc: '2.0',
  id: 1,
  method: 'tools/list',
  params: {
    _meta: { 'io.modelcontextprotocol/protocolVersion': '2026-07-28', 'io.modelcontextprotocol/clientCapabilities': {} },
  },
});
const MODERN = { ...JSON_HEADERS, 'mcp-protocol-version': '2026-07-28', 'mcp-method': 'tools/list' };

describe('tokens from oidc-provider at the everything server', () => {
  test('an expired token is refreshed (rotation) before the next request; the server accepts the new one', async () => {
    const op = await startOpenIdProvider();
    cleanup.push(() => op.close());
    const server = await startHttpServer(EVERYTHING, ['--auth-issuer', op.issuer, '--auth-scope', 'mcp:read']);
    let clock = Date.now();
    const store = new MemoryAuthStore();
    const auth = new McpOAuthProvider({
      serverUrl: server.url,
      grant: authorizationCodeGrant({ redirectUri: 'http://127.0.0.1:9/callback', userAgent: automaticUserAgent(), clientName: 'e2e' }),
      store,
      dpop: 'never',
      now: () => clock,
    });
    const client = new McpClient({ name: 'e2e', version: '1.0.0' }, { era: 'modern' });
    cleanup.push(() => client.close());
    await client.connect(httpTransportFactory(server.url, { auth, legacySse: false }));
    await client.callTool('test_simple_text', {});
    const first = (await store.loadTokens(server.url))!;
    expect(first.refreshToken).toBeTruthy();
    clock += 3600 * 1000; // the client's clock says the 300 s token has expired
    await client.callTool('test_simple_text', {});
    const second = (await store.loadTokens(server.url))!;
    expect(second.accessToken).not.toBe(first.accessToken);
    expect(second.refreshToken).not.toBe(first.refreshToken);
    expect(op.errors).toEqual([]);
  });

  test('DPoP: a replayed proof is refused, and the bound token does not work as a Bearer token', async () => {
    const op = await startOpenIdProvider();
    cleanup.push(() => op.close());
    const server = await startHttpServer(EVERYTHING, ['--auth-issuer', op.issuer, '--auth-scope', 'mcp:read', '--auth-dpop', 'required']);
    const store = new MemoryAuthStore();
    const auth = new McpOAuthProvider({
      serverUrl: server.url,
      grant: authorizationCodeGrant({ redirectUri: 'http://127.0.0.1:9/callback', userAgent: automaticUserAgent(), clientName: 'e2e' }),
      store,
    });
    await auth.authorize();
    expect((await store.loadTokens(server.url))!.tokenType).toBe('dpop');
    const headers = await auth.headers({ method: 'POST', url: new URL(server.url) });
    expect(headers.authorization).toMatch(/^DPoP /);
    const once = await fetch(server.url, { method: 'POST', headers: { ...MODERN, ...headers }, body: LIST });
    expect(once.status).toBe(200);
    const replay = await fetch(server.url, { method: 'POST', headers: { ...MODERN, ...headers }, body: LIST });
    expect(replay.status).toBe(401);
    expect(replay.headers.get('www-authenticate')).toContain('error="invalid_dpop_proof"');
    const asBearer = await fetch(server.url, {
      method: 'POST',
      headers: { ...MODERN, authorization: headers.authorization!.replace(/^DPoP /, 'Bearer ') },
      body: LIST,
    });
    expect(asBearer.status).toBe(401);
  });
});

describe('tokens signed with a key set of our own (--auth-jwks)', () => {
  test('valid accepted; expired, alg none, HMAC, another audience and oversized refused', async () => {
    const { publicKey, privateKey } = await generateKeyPair('ES256');
    const jwks = JSON.stringify({ keys: [{ ...(await exportJWK(publicKey)), kid: 'k1', alg: 'ES256', use: 'sig' }] });
    const keys = createServer((_req, res) => res.writeHead(200, { 'content-type': 'application/json' }).end(jwks));
    await new Promise<void>((resolve) => keys.listen(0, '127.0.0.1', resolve));
    cleanup.push(() => new Promise<void>((resolve) => keys.close(() => resolve())));
    const issuer = 'https://login.example.com/realms/mcp';
    const jwksUrl = `http://127.0.0.1:${(keys.address() as AddressInfo).port}/jwks`;
    const server = await startHttpServer(EVERYTHING, ['--auth-issuer', issuer, '--auth-jwks', jwksUrl, '--auth-scope', 'mcp:read']);
    const now = Math.floor(Date.now() / 1000);
    const sign = (claims: Record<string, unknown>) =>
      new SignJWT({ iss: issuer, aud: server.url, sub: 'svc', scope: 'mcp:read', iat: now, exp: now + 300, ...claims })
        .setProtectedHeader({ alg: 'ES256', kid: 'k1', typ: 'at+jwt' })
        .sign(privateKey);
    const present = (token: string) =>
      fetch(server.url, { method: 'POST', headers: { ...MODERN, authorization: `Bearer ${token}` }, body: LIST });
    const challenge = async (token: string) => {
      const response = await present(token);
      return `${response.status} ${response.headers.get('www-authenticate')}`;
    };
    expect((await present(await sign({}))).status).toBe(200);
    expect(await challenge(await sign({ iat: now - 7200, exp: now - 3600 }))).toMatch(/^401 .*error="invalid_token".*expired/);
    expect(await challenge(await sign({ aud: 'https://elsewhere.example/mcp' }))).toMatch(/^401 .*not for this resource/);
    expect(await challenge(await sign({ scope: 'profile' }))).toMatch(/^403 .*error="insufficient_scope".*scope="mcp:read"/);
    const b64 = (value: object) => Buffer.from(JSON.stringify(value)).toString('base64url');
    const claims = { iss: issuer, aud: server.url, sub: 'svc', scope: 'mcp:read', exp: now + 300 };
    expect(await challenge(`${b64({ alg: 'none', typ: 'JWT' })}.${b64(claims)}.`)).toMatch(/^401 .*error="invalid_token"/);
    const hmac = await new SignJWT(claims).setProtectedHeader({ alg: 'HS256' }).sign(new TextEncoder().encode('k'.repeat(32)));
    expect(await challenge(hmac)).toMatch(/^401 .*error="invalid_token"/);
    const huge = await present('a'.repeat(64 * 1024));
    expect([400, 431]).toContain(huge.status);
  });
});
