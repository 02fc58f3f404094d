/**
 * DPoP proof JWTs (RFC 9449 §4): built with `jose`, one per HTTP request, binding the method (`htm`), the URL
 * without query and fragment (`htu`), the access token (`ath`) and a server nonce when one was asked for.
 */
import { base64url, SignJWT } from 'jose';
import type { DpopKey } from './dpop-key.js';

/** What a proof binds. */
export interface DpopProofInput {
  /** The HTTP method of the request. */
  readonly method: string;
  /** The request URL; query and fragment are dropped for `htu`. */
  readonly url: string | URL;
  /** The access token sent with the request (resource requests only); its hash becomes `ath`. */
  readonly accessToken?: string;
  /** A nonce the server supplied through `DPoP-Nonce`. */
  readonly nonce?: string;
  /** Issue time in seconds since the epoch (default: now). */
  readonly issuedAt?: number;
}

/** The `htu` of a URL: scheme, host and path, without query or fragment (RFC 9449 §4.2). */
export function dpopHtu(url: string | URL): string {
  const parsed = new URL(typeof url === 'string' ? url : url.href);
  return `${parsed.origin}${parsed.pathname}`;
}

/** The `ath` of an access token: base64url of its SHA-256 over the ASCII bytes (RFC 9449 §4.2). */
export async function dpopAth(accessToken: string): Promise<string> {
  const digest = await crypto.subtle.digest('SHA-256', new TextEncoder().encode(accessToken));
  return base64url.encode(new Uint8Array(digest));
}

/** Signs a fresh proof (new random `jti`) for one request. */
export async function createDpopProof(key: DpopKey, input: DpopProofInput): Promise<string> {
  const claims: Record<string, unknown> = { htm: input.method.toUpperCase(), htu: dpopHtu(input.url) };
  if (input.accessToken !== undefined) claims.ath = await dpopAth(input.accessToken);
  if (input.nonce !== undefined) claims.nonce = input.nonce;
  const jwt = new SignJWT(claims)
    .setProtectedHeader({ typ: 'dpop+jwt', alg: key.alg, jwk: key.publicJwk })
    .setJti(base64url.encode(crypto.getRandomValues(new Uint8Array(16))));
  jwt.setIssuedAt(input.issuedAt ?? Math.floor(Date.now() / 1000));
  return jwt.sign(key.keyPair.privateKey);
}
