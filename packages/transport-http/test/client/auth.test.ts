// The auth hook with the real McpOAuthProvider of @wiremcp/auth: a 401 with a WWW-Authenticate challenge starts
// discovery, registration and the authorization code flow against an in-process authorization server, and the
// same request is sent again with the token; headers are asked for before every attempt; a failed authorization
// reaches the caller as AUTHORIZATION_FAILED (the AuthError as its cause) and stops era detection; retries are
// bounded.
import { createHash, randomUUID } from 'node:crypto';
import { afterEach, describe, expect, test } from 'vitest';
import { McpClient } from '@wiremcp/client';
import { McpServer } from '@wiremcp/server';
import { authorizationCodeGrant, automaticUserAgent, McpOAuthProvider } from '@wiremcp/auth/client';
import { AuthError } from '@wiremcp/auth';
import { httpTransportFactory, StreamableHttpClientTransport, type HttpAuthHook, type HttpAuthRequest } from '../../src/client/index.js';
import { closeAllServers, json, methodOf, startServer, type TestServer } from './http-server.test-util.js';
import { modernOnly } from './mcp-endpoints.test-util.js';
import { closeAllTransports, drive, modern } from './transport.test-util.js';

const clients: McpClient[] = [];
afterEach(async () => {
  await Promise.all(clients.splice(0).map((c) => c.close()));
  await closeAllTransports();
  await closeAllServers();
});

/** A minimal OAuth 2.1 authorization server: RFC 8414 metadata, dynamic registration, PKCE S256, RFC 9207 `iss`. */
async function authorizationServer(options: { refuseTokens?: boolean } = {}) {
  const codes = new Map<string, string>();
  const tokens = new Set<string>();
  const server: TestServer = await startServer((request, res) => {
    const url = new URL(request.url, server.origin);
    if (url.pathname === '/.well-known/oauth-authorization-server') {
      return json(res, 200, {
        issuer: server.origin,
        authorization_endpoint: `${server.origin}/authorize`,
        token_endpoint: `${server.origin}/token`,
        registration_endpoint: `${server.origin}/register`,
        response_types_supported: ['code'],
        grant_types_supported: ['authorization_code'],
        token_endpoint_auth_methods_supported: ['none'],
        code_challenge_methods_supported: ['S256'],
        authorization_response_iss_parameter_supported: true,
      });
    }
    if (url.pathname === '/register') return json(res, 201, { ...(request.json as object), client_id: 'client-1' });
    if (url.pathname === '/authorize') {
      const code = randomUUID();
      codes.set(code, url.searchParams.get('code_challenge') ?? '');
      const back = new URL(url.searchParams.get('redirect_uri')!);
      back.searchParams.set('code', code);
      back.searchParams.set('state', url.searchParams.get('state') ?? '');
      back.searchParams.set('iss', server.origin);
      res.writeHead(302, { location: back.href });
      return void res.end();
    }
    if (url.pathname === '/token') {
      const body = new URLSearchParams(request.body);
      const challenge = codes.get(body.get('code') ?? '');
      const verified =
        challenge !== undefined &&
        createHash('sha256')
          .update(body.get('code_verifier') ?? '')
          .digest('base64url') === challenge;
      if (options.refuseTokens || !verified) return json(res, 400, { error: 'invalid_grant' });
      const token = `at-${randomUUID()}`;
      tokens.add(token);
      return json(res, 200, { access_token: token, token_type: 'Bearer', expires_in: 3600 });
    }
    res.writeHead(404);
    res.end();
  }, '/');
  return { server, tokens };
}

/** The MCP endpoint behind bearer tokens: 401 with a challenge pointing at its protected resource metadata. */
async function protectedEndpoint(as: { server: TestServer; tokens: Set<string> }) {
  const mcp = new McpServer({ name: 'protected', version: '1.0.0' });
  mcp.registerTool({ name: 'whoami', inputSchema: { type: 'object' } }, () => ({ content: [{ type: 'text', text: 'you' }] }));
  const serve = modernOnly(mcp);
  const rs: TestServer = await startServer((request, res, raw) => {
    if (request.url === '/.well-known/oauth-protected-resource/mcp') {
      return json(res, 200, { resource: `${rs.origin}/mcp`, authorization_servers: [as.server.origin] });
    }
    const token = /^Bearer (.+)$/.exec(request.headers.authorization ?? '')?.[1];
    if (token === undefined || !as.tokens.has(token)) {
      res.writeHead(401, { 'www-authenticate': `Bearer resource_metadata="${rs.origin}/.well-known/oauth-protected-resource/mcp"` });
      return void res.end();
    }
    return serve(request, res, raw);
  });
  return rs;
}

