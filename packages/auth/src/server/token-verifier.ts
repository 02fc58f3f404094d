/**
 * The pluggable part of a resource server: something that decides whether an access token is valid for this
 * resource. Two implementations ship: {@link JwtTokenVerifier} (signed JWTs checked against the issuer's JWKS) and
 * {@link IntrospectionTokenVerifier} (RFC 7662).
 */
import type { Principal } from './principal.js';

/** What a verifier knows about the request. */
export interface TokenVerificationContext {
  /** The canonical URI of this resource: tokens must name it as (one of) their audience(s). */
  readonly resource: string;
  /** The current time in milliseconds since the epoch (a clock the caller controls). */
  readonly now: number;
}

/**
 * Validates access tokens. `verify` resolves with the token's principal, or rejects with
 * `AuthError('invalid_token')` (expired, wrong audience or issuer, bad signature, malformed) or
 * `AuthError('verifier_unavailable')` (the keys or the introspection endpoint could not be reached).
 */
export interface TokenVerifier {
  verify(token: string, context: TokenVerificationContext): Promise<Principal>;
}
