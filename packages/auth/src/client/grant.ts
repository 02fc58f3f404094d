/**
 * How an OAuth client obtains tokens once the authorization server is known. Each grant (authorization code,
 * client credentials, JWT bearer, enterprise-managed) implements {@link OAuthGrant}; the provider does discovery,
 * storage, DPoP, refresh and retries around it. {@link runTokenRequest} is the shared token-endpoint call: DPoP
 * nonce challenges answered once, errors mapped to `AuthError`.
 */
import * as oauth from 'oauth4webapi';
import type { AuthorizationServerMetadata } from '../authorization-server-metadata.js';
import { AuthError } from '../errors.js';
import type { FetchPolicy } from '../http/fetch-policy.js';
import { mapOAuthError, oauthRequestOptions } from '../oauth-shared.js';
import type { AuthStore } from './store.js';

/** Everything a grant needs for one token acquisition. */
export interface GrantContext {
  /** Validated metadata of the authorization server (synthesized defaults under 2025-03-26 fallback). */
  readonly as: AuthorizationServerMetadata;
  /** The issuer identifier (exact string from the protected resource metadata). */
  readonly issuer: string;
  /** True when `as` is the 2025-03-26 default-endpoint fallback rather than a metadata document. */
  readonly defaultEndpoints: boolean;
  /** The resource indicator (RFC 8707) to request tokens for; absent under 2025-03-26 discovery. */
  readonly resource: string | undefined;
  /** The scopes to request, or undefined to omit `scope`. */
  readonly scopes: readonly string[] | undefined;
  readonly store: AuthStore;
  /** DPoP handle for token requests, when tokens are to be DPoP-bound. */
  readonly dpop: oauth.DPoPHandle | undefined;
  readonly fetchPolicy: FetchPolicy | undefined;
  readonly signal: AbortSignal | undefined;
}

/** A token endpoint response and the client it was issued to. */
export interface GrantResult {
  readonly response: oauth.TokenEndpointResponse;
  readonly clientId: string;
}

/** The client identity used for refresh-token requests. */
export interface GrantClient {
  readonly client: oauth.Client;
  readonly auth: oauth.ClientAuth;
}

/** One way of obtaining tokens. */
export interface OAuthGrant {
  /** A short name for messages (`authorization_code`, `client_credentials`…). */
  readonly name: string;
  /** True when tokens are obtained with a user in the loop (refresh tokens and `offline_access` make sense). */
  readonly interactive: boolean;
  /** Obtains tokens at `context.as`. */
  acquire(context: GrantContext): Promise<GrantResult>;
  /** The client to refresh tokens issued to `clientId` at `context.issuer`, or undefined when it is unknown. */
  refreshClient(context: GrantContext, clientId: string): Promise<GrantClient | undefined>;
}

/** Token types accepted besides Bearer and DPoP (RFC 8693 tokens that are not access tokens). */
export const NOT_AN_ACCESS_TOKEN: oauth.RecognizedTokenTypes = { n_a: () => undefined };

/**
 * Sends a token request through `send` and validates the answer through `parse`; a DPoP `use_dpop_nonce`
 * challenge is answered once with a fresh proof carrying the nonce (oauth4webapi remembers it per origin).
 */
export async function runTokenRequest(
  what: string,
  context: GrantContext,
  send: (options: oauth.TokenEndpointRequestOptions) => Promise<Response>,
  parse: (response: Response) => Promise<oauth.TokenEndpointResponse>,
): Promise<oauth.TokenEndpointResponse> {
  if (!context.as.token_endpoint) throw new AuthError('discovery_failed', 'the authorization server has no token endpoint');
  const options: oauth.TokenEndpointRequestOptions = {
    ...oauthRequestOptions(context.fetchPolicy),
    ...(context.signal ? { signal: context.signal } : {}),
    ...(context.dpop ? { DPoP: context.dpop } : {}),
  };
  for (let attempt = 0; ; attempt++) {
    try {
      return await parse(await send(options));
    } catch (error) {
      if (attempt === 0 && context.dpop && oauth.isDPoPNonceError(error)) continue;
      throw mapOAuthError(error, 'token_request_failed', what);
    }
  }
}

/** The `resource` and `scope` parameters of a token or authorization request. */
export function grantParameters(context: GrantContext, extra: Record<string, string> = {}): URLSearchParams {
  const params = new URLSearchParams(extra);
  if (context.resource !== undefined) params.set('resource', context.resource);
  if (context.scopes && context.scopes.length > 0) params.set('scope', context.scopes.join(' '));
  return params;
}
