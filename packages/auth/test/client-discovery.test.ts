/**
 * The OAuth client against in-process authorization and resource servers: discovery in every revision's layout,
 * RFC 9207 and metadata issuer checks, resource validation, PKCE, registration choices and bad input.
 */
import { afterEach, describe, expect, test } from 'vitest';
import {
  authorizationCodeGrant,
  automaticUserAgent,
  createAuthFetch,
  McpOAuthProvider,
  type McpOAuthProviderOptions,
} from '../src/client/index.js';
import type { AuthorizationCodeGrantOptions } from '../src/client/authorization-code.js';
import { mockAuthorizationServer, type AsOptions, type MockAs, type TokenRecord } from './helpers/mock-oauth.js';
import { mockResourceServer, type MockRs, type RsOptions } from './helpers/mock-resource.js';
import { json, serve } from './helpers/serve.js';

const closers: { close(): Promise<void> }[] = [];
afterEach(async () => {
  await Promise.all(closers.splice(0).map((c) => c.close()));
});

export async function setup(
  asOptions: AsOptions = {},
  rsOptions: Partial<RsOptions> | ((as: MockAs) => Partial<RsOptions>) = {},
): Promise<{ as: MockAs; rs: MockRs; registry: Map<string, TokenRecord> }> {
  const registry = new Map<string, TokenRecord>();
  const as = await mockAuthorizationServer(asOptions, registry);
  closers.push(as);
  const extra = typeof rsOptions === 'function' ? rsOptions(as) : rsOptions;
  const rs = await mockResourceServer({ authorizationServers: () => [as.issuer], ...extra }, registry);
  closers.push(rs);
  return { as, rs, registry };
}

const REDIRECT = 'http://127.0.0.1:9/callback';

function provider(
  rs: MockRs,
  grant: Partial<AuthorizationCodeGrantOptions> = {},
  options: Partial<McpOAuthProviderOptions> = {},
): McpOAuthProvider {
  return new McpOAuthProvider({
    serverUrl: rs.mcpUrl,
    grant: authorizationCodeGrant({ redirectUri: REDIRECT, userAgent: automaticUserAgent(), clientName: 'wiremcp tests', ...grant }),
    ...options,
  });
}

async function call(p: McpOAuthProvider, url: string, method = 'tools/list'): Promise<Response> {
  return createAuthFetch(p)(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ jsonrpc: '2.0', id: 1, method }),
  });
}

