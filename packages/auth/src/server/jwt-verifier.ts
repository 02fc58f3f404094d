/**
 * Access-token verification for signed JWTs (RFC 9068 and the common provider formats): the issuer's JWKS (fetched
 * through the bounded fetch, cached by `jose`), an algorithm allow-list that excludes `none` and MACs, the issuer,
 * the audience (the canonical resource URI, RFC 8707), expiry and not-before with a small clock tolerance.
 */
import { createLocalJWKSet, createRemoteJWKSet, customFetch, decodeJwt, decodeProtectedHeader, errors, jwtVerify } from 'jose';
import type { JSONWebKeySet, JWTVerifyGetKey } from 'jose';
import { discoverAuthorizationServer } from '../authorization-server-metadata.js';
import { AuthError, describeValue, isAuthError } from '../errors.js';
import { policyFetch, type FetchPolicy } from '../http/fetch-policy.js';
import { principalFromClaims, type Principal } from './principal.js';
import type { TokenVerificationContext, TokenVerifier } from './token-verifier.js';

/** Asymmetric signature algorithms accepted by default. */
export const DEFAULT_JWT_ALGORITHMS = [
  'RS256',
  'RS384',
  'RS512',
  'PS256',
  'PS384',
  'PS512',
  'ES256',
  'ES384',
  'ES512',
  'EdDSA',
  'Ed25519',
] as const;

/** One trusted issuer and where its keys are. */
export interface TrustedIssuer {
  /** The issuer identifier, compared exactly with the token's `iss`. */
  readonly issuer: string;
  /** The JWKS URL; when absent (and no `jwks`) it is discovered from the issuer's metadata (`jwks_uri`). */
  readonly jwksUri?: string;
  /** Static keys instead of a JWKS URL. */
  readonly jwks?: JSONWebKeySet;
}

/** Options of {@link JwtTokenVerifier}. */
export interface JwtTokenVerifierOptions {
  /** The issuers whose tokens are accepted (one or several; each with its own keys). */
  readonly issuers: readonly (string | TrustedIssuer)[];
  /** Accepted audiences. Default: the canonical resource URI the request is for. */
  readonly audience?: string | readonly string[];
  /** Accepted `alg` values (default {@link DEFAULT_JWT_ALGORITHMS}); `none` and HMAC algorithms are always refused. */
  readonly algorithms?: readonly string[];
  /** Accepted `typ` header values, e.g. `['at+jwt', 'application/at+jwt']`. Default: any. */
  readonly types?: readonly string[];
  /** Clock tolerance for `exp` and `nbf`, in seconds (default 30). */
  readonly clockToleranceSeconds?: number;
  /** Claims that must be present besides `exp` (which always is). */
  readonly requiredClaims?: readonly string[];
  /** Policy for JWKS and metadata requests. */
  readonly fetchPolicy?: FetchPolicy;
  /** JWKS cache lifetime in milliseconds (default 10 minutes). */
  readonly jwksCacheMaxAgeMs?: number;
  /**
   * Least time between two JWKS fetches caused by unknown `kid`s, in milliseconds (default 2000). A token whose `kid`
   * is not in the cached set triggers one refetch (a key the issuer has just published is accepted on its first use);
   * within this time of the last fetch the request waits for the cooldown to end first, so a flood of unknown `kid`s
   * costs the issuer at most one fetch per cooldown.
   */
  readonly jwksRefetchCooldownMs?: number;
}

/** Longest token accepted, in characters. */
export const MAX_TOKEN_LENGTH = 16 * 1024;

/** Default of `jwksRefetchCooldownMs`: at most one JWKS fetch every 2 s per issuer for unknown `kid`s. */
const DEFAULT_JWKS_REFETCH_COOLDOWN_MS = 2000;

/** What jose calls to fetch a key set. */
type KeySetFetch = (url: string, init: RequestInit) => Promise<Response>;

