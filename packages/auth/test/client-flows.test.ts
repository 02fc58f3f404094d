/**
 * The OAuth client's behaviour over time: scope selection and step-up, retry limits, authorization server
 * migration, refresh with rotation, DPoP with nonces at both servers, and the grants without a user.
 */
import { decodeJwt, exportJWK, generateKeyPair, jwtVerify } from 'jose';
import { afterEach, describe, expect, test } from 'vitest';
import {
  authorizationCodeGrant,
  automaticUserAgent,
  clientCredentialsGrant,
  createAuthFetch,
  enterpriseManagedGrant,
  jwtBearerGrant,
  McpOAuthProvider,
  MemoryAuthStore,
  type McpOAuthProviderOptions,
  type OAuthGrant,
} from '../src/client/index.js';
import { mockAuthorizationServer, type AsOptions, type MockAs, type TokenRecord } from './helpers/mock-oauth.js';
import { mockResourceServer, type MockRs, type RsOptions } from './helpers/mock-resource.js';
import { json, serve } from './helpers/serve.js';

const closers: { close(): Promise<void> }[] = [];
afterEach(async () => {
  await Promise.all(closers.splice(0).map((c) => c.close()));
});

async function setup(asOptions: AsOptions = {}, rsOptions: Partial<RsOptions> = {}) {
  const registry = new Map<string, TokenRecord>();
  const as = await mockAuthorizationServer(asOptions, registry);
  closers.push(as);
  const rs = await mockResourceServer({ authorizationServers: () => [as.issuer], ...rsOptions }, registry);
  closers.push(rs);
  return { as, rs, registry };
}

const codeGrant = (): OAuthGrant =>
  authorizationCodeGrant({ redirectUri: 'http://127.0.0.1:9/callback', userAgent: automaticUserAgent(), clientName: 'wiremcp tests' });

function provider(rs: MockRs, options: Partial<McpOAuthProviderOptions> = {}): McpOAuthProvider {
  return new McpOAuthProvider({ serverUrl: rs.mcpUrl, grant: codeGrant(), ...options });
}

function caller(p: McpOAuthProvider, url: string) {
  const authFetch = createAuthFetch(p);
  return (method = 'tools/list') =>
    authFetch(url, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method }),
    });
}

const scopesOf = (as: MockAs, index: number) => as.authorizations[index]?.get('scope') ?? null;

describe('scopes', () => {
  test('from the challenge, else all of scopes_supported, else omitted', async () => {
    const a = await setup({}, { require: () => ['mcp:basic'], challengeScope: true, scopesSupported: ['other'] });
    expect((await caller(provider(a.rs), a.rs.mcpUrl)()).status).toBe(200);
    expect(scopesOf(a.as, 0)).toBe('mcp:basic');
    const b = await setup({}, { scopesSupported: ['mcp:basic', 'mcp:read', 'mcp:write'] });
    await caller(provider(b.rs), b.rs.mcpUrl)();
    expect(scopesOf(b.as, 0)!.split(' ').sort()).toEqual(['mcp:basic', 'mcp:read', 'mcp:write']);
    const c = await setup();
    await caller(provider(c.rs), c.rs.mcpUrl)();
    expect(scopesOf(c.as, 0)).toBeNull();
  });

  test('offline_access only when the authorization server lists it', async () => {
    const a = await setup({ scopesSupported: ['mcp:basic', 'offline_access'] }, { scopesSupported: ['mcp:basic'] });
    await caller(provider(a.rs), a.rs.mcpUrl)();
    expect(scopesOf(a.as, 0)).toBe('mcp:basic offline_access');
    const b = await setup({ scopesSupported: ['mcp:basic', 'mcp:read'] }, { scopesSupported: ['mcp:basic', 'offline_access'] });
    await caller(provider(b.rs), b.rs.mcpUrl)();
    expect(scopesOf(b.as, 0)).toBe('mcp:basic');
  });

  test('step-up on 403 insufficient_scope re-authorizes with the union of old and new scopes', async () => {
    const { as, rs } = await setup(
      {},
      { require: (m) => (m === 'tools/call' ? ['mcp:write'] : ['mcp:basic']), challengeScope: true, scopesSupported: ['mcp:profile'] },
    );
    const send = caller(provider(rs), rs.mcpUrl);
    expect((await send('tools/list')).status).toBe(200);
    expect((await send('tools/call')).status).toBe(200);
    expect(scopesOf(as, 0)).toBe('mcp:basic');
    expect(scopesOf(as, 1)!.split(' ').sort()).toEqual(['mcp:basic', 'mcp:write']);
  });

  test('repeated 403s stop after a bounded number of authorizations', async () => {
    // Tokens never carry mcp:admin: the resource always answers 403.
    const { as, rs } = await setup({ grantScopes: () => [] }, { require: () => ['mcp:admin'], challengeScope: true });
    await expect(caller(provider(rs), rs.mcpUrl)()).rejects.toMatchObject({ code: 'step_up_limit' });
    expect(as.authorizations.length).toBeGreaterThan(0);
    expect(as.authorizations.length).toBeLessThanOrEqual(3);
  });

  test('a server that keeps refusing fresh tokens ends in retry_limit, not a loop', async () => {
    const { as, rs } = await setup({}, { accept: () => false });
    await expect(caller(provider(rs), rs.mcpUrl)()).rejects.toMatchObject({ code: 'retry_limit' });
    expect(as.authorizations.length).toBeLessThanOrEqual(2);
  });
});