describe('discovery layouts', () => {
  test('path-based PRM from the challenge, RFC 8414 at the root; DCR, PKCE S256, resource everywhere', async () => {
    const { as, rs } = await setup();
    const response = await call(provider(rs), rs.mcpUrl);
    expect(response.status).toBe(200);
    expect(rs.prmRequests).toEqual(['/.well-known/oauth-protected-resource/mcp']);
    expect(as.registrations[0]).toMatchObject({
      application_type: 'native',
      redirect_uris: [REDIRECT],
      grant_types: ['authorization_code', 'refresh_token'],
    });
    const authorization = as.authorizations[0]!;
    expect(authorization.get('code_challenge_method')).toBe('S256');
    expect(authorization.get('resource')).toBe(rs.mcpUrl);
    expect(authorization.get('state')).toBeTruthy();
    expect(as.tokenRequests[0]!.body.get('resource')).toBe(rs.mcpUrl);
    expect(as.tokenRequests[0]!.body.get('code_verifier')).toBeTruthy();
    expect(rs.requests.at(-1)!.authorization).toMatch(/^Bearer at-/);
  });

  test('no resource_metadata in the challenge: path-based well-known; OIDC discovery when RFC 8414 is absent', async () => {
    const { rs } = await setup({ metadataPaths: ['/.well-known/openid-configuration'] }, { challengeWithPrm: false });
    expect((await call(provider(rs), rs.mcpUrl)).status).toBe(200);
    expect(rs.prmRequests[0]).toBe('/.well-known/oauth-protected-resource/mcp');
  });

  test('root PRM (resource = origin) and an issuer with a path (RFC 8414 path insertion)', async () => {
    const { as, rs } = await setup(
      { routePrefix: '/tenant1', metadataPaths: ['/.well-known/oauth-authorization-server/tenant1'] },
      { prmPath: '/.well-known/oauth-protected-resource', challengeWithPrm: false },
    );
    expect((await call(provider(rs), rs.mcpUrl)).status).toBe(200);
    expect(rs.prmRequests).toEqual(['/.well-known/oauth-protected-resource/mcp', '/.well-known/oauth-protected-resource']);
    expect(as.authorizations[0]!.get('resource')).toBe(rs.url);
    expect(as.metadataRequests).toEqual(['/.well-known/oauth-authorization-server/tenant1']);
  });

  test('custom PRM location from the challenge and OIDC path appending', async () => {
    const { as, rs } = await setup(
      { routePrefix: '/tenant1', metadataPaths: ['/tenant1/.well-known/openid-configuration'] },
      { prmPath: '/custom/metadata/location.json' },
    );
    expect((await call(provider(rs), rs.mcpUrl)).status).toBe(200);
    expect(rs.prmRequests).toEqual([]);
    expect(as.metadataRequests).toEqual(['/tenant1/.well-known/openid-configuration']);
  });

  test('2025-03-26: no PRM, authorization server metadata at the MCP origin', async () => {
    const registry = new Map<string, TokenRecord>();
    let rsOrigin = '';
    const as = await mockAuthorizationServer(
      { routePrefix: '/oauth', issuer: (origin) => origin, publicOrigin: () => rsOrigin, issSupported: null, iss: 'omit' },
      registry,
    );
    closers.push(as);
    const rs = await mockResourceServer({ prmPath: null, authorizationServers: () => [], forward: as.url }, registry);
    closers.push(rs);
    rsOrigin = rs.url;
    expect((await call(provider(rs), rs.mcpUrl)).status).toBe(200);
    expect(as.authorizations[0]!.has('resource')).toBe(false);
    expect(as.registrations).toHaveLength(1);
  });

  test('2025-03-26: no metadata at all, default /authorize, /token and /register endpoints', async () => {
    const registry = new Map<string, TokenRecord>();
    let rsOrigin = '';
    const as = await mockAuthorizationServer({ metadataPaths: [], publicOrigin: () => rsOrigin, iss: 'omit' }, registry);
    closers.push(as);
    const rs = await mockResourceServer({ prmPath: null, authorizationServers: () => [], forward: as.url }, registry);
    closers.push(rs);
    rsOrigin = rs.url;
    expect((await call(provider(rs), rs.mcpUrl)).status).toBe(200);
    expect(as.tokenRequests).toHaveLength(1);
    await expect(call(provider(rs, {}, { legacyDiscovery: false }), rs.mcpUrl)).rejects.toMatchObject({ code: 'discovery_failed' });
  });
});

describe('issuer and resource checks', () => {
  test.each([
    ['advertised and correct', { issSupported: true, iss: 'correct' as const }, true],
    ['neither advertised nor sent', { issSupported: null, iss: 'omit' as const }, true],
    ['advertised but missing', { issSupported: true, iss: 'omit' as const }, false],
    ['wrong', { issSupported: true, iss: 'wrong' as const }, false],
    ['sent unadvertised and wrong', { issSupported: null, iss: 'wrong' as const }, false],
    ['a trailing-slash variant', { issSupported: true, iss: 'normalized' as const }, false],
  ])('RFC 9207 iss %s', async (_name, options, accepted) => {
    const { as, rs } = await setup(options);
    const outcome = call(provider(rs), rs.mcpUrl);
    if (accepted) {
      expect((await outcome).status).toBe(200);
    } else {
      await expect(outcome).rejects.toMatchObject({ code: 'issuer_mismatch' });
      expect(as.authorizations).toHaveLength(1);
      expect(as.tokenRequests).toHaveLength(0);
    }
  });

  test('metadata naming another issuer is not used', async () => {
    const { as, rs } = await setup({ issuer: () => 'https://attacker.example.com', routePrefix: '/mismatched-as' }, (server) => ({
      authorizationServers: () => [server.url],
    }));
    await expect(call(provider(rs), rs.mcpUrl)).rejects.toMatchObject({ code: 'issuer_mismatch' });
    expect(as.metadataRequests).toHaveLength(1);
    expect(as.registrations).toHaveLength(0);
    expect(as.authorizations).toHaveLength(0);
  });

  test('PRM for another resource aborts before any authorization', async () => {
    const { as, rs } = await setup({}, { prmResource: () => 'https://evil.example.com/mcp' });
    await expect(call(provider(rs), rs.mcpUrl)).rejects.toMatchObject({ code: 'resource_mismatch' });
    expect(as.metadataRequests).toHaveLength(0);
    expect(as.authorizations).toHaveLength(0);
  });

  test('an authorization server without PKCE S256 is refused', async () => {
    const { as, rs } = await setup({ pkce: null });
    await expect(call(provider(rs), rs.mcpUrl)).rejects.toMatchObject({ code: 'pkce_unsupported' });
    expect(as.authorizations).toHaveLength(0);
  });
});

