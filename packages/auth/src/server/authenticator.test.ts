import { base64url, exportJWK, generateKeyPair, SignJWT, type JWK } from 'jose';
import { beforeAll, describe, expect, test } from 'vitest';
import { createDpopProof } from '../dpop/dpop-proof.js';
import { generateDpopKey, type DpopKey } from '../dpop/dpop-key.js';
import { parseWwwAuthenticate } from '../www-authenticate.js';
import { createRequestAuthenticator, type RequestAuthenticator } from './authenticator.js';
import { JwtTokenVerifier } from './jwt-verifier.js';
import { principalKey } from './principal.js';

const ISSUER = 'https://auth.example.com';
const RESOURCE = 'https://mcp.example.com/mcp';
const NOW = Date.UTC(2030, 0, 1);
const context = { resource: new URL(RESOURCE) };

let signingKey: CryptoKey;
let publicJwk: JWK;
let dpopKey: DpopKey;

beforeAll(async () => {
  const pair = await generateKeyPair('ES256');
  signingKey = pair.privateKey;
  publicJwk = { ...(await exportJWK(pair.publicKey)), kid: 'k1', alg: 'ES256' };
  dpopKey = await generateDpopKey();
});

function token(claims: Record<string, unknown> = {}, header: Record<string, unknown> = {}): Promise<string> {
  const seconds = Math.floor(NOW / 1000);
  return new SignJWT({
    iss: ISSUER,
    aud: RESOURCE,
    sub: 'user-1',
    client_id: 'client-1',
    scope: 'mcp:read',
    iat: seconds,
    exp: seconds + 300,
    ...claims,
  })
    .setProtectedHeader({ alg: 'ES256', kid: 'k1', typ: 'at+jwt', ...header })
    .sign(signingKey);
}

function authenticator(overrides: Partial<Parameters<typeof createRequestAuthenticator>[0]> = {}): RequestAuthenticator {
  return createRequestAuthenticator({
    verifier: new JwtTokenVerifier({ issuers: [{ issuer: ISSUER, jwks: { keys: [publicJwk] } }] }),
    scopes: { tools: { write_file: ['mcp:write'] } },
    scopesSupported: ['mcp:read'],
    now: () => NOW,
    ...overrides,
  });
}

const post = (headers: Record<string, string> = {}, url = RESOURCE) => new Request(url, { method: 'POST', headers });

async function refusalOf(result: Awaited<ReturnType<RequestAuthenticator['authenticate']>>) {
  if (!('response' in result)) throw new Error('expected a refusal');
  const { response } = result;
  return {
    status: response.status,
    challenges: parseWwwAuthenticate(response.headers.get('www-authenticate')),
    body: (await response.json()) as Record<string, string>,
  };
}

