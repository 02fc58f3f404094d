/**
 * `@wiremcp/auth/client`: the OAuth client half. {@link McpOAuthProvider} implements the HTTP transport's
 * {@link HttpAuthProvider} hook with discovery for every MCP revision, registration (pre-registered, Client ID
 * Metadata Document, dynamic), the grants, refresh, step-up and DPoP. Web-standard APIs only.
 */
export { authorizationCodeGrant, type AuthorizationCodeGrantOptions } from './authorization-code.js';
export { createAuthFetch, type AuthFetchOptions } from './auth-fetch.js';
export { automaticUserAgent, type AutomaticUserAgentOptions } from './automatic-user-agent.js';
export { grantParameters, runTokenRequest, type GrantClient, type GrantContext, type GrantResult, type OAuthGrant } from './grant.js';
export {
  clientCredentialsGrant,
  enterpriseManagedGrant,
  ID_JAG_TOKEN_TYPE,
  ID_TOKEN_TYPE,
  importClientPrivateKey,
  JWT_BEARER_GRANT_TYPE,
  jwtBearerGrant,
  TOKEN_EXCHANGE_GRANT_TYPE,
  type EnterpriseIdentityProvider,
  type EnterpriseManagedGrantOptions,
  type JwtBearerGrantOptions,
  type Provided,
} from './machine-grants.js';
export {
  completePopupAuthorization,
  popupUserAgent,
  type CompletePopupAuthorizationOptions,
  type PopupUserAgentOptions,
  type PopupWindow,
} from './popup-user-agent.js';
export { McpOAuthProvider, type McpOAuthProviderOptions } from './oauth-provider.js';
export type { PreRegisteredClient, RegistrationOptions } from './registration.js';
export { discoverProtectedResource, type DiscoverProtectedResourceOptions, type ProtectedResourceMetadata } from './resource-discovery.js';
export { selectScopes, splitScopes, type ScopeSelectionInput } from './scopes.js';
export { resolveAuthorizationServer, type ResolvedServer, type ResolveOptions } from './server-resolution.js';
export { MemoryAuthStore, type AuthStore, type RegistrationKind, type StoredClient, type StoredTokens } from './store.js';
export type {
  AuthorizationUserAgent,
  AuthorizationUserAgentContext,
  HttpAuthProvider,
  HttpAuthRequest,
  UnauthorizedOutcome,
} from './types.js';