describe('registration', () => {
  test('Client ID Metadata Document URL when supported, no DCR', async () => {
    const { as, rs } = await setup({ cimd: true });
    const cimd = 'https://client.example.com/metadata.json';
    expect((await call(provider(rs, { clientMetadataUrl: cimd }), rs.mcpUrl)).status).toBe(200);
    expect(as.registrations).toHaveLength(0);
    expect(as.authorizations[0]!.get('client_id')).toBe(cimd);
  });

  test('pre-registered credentials take priority and use client_secret_basic', async () => {
    const { as, rs } = await setup({ registration: false, authMethods: ['client_secret_basic'] });
    const p = provider(rs, { preRegistered: { clientId: 'pre-client', clientSecret: 's3cr:et' } });
    expect((await call(p, rs.mcpUrl)).status).toBe(200);
    const basic = as.tokenRequests[0]!.headers.get('authorization')!;
    expect(Buffer.from(basic.slice(6), 'base64').toString()).toBe('pre-client:s3cr%3Aet');
  });

  test.each([
    ['client_secret_basic', (h: Headers, b: URLSearchParams) => h.get('authorization')?.startsWith('Basic ') && !b.has('client_secret')],
    ['client_secret_post', (h: Headers, b: URLSearchParams) => !h.has('authorization') && b.get('client_secret') === 'sec'],
    ['none', (h: Headers, b: URLSearchParams) => !h.has('authorization') && !b.has('client_secret') && b.get('client_id') === 'dyn'],
  ])('dynamic registration honours %s', async (method, check) => {
    const { as, rs } = await setup({
      authMethods: [method],
      registration: () => ({
        client_id: 'dyn',
        ...(method === 'none' ? {} : { client_secret: 'sec' }),
        token_endpoint_auth_method: method,
      }),
    });
    expect((await call(provider(rs), rs.mcpUrl)).status).toBe(200);
    expect(as.registrations[0]!.token_endpoint_auth_method).toBe(method);
    expect(check(as.tokenRequests[0]!.headers, as.tokenRequests[0]!.body)).toBe(true);
  });

  test('no way to register gives a clear error', async () => {
    const { rs } = await setup({ registration: false });
    await expect(call(provider(rs), rs.mcpUrl)).rejects.toMatchObject({ code: 'registration_failed' });
  });
});

describe('bad input', () => {
  test('a huge PRM document is refused without reading it all', async () => {
    const big = await serve(
      () => new Response(`{"resource":"${'x'.repeat(2_000_000)}"}`, { headers: { 'content-type': 'application/json' } }),
    );
    closers.push(big);
    const { rs } = await setup({}, { prmPath: null });
    const p = provider(rs, {}, { fetchPolicy: { maxResponseBytes: 64 * 1024 } });
    const error = await p
      .onUnauthorized(json({}, 401, { 'www-authenticate': `Bearer resource_metadata="${big.url}/prm"` }), {
        method: 'POST',
        url: new URL(rs.mcpUrl),
      })
      .catch((e: unknown) => e);
    expect(error).toMatchObject({ code: 'response_too_large' });
  });

  test('authorization server metadata that redirects in a loop', async () => {
    const looping = await serve(
      (request) => new Response(null, { status: 302, headers: { location: new URL(request.url).pathname === '/a' ? '/b' : '/a' } }),
    );
    closers.push(looping);
    const { rs } = await setup({}, { authorizationServers: () => [`${looping.url}/a`] });
    await expect(call(provider(rs), rs.mcpUrl)).rejects.toMatchObject({ code: 'too_many_redirects' });
  });

  test('an authorization server at a private address is refused when configured', async () => {
    const { rs } = await setup({}, { authorizationServers: () => ['http://10.0.0.1'] });
    const p = provider(rs, {}, { fetchPolicy: { refusePrivateAddresses: true, allowedPrivateHosts: ['127.0.0.1'], allowHttp: 'always' } });
    await expect(call(p, rs.mcpUrl)).rejects.toMatchObject({ code: 'address_refused' });
  });

  test('a slow authorization server times out', async () => {
    const slow = await serve(() => new Promise<Response>(() => undefined));
    closers.push(slow);
    const { rs } = await setup({}, { authorizationServers: () => [slow.url] });
    await expect(call(provider(rs, {}, { fetchPolicy: { timeoutMs: 200 } }), rs.mcpUrl)).rejects.toMatchObject({ code: 'fetch_timeout' });
  });

  test('PRM that lists no authorization server, or is not JSON', async () => {
    const { rs } = await setup({}, { authorizationServers: () => [] });
    await expect(call(provider(rs), rs.mcpUrl)).rejects.toMatchObject({ code: 'metadata_invalid' });
  });
});