/**
 * The fetch behind a remote key set: an answer other than 200 with JSON is an outage of the issuer
 * (`verifier_unavailable`, so 503), never a bad token; jose alone would report it as a generic error.
 */
function keySetFetch(policy: FetchPolicy | undefined, fetched: () => void): KeySetFetch {
  const fetchKeys = policyFetch(policy);
  return async (url, init) => {
    const response = await fetchKeys(url, init);
    if (response.status !== 200) {
      await response.body?.cancel().catch(() => undefined);
      throw new AuthError('verifier_unavailable', `the issuer's key set answered HTTP ${response.status}`);
    }
    const text = await response.text();
    try {
      JSON.parse(text);
    } catch (cause) {
      throw new AuthError('verifier_unavailable', "the issuer's key set is not JSON", { cause });
    }
    fetched();
    return new Response(text, { status: 200, headers: response.headers });
  };
}

/** Verifies JWT access tokens against trusted issuers' keys. */
export class JwtTokenVerifier implements TokenVerifier {
  readonly #options: JwtTokenVerifierOptions;
  readonly #issuers: Map<string, TrustedIssuer>;
  readonly #keys = new Map<string, Promise<JWTVerifyGetKey>>();
  readonly #algorithms: string[];

  constructor(options: JwtTokenVerifierOptions) {
    if (options.issuers.length === 0) throw new AuthError('config_invalid', 'at least one trusted issuer is required');
    this.#options = options;
    this.#issuers = new Map(
      options.issuers.map((entry) => (typeof entry === 'string' ? [entry, { issuer: entry }] : [entry.issuer, entry])),
    );
    this.#algorithms = [...(options.algorithms ?? DEFAULT_JWT_ALGORITHMS)].filter((alg) => alg !== 'none' && !/^HS/i.test(alg));
    if (this.#algorithms.length === 0) throw new AuthError('config_invalid', 'no acceptable JWT algorithm configured');
  }

  #keySet(issuer: TrustedIssuer): Promise<JWTVerifyGetKey> {
    let keys = this.#keys.get(issuer.issuer);
    if (!keys) {
      keys = this.#loadKeySet(issuer);
      // A failed discovery is retried on the next request rather than cached forever.
      keys.catch(() => this.#keys.delete(issuer.issuer));
      this.#keys.set(issuer.issuer, keys);
    }
    return keys;
  }