function oauth(rs: TestServer): McpOAuthProvider {
  return new McpOAuthProvider({
    serverUrl: rs.url,
    grant: authorizationCodeGrant({
      redirectUri: 'http://127.0.0.1:9/callback',
      userAgent: automaticUserAgent(),
      clientName: 'wiremcp transport tests',
    }),
  });
}

/** Wraps a hook to record every call. */
function spied(hook: HttpAuthHook): { hook: HttpAuthHook; calls: string[]; requests: Set<HttpAuthRequest> } {
  const calls: string[] = [];
  const requests = new Set<HttpAuthRequest>();
  return {
    calls,
    requests,
    hook: {
      headers: (request) => (calls.push(`headers ${request.method}`), requests.add(request), hook.headers(request)),
      onResponse: (response, request) => (calls.push(`response ${response.status}`), hook.onResponse?.(response, request)),
      onUnauthorized: (response, request) => (
        calls.push(`unauthorized ${response.status}`),
        requests.add(request),
        hook.onUnauthorized(response, request)
      ),
    },
  };
}

describe('auth hook', () => {
  test('a 401 runs the OAuth flow and the same request is sent again with the token; later requests carry it', async () => {
    const as = await authorizationServer();
    const rs = await protectedEndpoint(as);
    const { hook, calls, requests } = spied(oauth(rs));
    const client = new McpClient({ name: 'authed', version: '1.0.0' });
    clients.push(client);
    await client.connect(httpTransportFactory(rs.url, { auth: hook }));
    expect(client.era).toBe('modern');
    expect((await client.callTool('whoami', {})).content).toEqual([{ type: 'text', text: 'you' }]);
    const posts = rs.requests.filter((r) => r.method === 'POST');
    expect(posts.map(methodOf)).toEqual(['server/discover', 'server/discover', 'tools/call']);
    expect(posts[1]!.body).toBe(posts[0]!.body);
    expect(posts[0]!.headers.authorization).toBeUndefined();
    expect(posts[1]!.headers.authorization).toMatch(/^Bearer at-/);
    expect(posts[2]!.headers.authorization).toBe(posts[1]!.headers.authorization);
    expect(calls.slice(0, 5)).toEqual(['headers POST', 'response 401', 'unauthorized 401', 'headers POST', 'response 200']);
    // One request object per HTTP request, the same for its retry.
    expect(requests.size).toBe(2);
    expect(as.tokens.size).toBe(1);
  });

  test('an authorization that fails reaches the caller as AUTHORIZATION_FAILED with the AuthError, and stops detection', async () => {
    const as = await authorizationServer({ refuseTokens: true });
    const rs = await protectedEndpoint(as);
    const client = new McpClient({ name: 'authed', version: '1.0.0' });
    clients.push(client);
    const error = await client.connect(httpTransportFactory(rs.url, { auth: oauth(rs) })).catch((e: unknown) => e);
    expect(error).toMatchObject({ code: 'AUTHORIZATION_FAILED', details: { code: 'token_request_failed' } });
    expect((error as Error).cause).toBeInstanceOf(AuthError);
    expect(rs.requests.filter((r) => r.method === 'POST').map(methodOf)).toEqual(['server/discover']);
  });

  test('retries are bounded: a hook that always says retry gets maxAuthRetries re-sends, then HTTP_ERROR with the challenge', async () => {
    const rs = await startServer((_request, res) => {
      res.writeHead(401, { 'www-authenticate': 'Bearer error="invalid_token"' });
      res.end();
    });
    const hook: HttpAuthHook = { headers: () => ({ authorization: 'Bearer stale' }), onUnauthorized: async () => 'retry' };
    const driven = await drive(new StreamableHttpClientTransport(rs.url, { auth: hook, maxAuthRetries: 2 }));
    await expect(driven.request(1, 'tools/list', modern())).rejects.toMatchObject({
      code: 'HTTP_ERROR',
      details: { status: 401, wwwAuthenticate: 'Bearer error="invalid_token"' },
    });
    expect(rs.requests).toHaveLength(3);
  });

  test('403 goes to the hook too, and "fail" ends the request with that status', async () => {
    const rs = await startServer((_request, res) => {
      res.writeHead(403, { 'www-authenticate': 'Bearer error="insufficient_scope", scope="admin"' });
      res.end();
    });
    const seen: number[] = [];
    const hook: HttpAuthHook = { headers: async () => ({}), onUnauthorized: async (response) => (seen.push(response.status), 'fail') };
    const driven = await drive(new StreamableHttpClientTransport(rs.url, { auth: hook }));
    await expect(driven.request(1, 'tools/list', modern())).rejects.toMatchObject({ code: 'HTTP_ERROR', details: { status: 403 } });
    expect(seen).toEqual([403]);
  });
});