describe('authorization server binding', () => {
  test('when the resource moves to another authorization server, the client re-registers and never reuses credentials', async () => {
    const registry = new Map<string, TokenRecord>();
    const as1 = await mockAuthorizationServer({ registration: () => ({ client_id: 'as1-client', client_secret: 'as1-secret' }) }, registry);
    const as2 = await mockAuthorizationServer({ registration: () => ({ client_id: 'as2-client' }) }, registry);
    closers.push(as1, as2);
    let current = as1;
    const rs = await mockResourceServer(
      { authorizationServers: () => [current.issuer], accept: (record) => record.issuer === current.issuer },
      registry,
    );
    closers.push(rs);
    const store = new MemoryAuthStore();
    const send = caller(provider(rs, { store }), rs.mcpUrl);
    expect((await send()).status).toBe(200);
    current = as2;
    expect((await send()).status).toBe(200);
    expect(as2.registrations).toHaveLength(1);
    expect(as2.authorizations.every((p) => p.get('client_id') === 'as2-client')).toBe(true);
    expect(as2.tokenRequests.every((r) => r.body.get('client_id') !== 'as1-client' && !r.headers.has('authorization'))).toBe(true);
    expect((await store.loadClient(as1.issuer))?.clientId).toBe('as1-client');
    expect((await store.loadClient(as2.issuer))?.clientId).toBe('as2-client');
  });

  test('pre-registered credentials are not presented to a different authorization server', async () => {
    const registry = new Map<string, TokenRecord>();
    const as1 = await mockAuthorizationServer({ registration: false }, registry);
    const as2 = await mockAuthorizationServer({ registration: false }, registry);
    closers.push(as1, as2);
    let current = as1;
    const rs = await mockResourceServer(
      { authorizationServers: () => [current.issuer], accept: (record) => record.issuer === current.issuer },
      registry,
    );
    closers.push(rs);
    const grant = authorizationCodeGrant({
      redirectUri: 'http://127.0.0.1:9/callback',
      userAgent: automaticUserAgent(),
      clientName: 't',
      preRegistered: { clientId: 'pre', clientSecret: 'x' },
    });
    const send = caller(provider(rs, { grant }), rs.mcpUrl);
    expect((await send()).status).toBe(200);
    current = as2;
    await expect(send()).rejects.toMatchObject({ code: 'registration_failed' });
    expect(as2.authorizations).toHaveLength(0);
  });
});

