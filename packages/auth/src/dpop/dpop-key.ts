/**
 * DPoP key pairs (RFC 9449): generated or imported through `jose`, with the public JWK and its RFC 7638 thumbprint
 * (the `jkt` a DPoP-bound token is bound to) computed once.
 */
import { calculateJwkThumbprint, exportJWK, generateKeyPair, importJWK, type JWK } from 'jose';
import { AuthError } from '../errors.js';

/** Asymmetric JWS algorithms usable for DPoP proofs (RFC 9449 §11.6: never `none`, never a MAC). */
export const DPOP_ALGORITHMS = [
  'ES256',
  'ES384',
  'ES512',
  'PS256',
  'PS384',
  'PS512',
  'RS256',
  'RS384',
  'RS512',
  'EdDSA',
  'Ed25519',
] as const;

/** A DPoP signing key with its public JWK and thumbprint. */
export interface DpopKey {
  /** The JWS algorithm of the proofs. */
  readonly alg: string;
  /** The key pair; the private key signs proofs. */
  readonly keyPair: CryptoKeyPair;
  /** The public key as a JWK (what goes into each proof's `jwk` header). */
  readonly publicJwk: JWK;
  /** The RFC 7638 SHA-256 thumbprint of the public key (a bound token's `cnf.jkt`). */
  readonly thumbprint: string;
}

function publicOnly(jwk: JWK): JWK {
  const { kty, crv, x, y, n, e } = jwk;
  const out: JWK = { kty: kty! };
  if (crv !== undefined) out.crv = crv;
  if (x !== undefined) out.x = x;
  if (y !== undefined) out.y = y;
  if (n !== undefined) out.n = n;
  if (e !== undefined) out.e = e;
  return out;
}

async function describe(alg: string, keyPair: CryptoKeyPair): Promise<DpopKey> {
  const publicJwk = publicOnly(await exportJWK(keyPair.publicKey));
  return { alg, keyPair, publicJwk, thumbprint: await calculateJwkThumbprint(publicJwk, 'sha256') };
}

/**
 * Generates a DPoP key. `extractable` must be true when the key is to be persisted with the tokens bound to it
 * (see {@link exportDpopKey}); keep it false when the key only lives in memory.
 */
export async function generateDpopKey(alg = 'ES256', extractable = false): Promise<DpopKey> {
  if (!(DPOP_ALGORITHMS as readonly string[]).includes(alg)) throw new AuthError('config_invalid', `unsupported DPoP algorithm ${alg}`);
  const keyPair = (await generateKeyPair(alg, { extractable })) as CryptoKeyPair;
  return describe(alg, keyPair);
}

/** Wraps an existing key pair (the public key must be extractable, to publish it in proofs). */
export async function dpopKeyFromKeyPair(keyPair: CryptoKeyPair, alg = 'ES256'): Promise<DpopKey> {
  if (!(DPOP_ALGORITHMS as readonly string[]).includes(alg)) throw new AuthError('config_invalid', `unsupported DPoP algorithm ${alg}`);
  return describe(alg, keyPair);
}

/** The private JWK of an extractable DPoP key, with its algorithm, for storage next to the tokens bound to it. */
export async function exportDpopKey(key: DpopKey): Promise<JWK> {
  if (!key.keyPair.privateKey.extractable) throw new AuthError('config_invalid', 'this DPoP key is not extractable');
  return { ...(await exportJWK(key.keyPair.privateKey)), alg: key.alg };
}

/** Re-creates a DPoP key from a private JWK written by {@link exportDpopKey}. */
export async function importDpopKey(jwk: JWK): Promise<DpopKey> {
  const alg = jwk.alg;
  if (typeof alg !== 'string' || !(DPOP_ALGORITHMS as readonly string[]).includes(alg) || typeof jwk.d !== 'string') {
    throw new AuthError('storage_failed', 'the stored DPoP key is not a private key of a supported algorithm');
  }
  const privateKey = (await importJWK(jwk, alg, { extractable: true })) as CryptoKey;
  const publicKey = (await importJWK(publicOnly(jwk), alg, { extractable: true })) as CryptoKey;
  return describe(alg, { privateKey, publicKey });
}
