/**
 * The authorization code grant with PKCE S256 (OAuth 2.1 §4.1) as MCP requires it: the resource indicator in the
 * authorization and token requests (RFC 8707), `state`, and the RFC 9207 `iss` check against the recorded issuer
 * (exact string comparison) before the code is sent anywhere. Primitives from `oauth4webapi`.
 */
import * as oauth from 'oauth4webapi';
import { AuthError, describeUrl } from '../errors.js';
import { chooseAuthMethod, clientAuthFor } from '../oauth-shared.js';
import { grantParameters, runTokenRequest, type GrantClient, type GrantContext, type GrantResult, type OAuthGrant } from './grant.js';
import { resolveClient, type RegistrationOptions } from './registration.js';
import type { StoredClient } from './store.js';
import type { AuthorizationUserAgent } from './types.js';

/** Options of {@link authorizationCodeGrant}. */
export interface AuthorizationCodeGrantOptions extends RegistrationOptions {
  /** Takes the user to the authorization server and brings back the redirect. */
  readonly userAgent: AuthorizationUserAgent;
  /** Extra authorization request parameters (e.g. `prompt`, `login_hint`). */
  readonly extraAuthorizationParameters?: Readonly<Record<string, string>>;
}

function clientFor(stored: StoredClient): GrantClient {
  const credentials = { clientId: stored.clientId, clientSecret: stored.clientSecret, authMethod: stored.tokenEndpointAuthMethod };
  return { client: { client_id: stored.clientId }, auth: clientAuthFor(credentials, chooseAuthMethod(credentials)) };
}

function mapCallbackError(error: unknown): AuthError {
  if (error instanceof oauth.AuthorizationResponseError) {
    return new AuthError('authorization_failed', `the authorization server refused: ${error.error}`, {
      cause: error,
      oauthError: error.error,
    });
  }
  const message = error instanceof Error ? error.message : '';
  if (message.includes('"iss"')) {
    return new AuthError('issuer_mismatch', 'the authorization response did not come from the expected issuer (RFC 9207)', {
      cause: error,
    });
  }
  if (message.includes('"state"'))
    return new AuthError('state_mismatch', 'the authorization response does not match this request', { cause: error });
  return new AuthError('authorization_failed', 'the authorization response is invalid', { cause: error });
}

/** True for metadata from OpenID Connect Discovery (it has the members OpenID providers must publish). */
function isOpenIdProvider(as: GrantContext['as']): boolean {
  return Array.isArray(as.subject_types_supported) || Array.isArray(as.id_token_signing_alg_values_supported);
}

/** Creates the interactive grant for users: registration, browser redirect, code exchange. */
export function authorizationCodeGrant(options: AuthorizationCodeGrantOptions): OAuthGrant {
  const bound: { value?: string } = {};
  return {
    name: 'authorization_code',
    interactive: true,
    async refreshClient(context, clientId) {
      // Never registers: refreshing needs the client the tokens were issued to, not a new one.
      const stored = await resolveClient(context, options, bound, false).catch(() => undefined);
      return stored && stored.clientId === clientId ? clientFor(stored) : undefined;
    },
    async acquire(context: GrantContext): Promise<GrantResult> {
      const { as } = context;
      if (!as.authorization_endpoint) throw new AuthError('discovery_failed', 'the authorization server has no authorization endpoint');
      if (!context.defaultEndpoints && !as.code_challenge_methods_supported?.includes('S256')) {
        throw new AuthError('pkce_unsupported', 'the authorization server does not advertise PKCE with S256; refusing to authorize');
      }
      const stored = await resolveClient(context, options, bound);
      const { client, auth } = clientFor(stored);
      const verifier = oauth.generateRandomCodeVerifier();
      const state = oauth.generateRandomState();
      const url = new URL(as.authorization_endpoint);
      const params = grantParameters(context, {
        ...options.extraAuthorizationParameters,
        response_type: 'code',
        client_id: stored.clientId,
        redirect_uri: options.redirectUri,
        code_challenge: await oauth.calculatePKCECodeChallenge(verifier),
        code_challenge_method: 'S256',
        state,
      });
      // OpenID Connect Core §11: an OpenID provider honours offline_access only together with prompt=consent.
      if (context.scopes?.includes('offline_access') && !params.has('prompt') && isOpenIdProvider(as)) params.set('prompt', 'consent');
      params.forEach((value, key) => url.searchParams.set(key, value));
      const callback = await options.userAgent.authorize(url, {
        redirectUri: options.redirectUri,
        state,
        ...(context.signal ? { signal: context.signal } : {}),
      });
      const expected = new URL(options.redirectUri);
      if (callback.origin !== expected.origin || callback.pathname !== expected.pathname) {
        throw new AuthError('authorization_failed', `the authorization ended at ${describeUrl(callback)}, not at the redirect URI`);
      }
      let validated: URLSearchParams;
      try {
        validated = oauth.validateAuthResponse(as, client, callback.searchParams, state);
      } catch (error) {
        throw mapCallbackError(error);
      }
      const extra: Record<string, string> = context.resource !== undefined ? { resource: context.resource } : {};
      const response = await runTokenRequest(
        'the authorization code exchange',
        context,
        (requestOptions) =>
          oauth.authorizationCodeGrantRequest(as, client, auth, validated, options.redirectUri, verifier, {
            ...requestOptions,
            additionalParameters: extra,
          }),
        (answer) => oauth.processAuthorizationCodeResponse(as, client, answer),
      );
      return { response, clientId: stored.clientId };
    },
  };
}