describe('refresh', () => {
  test('refreshes before expiry with rotation; the old refresh token is dead', async () => {
    const { as, rs, registry } = await setup(
      { refreshTokens: true, scopesSupported: ['mcp', 'offline_access'] },
      { scopesSupported: ['mcp'] },
    );
    let clock = Date.now();
    const p = provider(rs, { now: () => clock });
    const send = caller(p, rs.mcpUrl);
    expect((await send()).status).toBe(200);
    const firstRefresh = as.tokenRequests.length;
    clock += 3600 * 1000;
    expect((await send()).status).toBe(200);
    const refresh = as.tokenRequests.slice(firstRefresh).find((r) => r.body.get('grant_type') === 'refresh_token');
    expect(refresh?.body.get('resource')).toBe(rs.mcpUrl);
    expect(registry.has(`refresh:${refresh!.body.get('refresh_token')}`)).toBe(false);
    clock += 3600 * 1000;
    expect((await send()).status).toBe(200);
    const refreshes = as.tokenRequests.filter((r) => r.body.get('grant_type') === 'refresh_token').map((r) => r.body.get('refresh_token'));
    expect(refreshes).toHaveLength(2);
    expect(refreshes[0]).not.toBe(refreshes[1]);
    expect(as.authorizations).toHaveLength(1);
  });

  test('a later run, with its loopback redirect on another port, refreshes with the stored client: no new registration, no browser', async () => {
    const { as, rs } = await setup({ refreshTokens: true });
    const store = new MemoryAuthStore();
    let clock = Date.now();
    const run = (port: number) =>
      new McpOAuthProvider({
        serverUrl: rs.mcpUrl,
        store,
        now: () => clock,
        grant: authorizationCodeGrant({
          redirectUri: `http://127.0.0.1:${port}/callback`,
          userAgent: automaticUserAgent(),
          clientName: 't',
        }),
      });
    expect((await caller(run(9), rs.mcpUrl)()).status).toBe(200);
    clock += 3600 * 1000;
    expect((await caller(run(10), rs.mcpUrl)()).status).toBe(200);
    expect(as.registrations).toHaveLength(1);
    expect(as.authorizations).toHaveLength(1);
    expect(as.tokenRequests.filter((r) => r.body.get('grant_type') === 'refresh_token')).toHaveLength(1);
  });

  test('a refresh that fails is reported to onRefreshError with its reason, then a new authorization follows', async () => {
    const { as, rs, registry } = await setup({ refreshTokens: true });
    let clock = Date.now();
    const reported: unknown[] = [];
    const send = caller(provider(rs, { now: () => clock, onRefreshError: (error) => reported.push(error) }), rs.mcpUrl);
    await send();
    for (const key of [...registry.keys()]) registry.delete(key);
    clock += 3600 * 1000;
    expect((await send()).status).toBe(200);
    expect(as.authorizations).toHaveLength(2);
    expect(reported).toHaveLength(1);
    expect(reported[0]).toMatchObject({ code: 'token_request_failed' });
    expect((reported[0] as Error).message).toMatch(/refresh/);
  });

  test('a refused refresh falls back to a new authorization', async () => {
    const { as, rs, registry } = await setup({ refreshTokens: true });
    let clock = Date.now();
    const send = caller(provider(rs, { now: () => clock }), rs.mcpUrl);
    await send();
    for (const key of [...registry.keys()]) if (key.startsWith('refresh:')) registry.delete(key);
    for (const key of [...registry.keys()]) registry.delete(key);
    clock += 10_000;
    expect((await send()).status).toBe(200);
    expect(as.authorizations).toHaveLength(2);
  });
});

describe('DPoP', () => {
  test.each([false, true])('binds tokens and sends a fresh proof per request (nonces required: %s)', async (nonces) => {
    const { as, rs } = await setup(
      { dpopAlgs: ['ES256'], ...(nonces ? { dpopNonce: 'as-nonce' } : {}) },
      nonces ? { rsNonce: 'rs-nonce' } : {},
    );
    const send = caller(provider(rs), rs.mcpUrl);
    expect((await send()).status).toBe(200);
    expect((await send()).status).toBe(200);
    const proofs = as.tokenRequests.map((r) => r.headers.get('dpop'));
    expect(proofs.every(Boolean)).toBe(true);
    if (nonces) expect(as.tokenRequests).toHaveLength(2);
    const authenticated = rs.requests.filter((r) => r.authorization);
    expect(authenticated.every((r) => r.authorization!.startsWith('DPoP ') && r.dpop)).toBe(true);
    expect(new Set(authenticated.map((r) => r.dpop)).size).toBe(authenticated.length);
    if (nonces) {
      expect(decodeJwt(as.tokenRequests[1]!.headers.get('dpop')!).nonce).toBe('as-nonce');
      expect(decodeJwt(authenticated.at(-1)!.dpop!).nonce).toBe('rs-nonce');
      expect(decodeJwt(authenticated[0]!.dpop!).nonce).toBeUndefined();
    }
  });

  test('never: no proofs even when advertised; the misadvertised none algorithm is ignored', async () => {
    const a = await setup({ dpopAlgs: ['ES256'] });
    await caller(provider(a.rs, { dpop: 'never' }), a.rs.mcpUrl)();
    expect(a.as.tokenRequests[0]!.headers.has('dpop')).toBe(false);
    const b = await setup({ dpopAlgs: ['none'] });
    expect((await caller(provider(b.rs), b.rs.mcpUrl)()).status).toBe(200);
    expect(b.as.tokenRequests[0]!.headers.has('dpop')).toBe(false);
  });
});

