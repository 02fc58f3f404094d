/**
 * The authenticator hook with the real `@wiremcp/auth` resource server and a locally generated signing key (a JWKS
 * of one key): metadata routed first, every request authenticated, the principal handed to handlers, per-operation
 * scopes, and legacy sessions bound to the principal that opened them.
 */
import { createRequestAuthenticator, JwtTokenVerifier } from '@wiremcp/auth/server';
import { exportJWK, generateKeyPair, SignJWT, type JWK } from 'jose';
import { afterEach, beforeAll, describe, expect, test } from 'vitest';
import type { HttpHandler } from './http-handler.js';
import { BOTH, ENDPOINT, json, modernPost, post, sessionHeaders, testHandler } from './http.test-util.js';
import type { HttpAuthenticator } from './servable.js';

const ISSUER = 'https://login.example.com';
let signingKey: CryptoKey;
let publicJwk: JWK;

beforeAll(async () => {
  const pair = await generateKeyPair('ES256');
  signingKey = pair.privateKey;
  publicJwk = { ...(await exportJWK(pair.publicKey)), kid: 'k1', alg: 'ES256' };
});

function token(subject: string, scope = 'mcp:read'): Promise<string> {
  const now = Math.floor(Date.now() / 1000);
  return new SignJWT({ iss: ISSUER, aud: ENDPOINT, sub: subject, client_id: 'app', scope, iat: now, exp: now + 300 })
    .setProtectedHeader({ alg: 'ES256', kid: 'k1', typ: 'at+jwt' })
    .sign(signingKey);
}

function authenticator() {
  return createRequestAuthenticator({
    resource: ENDPOINT,
    authorizationServers: [ISSUER],
    scopesSupported: ['mcp:read', 'mcp:write'],
    verifier: new JwtTokenVerifier({ issuers: [{ issuer: ISSUER, jwks: { keys: [publicJwk] } }] }),
    scopes: { always: ['mcp:read'], tools: { headers: ['mcp:write'] } },
  });
}

let handler: HttpHandler;
afterEach(async () => {
  await handler?.close(0);
});

const bearer = async (subject: string, scope?: string) => ({ authorization: `Bearer ${await token(subject, scope)}` });
const init = (headers: Record<string, string>, version = '2025-11-25') =>
  post(
    { jsonrpc: '2.0', id: 0, method: 'initialize', params: { protocolVersion: version, capabilities: {} } },
    { 'content-type': 'application/json', accept: BOTH, ...headers },
  );

