/**
 * Library-level integration with a real OpenID provider (`oidc-provider`) on 127.0.0.1: the client discovers it,
 * registers, runs the authorization code flow with PKCE and a resource indicator, refreshes with rotation, uses
 * client credentials and DPoP (with provider nonces); the resource server verifies the provider's JWT access tokens
 * (or introspects opaque ones) and refuses a wrong audience, an expired token, a replayed DPoP proof and another
 * issuer's token.
 */
import { exportJWK, generateKeyPair } from 'jose';
import { afterEach, describe, expect, test } from 'vitest';
import {
  authorizationCodeGrant,
  automaticUserAgent,
  clientCredentialsGrant,
  createAuthFetch,
  McpOAuthProvider,
  MemoryAuthStore,
  type McpOAuthProviderOptions,
} from '../src/client/index.js';
import {
  createRequestAuthenticator,
  IntrospectionTokenVerifier,
  JwtTokenVerifier,
  type RequestAuthenticator,
} from '../src/server/index.js';
import { startLoopbackUserAgent } from '../src/node/index.js';
import { startTestProvider, type TestProvider } from './helpers/oidc-provider.js';
import { json, serve, type Served } from './helpers/serve.js';

const closers: { close(): Promise<void> }[] = [];
afterEach(async () => {
  await Promise.all(closers.splice(0).map((c) => c.close()));
});

interface Resource {
  readonly served: Served;
  readonly mcpUrl: string;
  readonly auth: RequestAuthenticator;
  /** Requests the protected endpoint accepted, with their principal's subject and client. */
  readonly accepted: { subject?: string; clientId?: string; scopes: readonly string[]; dpop?: string }[];
}

/** An MCP-like protected endpoint (POST /mcp) guarded by the library's authenticator. */
async function protectedResource(
  issuer: string,
  options: { now?: () => number; introspect?: { clientId: string; clientSecret: string } } = {},
): Promise<Resource> {
  const accepted: Resource['accepted'] = [];
  let auth!: RequestAuthenticator;
  const served = await serve(async (request) => {
    const metadata = auth.protectedResourceMetadata(request);
    if (metadata) return metadata;
    if (new URL(request.url).pathname !== '/mcp') return new Response('not found', { status: 404 });
    const result = await auth.authenticate(request, { resource: new URL(mcpUrl), method: 'tools/list' });
    if ('response' in result) return result.response;
    accepted.push({
      subject: result.principal.subject,
      clientId: result.principal.clientId,
      scopes: result.principal.scopes,
      dpop: result.principal.dpopThumbprint,
    });
    return json({ jsonrpc: '2.0', id: 1, result: { tools: [] } }, 200, { ...result.headers });
  });
  const mcpUrl = `${served.url}/mcp`;
  const verifier = options.introspect
    ? new IntrospectionTokenVerifier({
        issuer,
        client: { clientId: options.introspect.clientId, clientSecret: options.introspect.clientSecret },
      })
    : new JwtTokenVerifier({ issuers: [issuer] });
  auth = createRequestAuthenticator({
    verifier,
    resource: mcpUrl,
    authorizationServers: [issuer],
    scopesSupported: ['mcp:read', 'mcp:write'],
    ...(options.now ? { now: options.now } : {}),
  });
  closers.push(served);
  return { served, mcpUrl, auth, accepted };
}

async function provider(options: Parameters<typeof startTestProvider>[0] = {}): Promise<TestProvider> {
  const started = await startTestProvider(options);
  closers.push(started);
  return started;
}

function client(resource: Resource, options: Partial<McpOAuthProviderOptions> = {}): McpOAuthProvider {
  return new McpOAuthProvider({
    serverUrl: resource.mcpUrl,
    grant: authorizationCodeGrant({
      redirectUri: 'http://127.0.0.1:9/callback',
      userAgent: automaticUserAgent(),
      clientName: 'wiremcp integration test',
    }),
    ...options,
  });
}

function caller(p: McpOAuthProvider, url: string) {
  const authFetch = createAuthFetch(p);
  return () =>
    authFetch(url, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: '{"jsonrpc":"2.0","id":1,"method":"tools/list"}',
    });
}

/** Direct token request to the provider, to probe what it accepts. */
async function tokenRequest(issuer: string, body: Record<string, string>): Promise<{ status: number; json: Record<string, unknown> }> {
  const response = await fetch(`${issuer}/token`, { method: 'POST', body: new URLSearchParams(body) });
  return { status: response.status, json: (await response.json()) as Record<string, unknown> };
}

