// The issuer's key set over real HTTP: an outage of the JWKS endpoint (5xx, a hang, garbage) fails as an outage (503
// with Retry-After: the token may be fine, the client must not log in again), and a key the issuer has just
// published is accepted on the first request that uses it, while a flood of unknown kids cannot hammer the issuer.
import { exportJWK, generateKeyPair, SignJWT, type JWK } from 'jose';
import { afterEach, beforeAll, expect, test } from 'vitest';
import { createRequestAuthenticator, JwtTokenVerifier } from '../src/server/index.js';
import { serve, type Served } from './helpers/serve.js';

const ISSUER = 'https://auth.example.com';
const RESOURCE = 'https://mcp.example.com/mcp';
const context = { resource: new URL(RESOURCE) };

interface Key {
  readonly privateKey: CryptoKey;
  readonly jwk: JWK;
}
let k1: Key;
let k2: Key;

async function key(kid: string): Promise<Key> {
  const pair = await generateKeyPair('ES256');
  return { privateKey: pair.privateKey, jwk: { ...(await exportJWK(pair.publicKey)), kid, alg: 'ES256', use: 'sig' } };
}

beforeAll(async () => {
  [k1, k2] = await Promise.all([key('k1'), key('k2')]);
});

function token(signer: Key, kid = signer.jwk.kid!): Promise<string> {
  const seconds = Math.floor(Date.now() / 1000);
  return new SignJWT({ iss: ISSUER, aud: RESOURCE, sub: 'user-1', scope: 'mcp:read', iat: seconds, exp: seconds + 300 })
    .setProtectedHeader({ alg: 'ES256', kid, typ: 'at+jwt' })
    .sign(signer.privateKey);
}

/** A JWKS endpoint the test steers: what it answers, and how many requests it got. */
interface Jwks {
  readonly url: string;
  fetches: number;
  mode: 'keys' | 'error' | 'hang' | 'garbage';
  keys: JWK[];
}

const started: Served[] = [];
afterEach(async () => {
  await Promise.all(started.splice(0).map((served) => served.close()));
});

async function jwksEndpoint(keys: JWK[]): Promise<Jwks> {
  const state = { fetches: 0, mode: 'keys' as Jwks['mode'], keys };
  const served = await serve(async () => {
    state.fetches += 1;
    if (state.mode === 'error') return new Response('upstream down', { status: 502 });
    if (state.mode === 'garbage') return new Response('<html>maintenance</html>', { status: 200 });
    if (state.mode === 'hang') await new Promise(() => {});
    return Response.json({ keys: state.keys });
  });
  started.push(served);
  return Object.assign(state, { url: `${served.url}/jwks` });
}

function authenticatorFor(jwks: Jwks, options: { refetchCooldownMs?: number; timeoutMs?: number } = {}) {
  const verifier = new JwtTokenVerifier({
    issuers: [{ issuer: ISSUER, jwksUri: jwks.url }],
    fetchPolicy: { timeoutMs: options.timeoutMs ?? 5000 },
    ...(options.refetchCooldownMs === undefined ? {} : { jwksRefetchCooldownMs: options.refetchCooldownMs }),
  });
  return createRequestAuthenticator({ verifier, scopesSupported: ['mcp:read'] });
}

async function statusOf(auth: ReturnType<typeof authenticatorFor>, bearer: string) {
  const result = await auth.authenticate(
    new Request(RESOURCE, { method: 'POST', headers: { authorization: `Bearer ${bearer}` } }),
    context,
  );
  if (!('response' in result)) return { status: 200, retryAfter: null, error: undefined };
  const body = (await result.response.json()) as { error?: string };
  return { status: result.response.status, retryAfter: result.response.headers.get('retry-after'), error: body.error };
}

test.each(['error', 'garbage'] as const)('the JWKS endpoint answers %s: 503 with Retry-After, not 401 invalid_token', async (mode) => {
  const jwks = await jwksEndpoint([k1.jwk]);
  jwks.mode = mode;
  const auth = authenticatorFor(jwks);
  expect(await statusOf(auth, await token(k1))).toEqual({ status: 503, retryAfter: '5', error: 'temporarily_unavailable' });
  // Back up: the same token is accepted (the failure was not cached).
  jwks.mode = 'keys';
  expect((await statusOf(auth, await token(k1))).status).toBe(200);
});

test('the JWKS endpoint hangs: 503 with Retry-After once the fetch times out', async () => {
  const jwks = await jwksEndpoint([k1.jwk]);
  jwks.mode = 'hang';
  const auth = authenticatorFor(jwks, { timeoutMs: 300 });
  expect(await statusOf(auth, await token(k1))).toEqual({ status: 503, retryAfter: '5', error: 'temporarily_unavailable' });
});

test('keys cached, then an unknown kid during an outage: 503 (the key may exist), the known kid still 200', async () => {
  const jwks = await jwksEndpoint([k1.jwk]);
  const auth = authenticatorFor(jwks, { refetchCooldownMs: 50 });
  expect((await statusOf(auth, await token(k1))).status).toBe(200);
  jwks.mode = 'error';
  expect((await statusOf(auth, await token(k2))).status).toBe(503);
  expect((await statusOf(auth, await token(k1))).status).toBe(200);
});

test('a key published right after the keys were fetched is accepted on the first request that uses it', async () => {
  const jwks = await jwksEndpoint([k1.jwk]);
  // The default cooldown: the key set was fetched an instant before the new key is used.
  const auth = authenticatorFor(jwks);
  expect((await statusOf(auth, await token(k1))).status).toBe(200);
  expect(jwks.fetches).toBe(1);
  jwks.keys = [k1.jwk, k2.jwk];
  expect((await statusOf(auth, await token(k2))).status).toBe(200);
  expect(jwks.fetches).toBe(2);
});

test('a flood of unknown kids: each refused with 401, the issuer fetched at most once more', async () => {
  const jwks = await jwksEndpoint([k1.jwk]);
  const auth = authenticatorFor(jwks, { refetchCooldownMs: 200 });
  expect((await statusOf(auth, await token(k1))).status).toBe(200);
  const forged = await Promise.all(Array.from({ length: 40 }, (_, i) => token(k2, `unknown-${i}`)));
  const results = await Promise.all(forged.map((bearer) => statusOf(auth, bearer)));
  expect(results.every((result) => result.status === 401 && result.error === 'invalid_token')).toBe(true);
  expect(jwks.fetches).toBeLessThanOrEqual(2);
});
