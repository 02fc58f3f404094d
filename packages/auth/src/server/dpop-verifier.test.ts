import { base64url, SignJWT } from 'jose';
import { describe, expect, test } from 'vitest';
import { createDpopProof, dpopHtu } from '../dpop/dpop-proof.js';
import { exportDpopKey, generateDpopKey, importDpopKey } from '../dpop/dpop-key.js';
import { DpopNonceSource } from './dpop-nonce.js';
import { verifyDpopProof } from './dpop-verifier.js';
import { MemoryReplayCache } from './replay-cache.js';

const URL_ = 'https://mcp.example.com/mcp';
const TOKEN = 'access-token-value';
const now = Date.UTC(2030, 0, 1);
const seconds = Math.floor(now / 1000);

async function proof(overrides: { method?: string; url?: string; token?: string; nonce?: string; iat?: number } = {}) {
  const key = await generateDpopKey();
  const value = await createDpopProof(key, {
    method: overrides.method ?? 'POST',
    url: overrides.url ?? URL_,
    accessToken: overrides.token ?? TOKEN,
    ...(overrides.nonce ? { nonce: overrides.nonce } : {}),
    issuedAt: overrides.iat ?? seconds,
  });
  return { key, value };
}

const request = (value: string | null, method = 'POST') => ({ proof: value, method, urls: [URL_], accessToken: TOKEN, now });

describe('verifyDpopProof', () => {
  test('accepts a fresh proof and returns the key thumbprint', async () => {
    const { key, value } = await proof();
    await expect(verifyDpopProof(request(value))).resolves.toMatchObject({ thumbprint: key.thumbprint });
  });

  test('htu ignores query, fragment and case of scheme and host', async () => {
    expect(dpopHtu('https://h/mcp?x=1#y')).toBe('https://h/mcp');
    const { value } = await proof({ url: 'HTTPS://MCP.EXAMPLE.COM:443/mcp?session=1' });
    await expect(verifyDpopProof(request(value))).resolves.toBeDefined();
  });

  test.each([
    ['a missing proof', null],
    ['two proofs', 'a.b.c, d.e.f'],
    ['garbage', 'not-a-jwt'],
  ])('refuses %s', async (_name, value) => {
    await expect(verifyDpopProof(request(value))).rejects.toMatchObject({ code: 'invalid_dpop_proof' });
  });

  test('refuses another method, URL, token, or a stale or future proof', async () => {
    await expect(verifyDpopProof(request((await proof({ method: 'GET' })).value))).rejects.toThrow(/method/);
    await expect(verifyDpopProof(request((await proof({ url: 'https://mcp.example.com/other' })).value))).rejects.toThrow(/URL/);
    await expect(verifyDpopProof(request((await proof({ token: 'another' })).value))).rejects.toThrow(/access token/);
    await expect(verifyDpopProof(request((await proof({ iat: seconds - 301 })).value))).rejects.toThrow(/old/);
    await expect(verifyDpopProof(request((await proof({ iat: seconds + 31 })).value))).rejects.toThrow(/future/);
  });

  test('refuses a wrong typ, alg none, a MAC, and an embedded private key', async () => {
    const key = await generateDpopKey('ES256', true);
    const claims = { htm: 'POST', htu: URL_, iat: seconds, jti: 'j1', ath: base64url.encode(new Uint8Array(32)) };
    const wrongTyp = await new SignJWT(claims)
      .setProtectedHeader({ alg: 'ES256', typ: 'JWT', jwk: key.publicJwk })
      .sign(key.keyPair.privateKey);
    await expect(verifyDpopProof(request(wrongTyp))).rejects.toThrow(/typ/);
    const none = `${base64url.encode(JSON.stringify({ alg: 'none', typ: 'dpop+jwt', jwk: key.publicJwk }))}.${base64url.encode(JSON.stringify(claims))}.`;
    await expect(verifyDpopProof(request(none))).rejects.toThrow(/algorithm/);
    const mac = await new SignJWT(claims)
      .setProtectedHeader({ alg: 'HS256', typ: 'dpop+jwt', jwk: { kty: 'oct', k: 'AAAA' } } as never)
      .sign(new Uint8Array(32));
    await expect(verifyDpopProof(request(mac))).rejects.toThrow(/algorithm/);
    const privateJwk = await exportDpopKey(key);
    const leaky = await new SignJWT(claims)
      .setProtectedHeader({ alg: 'ES256', typ: 'dpop+jwt', jwk: privateJwk })
      .sign(key.keyPair.privateKey);
    await expect(verifyDpopProof(request(leaky))).rejects.toThrow(/public key/);
  });

  test('refuses a proof signed by a key other than the one it carries', async () => {
    const signer = await generateDpopKey();
    const other = await generateDpopKey();
    const forged = await new SignJWT({ htm: 'POST', htu: URL_, iat: seconds, jti: 'j2' })
      .setProtectedHeader({ alg: 'ES256', typ: 'dpop+jwt', jwk: other.publicJwk })
      .sign(signer.keyPair.privateKey);
    await expect(verifyDpopProof(request(forged))).rejects.toThrow(/signature/);
  });

  test('a replayed proof is refused; the cache stays bounded', async () => {
    const replayCache = new MemoryReplayCache({ maxEntries: 3, now: () => now });
    const { value } = await proof();
    await verifyDpopProof(request(value), { replayCache });
    await expect(verifyDpopProof(request(value), { replayCache })).rejects.toThrow(/already used/);
    for (let i = 0; i < 5; i++) await verifyDpopProof(request((await proof()).value), { replayCache });
    expect(replayCache.size).toBeLessThanOrEqual(3);
  });

  test('server nonces: missing or foreign nonce asks for use_dpop_nonce, the current one passes', async () => {
    let clock = now;
    const nonces = new DpopNonceSource({ now: () => clock });
    await expect(verifyDpopProof(request((await proof()).value), { nonces, requireNonce: true })).rejects.toMatchObject({
      oauthError: 'use_dpop_nonce',
    });
    const foreign = await new DpopNonceSource({ now: () => clock }).current();
    await expect(verifyDpopProof(request((await proof({ nonce: foreign })).value), { nonces, requireNonce: true })).rejects.toMatchObject({
      oauthError: 'use_dpop_nonce',
    });
    const nonce = await nonces.current();
    await expect(verifyDpopProof(request((await proof({ nonce })).value), { nonces, requireNonce: true })).resolves.toBeDefined();
    clock += 10 * 60 * 1000;
    expect(await nonces.isValid(nonce)).toBe(false);
  });

  test('keys survive export and import with the same thumbprint', async () => {
    const key = await generateDpopKey('ES256', true);
    const again = await importDpopKey(await exportDpopKey(key));
    expect(again.thumbprint).toBe(key.thumbprint);
    await expect(exportDpopKey(await generateDpopKey('ES256', false))).rejects.toMatchObject({ code: 'config_invalid' });
  });
});