describe('against oidc-provider', () => {
  test('authorization code + PKCE + DCR + resource: a JWT for this resource, verified; then refresh with rotation', async () => {
    const op = await provider();
    const rs = await protectedResource(op.issuer);
    let clock = Date.now();
    const store = new MemoryAuthStore();
    const p = client(rs, { store, now: () => clock, dpop: 'never' });
    const send = caller(p, rs.mcpUrl);
    expect((await send()).status).toBe(200);
    expect(rs.accepted[0]).toMatchObject({ subject: 'user-1', scopes: ['mcp:read', 'mcp:write'] });
    const first = (await store.loadTokens(rs.mcpUrl))!;
    expect(first).toMatchObject({ issuer: op.issuer, resource: rs.mcpUrl, tokenType: 'bearer' });
    expect(first.refreshToken).toBeTruthy();
    const registered = await store.loadClient(op.issuer);
    expect(registered).toMatchObject({ kind: 'dynamic', tokenEndpointAuthMethod: 'none' });

    clock += 3600 * 1000; // the client's clock says the token expired: it refreshes before sending
    expect((await send()).status).toBe(200);
    const second = (await store.loadTokens(rs.mcpUrl))!;
    expect(second.accessToken).not.toBe(first.accessToken);
    expect(second.refreshToken).not.toBe(first.refreshToken);
    expect(rs.accepted).toHaveLength(2);
    // Rotation: the first refresh token was consumed.
    const reuse = await tokenRequest(op.issuer, {
      grant_type: 'refresh_token',
      refresh_token: first.refreshToken!,
      client_id: registered!.clientId,
      resource: rs.mcpUrl,
    });
    expect(reuse.status).toBe(400);
    expect(reuse.json.error).toBe('invalid_grant');
  });

  test('the interactive loopback helper: the browser lands on 127.0.0.1 with code, state and iss', async () => {
    const op = await provider();
    const rs = await protectedResource(op.issuer);
    const browser = automaticUserAgent();
    const loopback = await startLoopbackUserAgent({
      print: () => undefined,
      // Plays the browser: follows the provider's redirects, then delivers the final one to the listener.
      openBrowser: async (url) => {
        const landing = await browser.authorize(url, { redirectUri: loopback.redirectUri, state: url.searchParams.get('state')! });
        await fetch(landing);
      },
    });
    closers.push(loopback);
    const p = new McpOAuthProvider({
      serverUrl: rs.mcpUrl,
      grant: authorizationCodeGrant({ redirectUri: loopback.redirectUri, userAgent: loopback, clientName: 'wiremcp cli' }),
    });
    expect((await caller(p, rs.mcpUrl)()).status).toBe(200);
    expect(rs.accepted[0]!.subject).toBe('user-1');
  });

  test('client credentials (client_secret_basic and private_key_jwt) for the resource', async () => {
    const { publicKey, privateKey } = await generateKeyPair('ES256');
    const op = await provider({
      clients: [
        { client_id: 'cc-client', client_secret: 'cc-secret', grant_types: ['client_credentials'], redirect_uris: [], response_types: [] },
        {
          client_id: 'jwt-client',
          token_endpoint_auth_method: 'private_key_jwt',
          jwks: { keys: [{ ...(await exportJWK(publicKey)), alg: 'ES256' }] },
          grant_types: ['client_credentials'],
          redirect_uris: [],
          response_types: [],
        },
      ],
    });
    const rs = await protectedResource(op.issuer);
    const basic = client(rs, {
      grant: clientCredentialsGrant({ clientId: 'cc-client', clientSecret: 'cc-secret' }),
      scopes: ['mcp:read'],
      dpop: 'never',
    });
    expect((await caller(basic, rs.mcpUrl)()).status).toBe(200);
    const jwt = client(rs, { grant: clientCredentialsGrant({ clientId: 'jwt-client', privateKey }), scopes: ['mcp:read'], dpop: 'never' });
    expect((await caller(jwt, rs.mcpUrl)()).status).toBe(200);
    expect(rs.accepted.map((a) => a.clientId)).toEqual(['cc-client', 'jwt-client']);
    expect(rs.accepted[0]!.scopes).toEqual(['mcp:read']);
  });

  test.each([false, true])('DPoP-bound tokens, with provider nonces: %s; a replayed proof is refused', async (requireDpopNonce) => {
    const op = await provider({ requireDpopNonce });
    const rs = await protectedResource(op.issuer);
    const store = new MemoryAuthStore();
    const p = client(rs, { store });
    expect((await caller(p, rs.mcpUrl)()).status).toBe(200);
    const tokens = (await store.loadTokens(rs.mcpUrl))!;
    expect(tokens.tokenType).toBe('dpop');
    expect(rs.accepted[0]!.dpop).toBeTruthy();
    const request = { method: 'POST', url: new URL(rs.mcpUrl) };
    const headers = await p.headers(request);
    const once = await fetch(rs.mcpUrl, { method: 'POST', headers, body: '{}' });
    expect(once.status).toBe(200);
    const replay = await fetch(rs.mcpUrl, { method: 'POST', headers, body: '{}' });
    expect(replay.status).toBe(401);
    expect(replay.headers.get('www-authenticate')).toContain('invalid_dpop_proof');
    // The bound token is useless as a Bearer token.
    const asBearer = await fetch(rs.mcpUrl, { method: 'POST', headers: { authorization: `Bearer ${tokens.accessToken}` }, body: '{}' });
    expect(asBearer.status).toBe(401);
  });

  test('refused: a token for another audience, an expired token, and a token from another issuer', async () => {
    const op = await provider({
      clients: [{ client_id: 'cc', client_secret: 's', grant_types: ['client_credentials'], redirect_uris: [], response_types: [] }],
    });
    const other = await provider({
      clients: [{ client_id: 'cc', client_secret: 's', grant_types: ['client_credentials'], redirect_uris: [], response_types: [] }],
    });
    let clock = Date.now();
    const rs = await protectedResource(op.issuer, { now: () => clock });
    const elsewhere = await protectedResource(op.issuer);
    const basic = { authorization: `Basic ${btoa('cc:s')}` };
    const mint = async (issuer: string, resource: string) => {
      const response = await fetch(`${issuer}/token`, {
        method: 'POST',
        headers: basic,
        body: new URLSearchParams({ grant_type: 'client_credentials', resource, scope: 'mcp:read' }),
      });
      return ((await response.json()) as { access_token: string }).access_token;
    };
    const present = (token: string) => fetch(rs.mcpUrl, { method: 'POST', headers: { authorization: `Bearer ${token}` }, body: '{}' });

    expect((await present(await mint(op.issuer, rs.mcpUrl))).status).toBe(200);
    const wrongAudience = await present(await mint(op.issuer, elsewhere.mcpUrl));
    expect(wrongAudience.status).toBe(401);
    expect(wrongAudience.headers.get('www-authenticate')).toContain('not for this resource');
    const foreign = await present(await mint(other.issuer, rs.mcpUrl));
    expect(foreign.status).toBe(401);
    expect(foreign.headers.get('www-authenticate')).toContain('untrusted issuer');
    const token = await mint(op.issuer, rs.mcpUrl);
    clock += 10 * 60 * 1000; // past the 300 s lifetime and the 30 s tolerance
    const expired = await present(token);
    expect(expired.status).toBe(401);
    expect(expired.headers.get('www-authenticate')).toContain('expired');
  });

  test('opaque tokens verified by introspection: accepted for this resource, an unknown token refused', async () => {
    const op = await provider({
      opaqueResources: () => true,
      clients: [
        { client_id: 'cc', client_secret: 's', grant_types: ['client_credentials'], redirect_uris: [], response_types: [] },
        { client_id: 'rs', client_secret: 'rs-secret', grant_types: [], redirect_uris: [], response_types: [] },
      ],
    });
    const rs = await protectedResource(op.issuer, { introspect: { clientId: 'rs', clientSecret: 'rs-secret' } });
    const p = client(rs, { grant: clientCredentialsGrant({ clientId: 'cc', clientSecret: 's' }), scopes: ['mcp:read'], dpop: 'never' });
    expect((await caller(p, rs.mcpUrl)()).status).toBe(200);
    expect(rs.accepted[0]).toMatchObject({ clientId: 'cc', scopes: ['mcp:read'] });
    const garbage = await fetch(rs.mcpUrl, { method: 'POST', headers: { authorization: 'Bearer not-a-real-token' }, body: '{}' });
    expect(garbage.status).toBe(401);
  });
});
