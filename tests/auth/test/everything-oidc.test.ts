/**
 * End to end with a real OpenID provider: the everything server, spawned with `--http --auth-issuer <provider>`,
 * protected by `@wiremcp/auth/server`; the wiremcp client logs in with `McpOAuthProvider` (discovery from the 401,
 * dynamic registration, authorization code + PKCE S256 + resource indicator; the provider's login and consent are
 * driven headlessly) and uses the server in both eras. Refusals: a token for another audience, from another
 * issuer, a legacy session used with another principal's token, a tool that needs more scope (403, then step-up).
 */
import { McpClient } from '@wiremcp/client';
import {
  authorizationCodeGrant,
  automaticUserAgent,
  McpOAuthProvider,
  MemoryAuthStore,
  type McpOAuthProviderOptions,
} from '@wiremcp/auth/client';
import { httpTransportFactory } from '@wiremcp/transport-http';
import { decodeJwt } from 'jose';
import { afterEach, beforeAll, describe, expect, test } from 'vitest';
import { startOpenIdProvider, type OpenIdProvider } from './openid-provider.js';
import { assertBuilt, EVERYTHING, startHttpServer, stopAllServers, type ServerProcess } from './server-process.js';

beforeAll(() => assertBuilt(EVERYTHING));

const cleanup: Array<() => Promise<void>> = [];
afterEach(async () => {
  for (const step of cleanup.splice(0).reverse()) await step().catch(() => undefined);
  await stopAllServers();
});

async function provider(): Promise<OpenIdProvider> {
  const op = await startOpenIdProvider();
  cleanup.push(() => op.close());
  return op;
}

/** The everything server behind `issuer`: every request needs `mcp:read`, the embedded-resource tool `mcp:admin`. */
function protectedEverything(issuer: string, extra: readonly string[] = []): Promise<ServerProcess> {
  return startHttpServer(EVERYTHING, [
    '--auth-issuer',
    issuer,
    '--auth-scope',
    'mcp:read',
    '--auth-tool-scope',
    'test_embedded_resource=mcp:admin',
    ...extra,
  ]);
}

function oauth(url: string, options: Partial<McpOAuthProviderOptions> = {}): McpOAuthProvider {
  return new McpOAuthProvider({
    serverUrl: url,
    grant: authorizationCodeGrant({ redirectUri: 'http://127.0.0.1:9/callback', userAgent: automaticUserAgent(), clientName: 'e2e' }),
    ...options,
  });
}

async function connect(url: string, auth: McpOAuthProvider, era: 'legacy' | 'modern'): Promise<McpClient> {
  const client = new McpClient({ name: 'e2e', version: '1.0.0' }, { era });
  cleanup.push(() => client.close());
  await client.connect(httpTransportFactory(url, { auth, legacySse: false }));
  return client;
}

const text = (result: { content?: unknown }): string => ((result.content as Array<{ text?: string }>)[0]?.text ?? '') as string;

const rpc = (method: string, id = 1) => JSON.stringify({ jsonrpc: '2.0', id, method, params: {} });
const JSON_HEADERS = { 'content-type': 'application/json', accept: 'application/json, text/event-stream' };

describe.each([
  { era: 'legacy', dpop: 'never' },
  { era: 'modern', dpop: 'auto' },
] as const)('the everything server behind oidc-provider ($era era, DPoP: $dpop)', ({ era, dpop }) => {
  test('log in from the 401 (code + PKCE + resource), call tools, step up to a tool that needs more scope', async () => {
    const op = await provider();
    const server = await protectedEverything(op.issuer);
    const store = new MemoryAuthStore();
    const client = await connect(server.url, oauth(server.url, { store, dpop }), era);
    expect(client.era).toBe(era);
    expect(text(await client.callTool('test_simple_text', {}))).toBe('This is a simple text response for testing.');
    const tokens = (await store.loadTokens(server.url))!;
    expect(tokens).toMatchObject({ issuer: op.issuer, resource: server.url, tokenType: dpop === 'auto' ? 'dpop' : 'bearer' });
    // The scope the challenge named, not more (plus offline_access, which the provider offers, for a refresh token).
    expect(decodeJwt(tokens.accessToken)).toMatchObject({ aud: server.url, iss: op.issuer, sub: 'alice', scope: 'mcp:read' });
    expect(tokens.refreshToken).toBeTruthy();
    expect(await store.loadClient(op.issuer)).toMatchObject({ kind: 'dynamic' });

    // 403 insufficient_scope naming mcp:admin → the client re-authorizes with the larger scope and retries.
    const embedded = await client.callTool('test_embedded_resource', {});
    expect(embedded.content).toMatchObject([{ type: 'resource', resource: { uri: 'test://embedded-resource' } }]);
    const stepped = (await store.loadTokens(server.url))!;
    expect(String(decodeJwt(stepped.accessToken).scope).split(' ').sort()).toEqual(['mcp:admin', 'mcp:read']);
    expect(stepped.accessToken).not.toBe(tokens.accessToken);
    expect(op.errors).toEqual([]);
  });
});