describe('with @wiremcp/auth', () => {
  test('the protected resource metadata is served before anything else, without a token', async () => {
    ({ handler } = testHandler({ authenticator: authenticator() }));
    const response = await handler(new Request('http://localhost/.well-known/oauth-protected-resource/mcp'));
    expect(response.status).toBe(200);
    expect(await json(response)).toMatchObject({ resource: ENDPOINT, authorization_servers: [ISSUER] });
  });

  test('a request without a token: 401 with a challenge naming the metadata', async () => {
    ({ handler } = testHandler({ authenticator: authenticator() }));
    const response = await handler(modernPost('tools/list'));
    expect(response.status).toBe(401);
    expect(response.headers.get('www-authenticate')).toContain(
      'resource_metadata="http://localhost/.well-known/oauth-protected-resource/mcp"',
    );
  });

  test('2026-07-28: each request authenticated on its own; handlers see the principal; scopes checked per tool', async () => {
    const setup = testHandler({ authenticator: authenticator() });
    handler = setup.handler;
    const ok = await handler(modernPost('tools/call', { name: 'whoami', arguments: {} }, await bearer('alice')));
    expect(await json(ok)).toMatchObject({ result: { content: [{ text: 'alice' }] } });
    expect(setup.probe.info?.auth).toMatchObject({ subject: 'alice', issuer: ISSUER, scopes: ['mcp:read'] });
    expect(JSON.stringify(setup.probe.info?.auth)).not.toContain('eyJ'); // never the token itself
    const forbidden = await handler(modernPost('tools/call', { name: 'headers', arguments: {} }, await bearer('alice')));
    expect(forbidden.status).toBe(403);
    expect(forbidden.headers.get('www-authenticate')).toContain('insufficient_scope');
    const allowed = await handler(
      modernPost('tools/call', { name: 'headers', arguments: {} }, await bearer('alice', 'mcp:read mcp:write')),
    );
    expect(allowed.status).toBe(200);
  });

  test('legacy: a session is bound to the principal that opened it; another principal gets 404', async () => {
    ({ handler } = testHandler({ authenticator: authenticator() }));
    const alice = await bearer('alice');
    const opened = await handler(init(alice));
    const session = opened.headers.get('mcp-session-id')!;
    expect(session).toBeTruthy();
    const list = { jsonrpc: '2.0', id: 1, method: 'tools/list' };
    expect((await handler(post(list, { ...sessionHeaders(session), ...alice }))).status).toBe(200);
    expect((await handler(post(list, { ...sessionHeaders(session), ...(await bearer('mallory')) }))).status).toBe(404);
    expect((await handler(post(list, sessionHeaders(session)))).status).toBe(401);
    // A fresh token of the same principal keeps the session.
    expect((await handler(post(list, { ...sessionHeaders(session), ...(await bearer('alice')) }))).status).toBe(200);
  });

  test('legacy: every message is authorized once its method is known, each message of a 2025-03-26 batch too', async () => {
    ({ handler } = testHandler({ authenticator: authenticator() }));
    const alice = await bearer('alice');
    const session = (await handler(init(alice, '2025-03-26'))).headers.get('mcp-session-id')!;
    const headers = { 'content-type': 'application/json', accept: BOTH, 'mcp-session-id': session, ...alice };
    const single = await handler(
      post({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'headers', arguments: {} } }, headers),
    );
    expect(single.status).toBe(403);
    const batch = await handler(
      post(
        [
          { jsonrpc: '2.0', id: 2, method: 'tools/list' },
          { jsonrpc: '2.0', id: 3, method: 'tools/call', params: { name: 'headers', arguments: {} } },
        ],
        headers,
      ),
    );
    expect(batch.status).toBe(403);
    expect((await handler(post([{ jsonrpc: '2.0', id: 4, method: 'tools/list' }], headers))).status).toBe(200);
  });
});

describe('the hook contract', () => {
  test('authenticate hears only what the headers announce; authorize decides each message from its body', async () => {
    const seen: string[] = [];
    const hook: HttpAuthenticator = {
      protectedResourceMetadata: () => undefined,
      authenticate: async (_request, context) => {
        const announced = context.announced;
        seen.push(
          `authenticate ${context.resource.href} ${context.method ?? '-'} ${announced?.method ?? '-'} ${JSON.stringify(announced?.targets ?? [])}`,
        );
        return { principal: { subject: 'x' }, headers: { 'dpop-nonce': 'n-1' } };
      },
      authorize: (_principal, context) => {
        seen.push(`authorize ${context.method} ${JSON.stringify(context.targets)}`);
        return undefined;
      },
    };
    ({ handler } = testHandler({ authenticator: hook, resourceUrl: 'https://public.example.com/mcp' }));
    const response = await handler(modernPost('tools/call', { name: 'échо', arguments: {} }));
    expect(response.headers.get('dpop-nonce')).toBe('n-1');
    expect(seen).toEqual([
      // The base64 form of Mcp-Name, decoded as the body check decodes it; never the method or name of a decision.
      'authenticate https://public.example.com/mcp - tools/call [{"kind":"tool","name":"échо"}]',
      'authorize tools/call [{"kind":"tool","name":"échо"}]',
    ]);
    await handler(new Request(ENDPOINT, { method: 'DELETE', headers: { 'mcp-session-id': 'nope' } }));
    expect(seen[2]).toBe('authenticate https://public.example.com/mcp - - []');
  });
});
