/**
 * Turning token endpoint responses into {@link StoredTokens}, and tokens into request headers (a Bearer token, or a
 * DPoP-bound token with a fresh proof per request carrying the server's latest nonce).
 */
import type * as oauth from 'oauth4webapi';
import { createDpopProof } from '../dpop/dpop-proof.js';
import { exportDpopKey, type DpopKey } from '../dpop/dpop-key.js';
import type { StoredTokens } from './store.js';
import type { HttpAuthRequest } from './types.js';

/** Builds the stored form of a token response; a refresh response without a new refresh token keeps the old one. */
export async function tokensFromResponse(
  response: oauth.TokenEndpointResponse,
  base: { issuer: string; clientId: string; resource: string | undefined; scopes: readonly string[] | undefined; now: number },
  dpopKey: DpopKey | undefined,
  previousRefreshToken?: string,
): Promise<StoredTokens> {
  const tokenType = response.token_type === 'dpop' ? 'dpop' : 'bearer';
  const refreshToken = response.refresh_token ?? previousRefreshToken;
  const scope = base.scopes && base.scopes.length > 0 ? base.scopes.join(' ') : response.scope;
  const keep = tokenType === 'dpop' && dpopKey?.keyPair.privateKey.extractable ? await exportDpopKey(dpopKey) : undefined;
  return {
    issuer: base.issuer,
    clientId: base.clientId,
    ...(base.resource !== undefined ? { resource: base.resource } : {}),
    accessToken: response.access_token,
    tokenType,
    ...(refreshToken !== undefined ? { refreshToken } : {}),
    ...(typeof response.expires_in === 'number' ? { expiresAt: base.now + response.expires_in * 1000 } : {}),
    ...(scope ? { scope } : {}),
    ...(keep ? { dpopKey: keep } : {}),
  };
}

/** The `Authorization` (and `DPoP`) headers presenting `tokens` on `request`. */
export async function authorizationHeaders(
  tokens: StoredTokens,
  request: HttpAuthRequest,
  dpopKey: DpopKey | undefined,
  nonce: string | undefined,
): Promise<Record<string, string>> {
  if (tokens.tokenType === 'dpop' && dpopKey) {
    const proof = await createDpopProof(dpopKey, {
      method: request.method,
      url: request.url,
      accessToken: tokens.accessToken,
      ...(nonce ? { nonce } : {}),
    });
    return { authorization: `DPoP ${tokens.accessToken}`, dpop: proof };
  }
  return { authorization: `Bearer ${tokens.accessToken}` };
}

/** A small bounded map of the latest DPoP nonce per origin. */
export class NonceMemory {
  readonly #nonces = new Map<string, string>();

  get(url: URL): string | undefined {
    return this.#nonces.get(url.origin);
  }

  /** Records `value` (ignored when empty or oversized) for the origin of `url`. */
  set(url: URL, value: string | null): void {
    if (!value || value.length > 512 || !/^[\x21-\x7e]+$/.test(value)) return;
    this.#nonces.delete(url.origin);
    this.#nonces.set(url.origin, value);
    if (this.#nonces.size > 32) this.#nonces.delete(this.#nonces.keys().next().value!);
  }
}