  async #loadKeySet(issuer: TrustedIssuer): Promise<JWTVerifyGetKey> {
    if (issuer.jwks) return createLocalJWKSet(issuer.jwks);
    let jwksUri = issuer.jwksUri;
    if (!jwksUri) {
      const metadata = await discoverAuthorizationServer(issuer.issuer, { policy: this.#options.fetchPolicy });
      if (typeof metadata.jwks_uri !== 'string') throw new AuthError('verifier_unavailable', 'the issuer metadata has no jwks_uri');
      jwksUri = metadata.jwks_uri;
    }
    const cooldownMs = this.#options.jwksRefetchCooldownMs ?? DEFAULT_JWKS_REFETCH_COOLDOWN_MS;
    let fetchedAt = -Infinity;
    const remote = createRemoteJWKSet(new URL(jwksUri), {
      [customFetch]: keySetFetch(this.#options.fetchPolicy, () => (fetchedAt = Date.now())),
      timeoutDuration: this.#options.fetchPolicy?.timeoutMs ?? 5000,
      cacheMaxAge: this.#options.jwksCacheMaxAgeMs ?? 600_000,
      cooldownDuration: cooldownMs,
    });
    return async (header, token) => {
      try {
        return await remote(header, token);
      } catch (cause) {
        // An unknown kid just after a fetch: jose does not refetch within the cooldown. The key may have been
        // published since, so wait for the cooldown's end and ask again: one refetch, shared by every waiter
        // (jose joins concurrent fetches, and refetches nothing once one has just completed).
        if (!(cause instanceof errors.JWKSNoMatchingKey) || !remote.coolingDown) throw cause;
        // jose stamps the fetch a moment after `fetchedAt` (once it parsed the keys), and a timer may fire a
        // millisecond before `Date.now()` says it is due: waiting once for `fetchedAt + cooldownMs` could end while
        // jose was still cooling down, and the key that may exist was refused (401) without the refetch. So wait until
        // jose itself says the cooldown is over (bounded: a second past it at most).
        const giveUp = Date.now() + cooldownMs + 1000;
        do {
          await new Promise((resolve) => setTimeout(resolve, Math.max(1, fetchedAt + cooldownMs - Date.now())));
        } while (remote.coolingDown && Date.now() < giveUp);
        return remote(header, token);
      }
    };
  }

  async verify(token: string, context: TokenVerificationContext): Promise<Principal> {
    if (token.length > MAX_TOKEN_LENGTH) throw new AuthError('invalid_token', 'the access token is too long');
    let header: ReturnType<typeof decodeProtectedHeader>;
    let unverified: ReturnType<typeof decodeJwt>;
    try {
      header = decodeProtectedHeader(token);
      unverified = decodeJwt(token);
    } catch (cause) {
      throw new AuthError('invalid_token', 'the access token is not a well-formed JWT', { cause });
    }
    if (typeof header.alg !== 'string' || !this.#algorithms.includes(header.alg)) {
      throw new AuthError('invalid_token', `the access token's algorithm ${describeValue(header.alg ?? 'none', 20)} is not accepted`);
    }
    const types = this.#options.types;
    if (types && !(typeof header.typ === 'string' && types.includes(header.typ.toLowerCase()))) {
      throw new AuthError('invalid_token', 'the access token has an unexpected type');
    }
    const issuer = typeof unverified.iss === 'string' ? this.#issuers.get(unverified.iss) : undefined;
    if (!issuer) throw new AuthError('invalid_token', 'the access token is from an untrusted issuer');
    let keys: JWTVerifyGetKey;
    try {
      keys = await this.#keySet(issuer);
    } catch (cause) {
      throw new AuthError('verifier_unavailable', 'the issuer keys could not be loaded', { cause });
    }
    const audience = this.#options.audience ?? context.resource;
    try {
      const { payload } = await jwtVerify(token, keys, {
        issuer: issuer.issuer,
        audience: typeof audience === 'string' ? audience : [...audience],
        algorithms: this.#algorithms,
        clockTolerance: this.#options.clockToleranceSeconds ?? 30,
        currentDate: new Date(context.now),
        requiredClaims: ['exp', ...(this.#options.requiredClaims ?? [])],
      });
      return principalFromClaims(payload as Record<string, unknown>);
    } catch (cause) {
      throw mapJoseError(cause);
    }
  }
}

function mapJoseError(cause: unknown): AuthError {
  if (isAuthError(cause)) return cause;
  if (cause instanceof errors.JWTExpired) return new AuthError('invalid_token', 'the access token has expired', { cause });
  if (cause instanceof errors.JWTClaimValidationFailed) {
    const claim = cause.claim;
    const what =
      claim === 'aud' ? 'is not for this resource' : claim === 'iss' ? 'is from another issuer' : `has an invalid ${claim} claim`;
    return new AuthError('invalid_token', `the access token ${what}`, { cause });
  }
  if (cause instanceof errors.JWKSNoMatchingKey || cause instanceof errors.JWSSignatureVerificationFailed) {
    return new AuthError('invalid_token', 'the access token signature does not verify', { cause });
  }
  if (cause instanceof errors.JWKSTimeout || cause instanceof errors.JWKSInvalid) {
    return new AuthError('verifier_unavailable', 'the issuer keys could not be loaded', { cause });
  }
  if (cause instanceof errors.JOSEError) return new AuthError('invalid_token', 'the access token is invalid', { cause });
  return new AuthError('verifier_unavailable', 'the access token could not be verified', { cause });
}