describe('grants without a user', () => {
  test('client credentials with client_secret_basic', async () => {
    const { as, rs } = await setup({ grantTypes: ['client_credentials'], authMethods: ['client_secret_basic'] });
    const p = provider(rs, { grant: clientCredentialsGrant({ clientId: 'conformance-test-client', clientSecret: 'secret' }) });
    expect((await caller(p, rs.mcpUrl)()).status).toBe(200);
    const request = as.tokenRequests[0]!;
    expect(request.body.get('grant_type')).toBe('client_credentials');
    expect(Buffer.from(request.headers.get('authorization')!.slice(6), 'base64').toString()).toBe('conformance-test-client:secret');
    expect(request.body.get('resource')).toBe(rs.mcpUrl);
  });

  test('client credentials with private_key_jwt: the assertion is for the issuer, from the client', async () => {
    const { publicKey, privateKey } = await generateKeyPair('ES256');
    const { as, rs } = await setup({ grantTypes: ['client_credentials'], authMethods: ['private_key_jwt'] });
    const p = provider(rs, { grant: clientCredentialsGrant({ clientId: 'jwt-client', privateKey }) });
    expect((await caller(p, rs.mcpUrl)()).status).toBe(200);
    const body = as.tokenRequests[0]!.body;
    expect(body.get('client_assertion_type')).toBe('urn:ietf:params:oauth:client-assertion-type:jwt-bearer');
    const { payload } = await jwtVerify(body.get('client_assertion')!, publicKey, { audience: as.issuer });
    expect(payload).toMatchObject({ iss: 'jwt-client', sub: 'jwt-client' });
    expect(JSON.stringify(await exportJWK(publicKey))).not.toContain('"d"');
  });

  test('workload identity JWT bearer; a refusal is reported once, not retried', async () => {
    let calls = 0;
    const { as, rs } = await setup({
      grantTypes: ['urn:ietf:params:oauth:grant-type:jwt-bearer'],
      registration: false,
      tokenHook: () => (++calls > 1 ? { error: 'invalid_grant' } : undefined),
    });
    const p = provider(rs, { grant: jwtBearerGrant({ clientId: 'workload', assertion: () => 'workload.jwt.value' }) });
    expect((await caller(p, rs.mcpUrl)()).status).toBe(200);
    expect(as.tokenRequests[0]!.body.get('assertion')).toBe('workload.jwt.value');
    expect(as.tokenRequests[0]!.body.get('client_id')).toBe('workload');
    const again = provider(rs, { grant: jwtBearerGrant({ clientId: 'workload', assertion: 'x' }) });
    await expect(caller(again, rs.mcpUrl)()).rejects.toMatchObject({ code: 'token_request_failed', oauthError: 'invalid_grant' });
    expect(as.tokenRequests).toHaveLength(2);
  });

  test('enterprise-managed: token exchange at the IdP for an ID-JAG, then JWT bearer at the authorization server', async () => {
    const exchanges: URLSearchParams[] = [];
    const idp = await serve(async (request) => {
      exchanges.push(new URLSearchParams(await request.text()));
      return json({ access_token: 'id-jag-value', issued_token_type: 'urn:ietf:params:oauth:token-type:id-jag', token_type: 'N_A' });
    });
    closers.push(idp);
    const { as, rs } = await setup({ grantTypes: ['urn:ietf:params:oauth:grant-type:jwt-bearer'], authMethods: ['client_secret_basic'] });
    const grant = enterpriseManagedGrant({
      clientId: 'xaa-client',
      clientSecret: 'xaa-secret',
      identityProvider: { tokenEndpoint: `${idp.url}/token`, client: { clientId: 'idp-client' }, idToken: 'id.token.value' },
    });
    expect((await caller(provider(rs, { grant }), rs.mcpUrl)()).status).toBe(200);
    expect(Object.fromEntries(exchanges[0]!)).toMatchObject({
      grant_type: 'urn:ietf:params:oauth:grant-type:token-exchange',
      subject_token: 'id.token.value',
      subject_token_type: 'urn:ietf:params:oauth:token-type:id_token',
      requested_token_type: 'urn:ietf:params:oauth:token-type:id-jag',
      audience: as.issuer,
      resource: rs.mcpUrl,
      client_id: 'idp-client',
    });
    const bearer = as.tokenRequests[0]!;
    expect(bearer.body.get('grant_type')).toBe('urn:ietf:params:oauth:grant-type:jwt-bearer');
    expect(bearer.body.get('assertion')).toBe('id-jag-value');
    expect(bearer.headers.get('authorization')).toMatch(/^Basic /);
  });
});
