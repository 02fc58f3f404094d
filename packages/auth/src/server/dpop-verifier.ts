/**
 * Resource-server checks of DPoP proofs (RFC 9449 §4.3, §7): one well-formed `dpop+jwt` signed with an asymmetric
 * algorithm by the public key it carries, for this method and URL, recent, bound to the presented access token
 * (`ath`), with a server nonce when required, and never seen before (`jti` replay cache).
 */
import { calculateJwkThumbprint, decodeProtectedHeader, importJWK, jwtVerify, type JWK } from 'jose';
import { dpopAth } from '../dpop/dpop-proof.js';
import { DPOP_ALGORITHMS } from '../dpop/dpop-key.js';
import { AuthError } from '../errors.js';
import type { DpopNonceSource } from './dpop-nonce.js';
import type { ReplayCache } from './replay-cache.js';

/** Options of {@link verifyDpopProof}. */
export interface DpopProofOptions {
  /** Accepted proof algorithms (default: every asymmetric algorithm in {@link DPOP_ALGORITHMS}). */
  readonly algorithms?: readonly string[];
  /** Oldest accepted proof, in seconds (default 300). */
  readonly maxAgeSeconds?: number;
  /** Accepted clock skew for proofs from the future, in seconds (default 30). */
  readonly clockToleranceSeconds?: number;
  /** Where proof identifiers are remembered; without one, replays are not detected. */
  readonly replayCache?: ReplayCache;
  /** The nonce source; with `requireNonce`, proofs must carry one of its nonces. */
  readonly nonces?: DpopNonceSource;
  /** Require a server nonce in every proof (default false). */
  readonly requireNonce?: boolean;
}

/** One proof to check. */
export interface DpopProofRequest {
  /** The `DPoP` request header value (null when absent). */
  readonly proof: string | null;
  /** The request method. */
  readonly method: string;
  /** The URLs the proof's `htu` may name (the endpoint's public URL, and the URL as the server saw it). */
  readonly urls: readonly string[];
  /** The access token presented with the proof. */
  readonly accessToken: string;
  /** Current time, ms since the epoch. */
  readonly now: number;
}

/** Longest accepted proof, in characters. */
export const MAX_DPOP_PROOF_LENGTH = 8192;

/** `htu` comparison form: URL-normalised scheme, host, port and path; no query or fragment; empty path as `/`. */
export function normalizeHtu(value: string): string | undefined {
  try {
    const url = new URL(value);
    return `${url.protocol}//${url.host}${url.pathname || '/'}`;
  } catch {
    return undefined;
  }
}

function invalid(message: string, oauthError = 'invalid_dpop_proof'): AuthError {
  return new AuthError('invalid_dpop_proof', message, { status: 401, oauthError });
}

/**
 * Verifies a DPoP proof and resolves with the thumbprint of its key (to compare with the token's `cnf.jkt`).
 * Rejects with `AuthError('invalid_dpop_proof')`; when a nonce is required and missing or stale, the error's
 * `oauthError` is `use_dpop_nonce` (answer with a fresh `DPoP-Nonce`).
 */
export async function verifyDpopProof(
  request: DpopProofRequest,
  options: DpopProofOptions = {},
): Promise<{ thumbprint: string; jti: string }> {
  const proof = request.proof;
  if (proof === null || proof.length === 0) throw invalid('the DPoP proof is missing');
  if (proof.length > MAX_DPOP_PROOF_LENGTH) throw invalid('the DPoP proof is too long');
  if (proof.includes(',') || /\s/.test(proof)) throw invalid('exactly one DPoP proof must be sent');
  const algorithms = (options.algorithms ?? DPOP_ALGORITHMS).filter((alg) => alg !== 'none' && !/^HS/i.test(alg));
  let header: ReturnType<typeof decodeProtectedHeader>;
  try {
    header = decodeProtectedHeader(proof);
  } catch {
    throw invalid('the DPoP proof is not a well-formed JWT');
  }
  if (header.typ !== 'dpop+jwt') throw invalid('the DPoP proof must have typ dpop+jwt');
  if (typeof header.alg !== 'string' || !algorithms.includes(header.alg)) throw invalid('the DPoP proof algorithm is not accepted');
  const jwk = header.jwk as JWK | undefined;
  if (typeof jwk !== 'object' || jwk === null) throw invalid('the DPoP proof carries no public key');
  if ('d' in jwk || 'p' in jwk || 'k' in jwk) throw invalid('the DPoP proof key must be a public key');
  let claims: Record<string, unknown>;
  try {
    const key = await importJWK(jwk, header.alg);
    claims = (await jwtVerify(proof, key, { algorithms: [header.alg], typ: 'dpop+jwt' })).payload as Record<string, unknown>;
  } catch {
    throw invalid('the DPoP proof signature does not verify');
  }
  const { jti, htm, htu, iat, ath, nonce } = claims;
  if (typeof jti !== 'string' || jti.length === 0 || jti.length > 256) throw invalid('the DPoP proof has no valid jti');
  if (htm !== request.method.toUpperCase()) throw invalid('the DPoP proof is for another HTTP method');
  if (typeof htu !== 'string' || htu.includes('?') || htu.includes('#')) throw invalid('the DPoP proof has an invalid htu');
  const target = normalizeHtu(htu);
  if (target === undefined || !request.urls.some((url) => normalizeHtu(url) === target)) throw invalid('the DPoP proof is for another URL');
  const now = Math.floor(request.now / 1000);
  const maxAge = options.maxAgeSeconds ?? 300;
  const tolerance = options.clockToleranceSeconds ?? 30;
  if (typeof iat !== 'number' || iat < now - maxAge || iat > now + tolerance) throw invalid('the DPoP proof is too old or from the future');
  if (ath !== (await dpopAth(request.accessToken))) throw invalid('the DPoP proof is not bound to this access token');
  if (options.requireNonce) {
    if (!options.nonces) throw new AuthError('config_invalid', 'requireNonce needs a nonce source');
    if (!(await options.nonces.isValid(nonce))) throw invalid('a fresh DPoP nonce is required', 'use_dpop_nonce');
  }
  const thumbprint = await calculateJwkThumbprint(jwk, 'sha256');
  if (options.replayCache && !(await options.replayCache.remember(`${thumbprint}:${jti}`, (iat + maxAge + tolerance) * 1000))) {
    throw invalid('the DPoP proof was already used');
  }
  return { thumbprint, jti };
}