describe('createRequestAuthenticator', () => {
  test('no credentials: 401 naming the metadata URL and scopes, Bearer and DPoP challenges, no error code', async () => {
    const { status, challenges } = await refusalOf(await authenticator().authenticate(post(), context));
    expect(status).toBe(401);
    expect(challenges.map((c) => c.scheme)).toEqual(['bearer', 'dpop']);
    expect(challenges[0]!.params).toEqual({
      resource_metadata: 'https://mcp.example.com/.well-known/oauth-protected-resource/mcp',
      scope: 'mcp:read',
    });
    expect(challenges[1]!.params.algs).toContain('ES256');
  });

  test('the challenge names the scopes of the operation when it is known', async () => {
    const { challenges } = await refusalOf(
      await authenticator().authenticate(post(), { ...context, method: 'tools/call', name: 'write_file' }),
    );
    expect(challenges[0]!.params.scope).toBe('mcp:write');
  });

  test('what the headers announce names the challenge scopes, and decides nothing', async () => {
    const announced = { method: 'tools/call', targets: [{ kind: 'tool' as const, name: 'write_file' }] };
    const { challenges } = await refusalOf(await authenticator().authenticate(post(), { ...context, announced }));
    expect(challenges[0]!.params.scope).toBe('mcp:write');
    // A token without the announced operation's scope is authenticated: the operation is authorized from the body.
    const result = await authenticator().authenticate(post({ authorization: `Bearer ${await token()}` }), { ...context, announced });
    expect('principal' in result).toBe(true);
    if (!('principal' in result)) return;
    expect(authenticator().authorize(result.principal, { ...context, method: 'tools/call', targets: announced.targets })?.status).toBe(403);
    expect(authenticator().authorize(result.principal, { ...context, method: 'tools/call', name: 'read_file' })).toBeUndefined();
  });

  test('a valid Bearer token yields the principal, without the token', async () => {
    const result = await authenticator().authenticate(post({ authorization: `Bearer ${await token()}` }), context);
    expect('principal' in result).toBe(true);
    if (!('principal' in result)) return;
    expect(result.principal).toMatchObject({
      subject: 'user-1',
      clientId: 'client-1',
      issuer: ISSUER,
      scopes: ['mcp:read'],
      audience: [RESOURCE],
    });
    expect(JSON.stringify(result.principal)).not.toContain((await token()).split('.')[2]);
    expect(principalKey(result.principal)).toBe(JSON.stringify([ISSUER, 'user-1', 'client-1']));
  });

  test('insufficient scope: 403 insufficient_scope naming every scope the operation needs', async () => {
    const result = await authenticator().authenticate(post({ authorization: `Bearer ${await token()}` }), {
      ...context,
      method: 'tools/call',
      name: 'write_file',
    });
    const { status, challenges, body } = await refusalOf(result);
    expect(status).toBe(403);
    expect(body.error).toBe('insufficient_scope');
    expect(challenges[0]!.params).toMatchObject({ error: 'insufficient_scope', scope: 'mcp:write' });
  });

  test.each([
    ['a wrong audience', { aud: 'https://other.example.com/mcp' }, {}, /not for this resource/],
    ['an expired token', { exp: Math.floor(NOW / 1000) - 60 }, {}, /expired/],
    ['another issuer', { iss: 'https://evil.example.com' }, {}, /untrusted issuer/],
    ['a missing exp', { exp: undefined }, {}, /exp/],
  ])('refuses %s with 401 invalid_token', async (_name, claims, header, description) => {
    const result = await authenticator().authenticate(post({ authorization: `Bearer ${await token(claims, header)}` }), context);
    const { status, challenges } = await refusalOf(result);
    expect(status).toBe(401);
    expect(challenges[0]!.params.error).toBe('invalid_token');
    expect(challenges[0]!.params.error_description).toMatch(description);
  });

  test('refuses alg none, a MAC-signed token, a token signed by an unknown key, and garbage', async () => {
    const seconds = Math.floor(NOW / 1000);
    const claims = { iss: ISSUER, aud: RESOURCE, sub: 'x', exp: seconds + 60 };
    const none = `${base64url.encode(JSON.stringify({ alg: 'none' }))}.${base64url.encode(JSON.stringify(claims))}.`;
    const mac = await new SignJWT(claims).setProtectedHeader({ alg: 'HS256' }).sign(new Uint8Array(32));
    const stranger = await new SignJWT(claims)
      .setProtectedHeader({ alg: 'ES256', kid: 'k1' })
      .sign((await generateKeyPair('ES256')).privateKey);
    for (const value of [none, mac, stranger, 'abc', 'a.b.c']) {
      const { status, challenges } = await refusalOf(
        await authenticator().authenticate(post({ authorization: `Bearer ${value}` }), context),
      );
      expect(status).toBe(401);
      expect(challenges[0]!.params.error).toBe('invalid_token');
    }
  });

  test('bad requests: token in the query, oversized or malformed header', async () => {
    const auth = authenticator({ maxAuthorizationLength: 1000 });
    expect((await refusalOf(await auth.authenticate(post({}, `${RESOURCE}?access_token=x`), context))).status).toBe(400);
    expect((await refusalOf(await auth.authenticate(post({ authorization: `Bearer ${'a'.repeat(5000)}` }), context))).status).toBe(400);
    expect((await refusalOf(await auth.authenticate(post({ authorization: 'Bearer a, Bearer b' }), context))).status).toBe(400);
    expect((await refusalOf(await auth.authenticate(post({ authorization: 'Basic dXNlcjpwdw==' }), context))).status).toBe(401);
  });

  test('DPoP-bound tokens: accepted with a matching proof, refused as Bearer, with a foreign key, or replayed', async () => {
    const auth = authenticator();
    const bound = await token({ cnf: { jkt: dpopKey.thumbprint } });
    const proof = await createDpopProof(dpopKey, { method: 'POST', url: RESOURCE, accessToken: bound, issuedAt: Math.floor(NOW / 1000) });
    const ok = await auth.authenticate(post({ authorization: `DPoP ${bound}`, dpop: proof }), context);
    expect('principal' in ok && ok.principal.dpopThumbprint).toBe(dpopKey.thumbprint);
    const replay = await refusalOf(await auth.authenticate(post({ authorization: `DPoP ${bound}`, dpop: proof }), context));
    expect(replay.challenges.find((c) => c.scheme === 'dpop')!.params.error).toBe('invalid_dpop_proof');
    const asBearer = await refusalOf(await auth.authenticate(post({ authorization: `Bearer ${bound}` }), context));
    expect(asBearer.challenges[0]!.params.error).toBe('invalid_token');
    const other = await generateDpopKey();
    const foreign = await createDpopProof(other, { method: 'POST', url: RESOURCE, accessToken: bound, issuedAt: Math.floor(NOW / 1000) });
    expect((await refusalOf(await auth.authenticate(post({ authorization: `DPoP ${bound}`, dpop: foreign }), context))).status).toBe(401);
    const unbound = await token();
    const unboundProof = await createDpopProof(dpopKey, {
      method: 'POST',
      url: RESOURCE,
      accessToken: unbound,
      issuedAt: Math.floor(NOW / 1000),
    });
    expect((await refusalOf(await auth.authenticate(post({ authorization: `DPoP ${unbound}`, dpop: unboundProof }), context))).status).toBe(
      401,
    );
  });

  test('DPoP nonces: a proof without the nonce gets use_dpop_nonce and a DPoP-Nonce header; with it, success', async () => {
    const auth = authenticator({ dpop: { requireNonce: true } });
    const bound = await token({ cnf: { jkt: dpopKey.thumbprint } });
    const first = await auth.authenticate(
      post({
        authorization: `DPoP ${bound}`,
        dpop: await createDpopProof(dpopKey, { method: 'POST', url: RESOURCE, accessToken: bound, issuedAt: Math.floor(NOW / 1000) }),
      }),
      context,
    );
    if (!('response' in first)) throw new Error('expected a nonce challenge');
    const nonce = first.response.headers.get('dpop-nonce');
    expect(nonce).toBeTruthy();
    expect(parseWwwAuthenticate(first.response.headers.get('www-authenticate')).find((c) => c.scheme === 'dpop')!.params.error).toBe(
      'use_dpop_nonce',
    );
    const proof = await createDpopProof(dpopKey, {
      method: 'POST',
      url: RESOURCE,
      accessToken: bound,
      nonce: nonce!,
      issuedAt: Math.floor(NOW / 1000),
    });
    const second = await auth.authenticate(post({ authorization: `DPoP ${bound}`, dpop: proof }), context);
    expect('principal' in second && second.headers?.['dpop-nonce']).toBeTruthy();
  });

  test('DPoP required: Bearer tokens are refused with a DPoP challenge', async () => {
    const { status, challenges } = await refusalOf(
      await authenticator({ dpop: { mode: 'required' } }).authenticate(post({ authorization: `Bearer ${await token()}` }), context),
    );
    expect(status).toBe(401);
    expect(challenges.map((c) => c.scheme)).toEqual(['dpop']);
  });

  test('a verifier that cannot reach its keys yields 503, not 401', async () => {
    const auth = authenticator({ verifier: { verify: () => Promise.reject(new Error('network down')) } });
    const result = await refusalOf(await auth.authenticate(post({ authorization: 'Bearer abc' }), context));
    expect(result.status).toBe(503);
  });

  test('serves its protected resource metadata at the path-based and root well-known URLs', async () => {
    const auth = authenticator({ resource: RESOURCE, authorizationServers: [ISSUER] });
    for (const path of ['/.well-known/oauth-protected-resource/mcp', '/.well-known/oauth-protected-resource']) {
      const response = auth.protectedResourceMetadata(new Request(`https://mcp.example.com${path}`));
      expect(response?.status).toBe(200);
      expect(await response!.json()).toMatchObject({ resource: RESOURCE, authorization_servers: [ISSUER], scopes_supported: ['mcp:read'] });
    }
    expect(auth.protectedResourceMetadata(new Request('https://mcp.example.com/mcp'))).toBeUndefined();
    expect(
      auth.protectedResourceMetadata(new Request('https://mcp.example.com/.well-known/oauth-protected-resource', { method: 'POST' }))
        ?.status,
    ).toBe(405);
    expect(() => authenticator({ authorizationServers: [ISSUER] })).toThrow(/resource URI/);
  });
});
