/**
 * `@wiremcp/auth`: OAuth 2.1 authorization for MCP over HTTP. This entry holds what both halves share (errors,
 * challenges, resource URIs, metadata discovery, the bounded fetch, DPoP keys and proofs); the resource server is
 * `@wiremcp/auth/server`, the OAuth client `@wiremcp/auth/client`, Node-only helpers `@wiremcp/auth/node`.
 */
export {
  discoverAuthorizationServer,
  validateAuthorizationServerMetadata,
  type AuthorizationServerMetadata,
  type DiscoverAuthorizationServerOptions,
} from './authorization-server-metadata.js';
export { createDpopProof, dpopAth, dpopHtu, type DpopProofInput } from './dpop/dpop-proof.js';
export { DPOP_ALGORITHMS, dpopKeyFromKeyPair, exportDpopKey, generateDpopKey, importDpopKey, type DpopKey } from './dpop/dpop-key.js';
export { AuthError, describeUrl, isAuthError, type AuthErrorCode, type AuthErrorOptions } from './errors.js';
export { classifyHost, classifyIp, type AddressKind } from './http/address.js';
export {
  assertUrlAllowed,
  boundedFetch,
  DEFAULT_FETCH_POLICY,
  policyFetch,
  readBounded,
  type BoundedRequest,
  type FetchPolicy,
} from './http/fetch-policy.js';
export { chooseAuthMethod, type ClientCredentials, type TokenEndpointAuthMethod } from './oauth-shared.js';
export { authorizationServerMetadataUrls, canonicalResourceUri, protectedResourceMetadataUrls, resourceCovers } from './resource-uri.js';
export { findChallenge, formatChallenge, MAX_CHALLENGE_HEADER_LENGTH, parseWwwAuthenticate, type Challenge } from './www-authenticate.js';