describe('refusals by the protected everything server', () => {
  test('401 with resource_metadata; metadata names the provider; wrong audience and foreign issuer refused', async () => {
    const op = await provider();
    const other = await provider();
    const server = await protectedEverything(op.issuer);
    const anonymous = await fetch(server.url, { method: 'POST', headers: JSON_HEADERS, body: rpc('tools/list') });
    expect(anonymous.status).toBe(401);
    const metadataUrl = new URL('/.well-known/oauth-protected-resource/mcp', server.url).href;
    expect(anonymous.headers.get('www-authenticate')).toContain(`Bearer resource_metadata="${metadataUrl}", scope="mcp:read"`);
    expect(await (await fetch(metadataUrl)).json()).toMatchObject({ resource: server.url, authorization_servers: [op.issuer] });

    const present = (token: string) =>
      fetch(server.url, { method: 'POST', headers: { ...JSON_HEADERS, authorization: `Bearer ${token}` }, body: rpc('initialize') });
    const good = await op.serviceToken(server.url);
    expect((await present(good)).status).not.toBe(401);
    const wrongAudience = await op.serviceToken('https://other.example/mcp');
    const refusedAudience = await present(wrongAudience);
    expect(refusedAudience.status).toBe(401);
    const audienceChallenge = refusedAudience.headers.get('www-authenticate')!;
    expect(audienceChallenge).toMatch(/error="invalid_token", error_description="[^"]*not for this resource/);
    const foreign = await present(await other.serviceToken(server.url));
    expect(foreign.status).toBe(401);
    expect(foreign.headers.get('www-authenticate')).toContain('untrusted issuer');
    // Nothing secret in a refusal: neither the token nor its claims are echoed.
    for (const response of [refusedAudience, foreign]) {
      const echoed = `${response.headers.get('www-authenticate')} ${await response.text()}`;
      expect(echoed).not.toContain(wrongAudience.slice(0, 40));
      expect(echoed).not.toContain('eyJ');
    }
    expect(server.stderr()).not.toContain('eyJ');
  });

  test('a legacy session is bound to its principal: another principal gets 404, a token of the same principal keeps it', async () => {
    const op = await provider();
    const server = await protectedEverything(op.issuer);
    const store = new MemoryAuthStore();
    const auth = oauth(server.url, { store, dpop: 'never' });
    await auth.authorize();
    const alice = { ...JSON_HEADERS, authorization: `Bearer ${(await store.loadTokens(server.url))!.accessToken}` };
    const init = JSON.stringify({
      jsonrpc: '2.0',
      id: 0,
      method: 'initialize',
      params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'e2e', version: '1' } },
    });
    const opened = await fetch(server.url, { method: 'POST', headers: alice, body: init });
    const session = opened.headers.get('mcp-session-id')!;
    expect(session).toBeTruthy();
    await opened.body?.cancel();
    const inSession = (headers: Record<string, string>) =>
      fetch(server.url, {
        method: 'POST',
        headers: { ...headers, 'mcp-session-id': session, 'mcp-protocol-version': '2025-11-25' },
        body: rpc('tools/list', 2),
      });
    const stolen = await inSession({ ...JSON_HEADERS, authorization: `Bearer ${await op.serviceToken(server.url)}` });
    expect(stolen.status).toBe(404);
    expect((await inSession(alice)).status).toBe(200);
  });

  test('a server that refuses every token: the client gives up after bounded attempts, with no secret in the error', async () => {
    const op = await provider();
    // The server trusts the provider but checks signatures against an unrelated key set: every token is refused.
    const keys = await provider();
    const server = await protectedEverything(op.issuer, ['--auth-jwks', `${keys.issuer}/jwks`]);
    const store = new MemoryAuthStore();
    const client = new McpClient({ name: 'e2e', version: '1.0.0' }, { era: 'modern' });
    cleanup.push(() => client.close());
    const failure = await client
      .connect(httpTransportFactory(server.url, { auth: oauth(server.url, { store, dpop: 'never' }), legacySse: false }))
      .then(
        () => undefined,
        (error: unknown) => error as Error,
      );
    expect(failure).toBeInstanceOf(Error);
    expect(failure!.message).toBe('POST server/discover failed with HTTP 401');
    // Each token was refused; the client re-authorized a bounded number of times, then let the 401 through.
    expect(server.stderr()).not.toContain('eyJ');
    const tokens = await store.loadTokens(server.url);
    const registered = await store.loadClient(op.issuer);
    expect(registered).toBeDefined();
    const described = `${failure!.message} ${String((failure as { cause?: unknown }).cause)} ${JSON.stringify(failure)}`;
    for (const secret of [tokens?.accessToken, tokens?.refreshToken, registered?.clientSecret].filter((s) => s !== undefined)) {
      expect(described).not.toContain(secret);
    }
    expect(described).not.toContain('eyJ');
  });
});
