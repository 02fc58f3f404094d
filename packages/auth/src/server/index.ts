/**
 * `@wiremcp/auth/server`: the resource-server half. An MCP HTTP server verifies access tokens (JWT/JWKS or
 * introspection, DPoP-bound or Bearer), serves its RFC 9728 metadata, answers with the right challenges, and
 * checks per-tool, per-prompt and per-resource scopes. Web-standard APIs only.
 */
export {
  createRequestAuthenticator,
  type AuthenticateContext,
  type AuthenticateResult,
  type AuthenticatorDpopOptions,
  type RequestAuthenticator,
  type RequestAuthenticatorOptions,
} from './authenticator.js';
export { refusal, type RefusalInput } from './challenge.js';
export { DpopNonceSource, type DpopNonceOptions } from './dpop-nonce.js';
export { MAX_DPOP_PROOF_LENGTH, normalizeHtu, verifyDpopProof, type DpopProofOptions, type DpopProofRequest } from './dpop-verifier.js';
export { IntrospectionTokenVerifier, type IntrospectionTokenVerifierOptions } from './introspection-verifier.js';
export {
  DEFAULT_JWT_ALGORITHMS,
  JwtTokenVerifier,
  MAX_TOKEN_LENGTH,
  type JwtTokenVerifierOptions,
  type TrustedIssuer,
} from './jwt-verifier.js';
export { principalFromClaims, principalKey, scopesFromClaims, type Principal } from './principal.js';
export {
  createProtectedResourceMetadataHandler,
  protectedResourceMetadataDocument,
  resourceMetadataUrl,
  type ProtectedResourceMetadataOptions,
} from './protected-resource-metadata.js';
export { MemoryReplayCache, type ReplayCache } from './replay-cache.js';
export { ScopePolicy, type ScopeList, type ScopePolicyConfig } from './scope-policy.js';
export type { TokenVerificationContext, TokenVerifier } from './token-verifier.js';
