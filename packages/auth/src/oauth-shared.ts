/**
 * Glue between this package and `oauth4webapi`: client authentication methods, request options that route every
 * request through the bounded fetch, and the mapping of its errors to {@link AuthError}s (without echoing server
 * bodies or secrets).
 */
import * as oauth from 'oauth4webapi';
import { AuthError, describeValue, isAuthError, type AuthErrorCode } from './errors.js';
import { policyFetch, type FetchPolicy } from './http/fetch-policy.js';

/** Token endpoint client authentication methods this package implements. */
export type TokenEndpointAuthMethod = 'none' | 'client_secret_basic' | 'client_secret_post' | 'private_key_jwt';

/** A client's identity at one authorization server. */
export interface ClientCredentials {
  readonly clientId: string;
  readonly clientSecret?: string;
  /** Private key for `private_key_jwt` (a CryptoKey with `sign` usage). */
  readonly privateKey?: CryptoKey;
  /** `kid` to put in `private_key_jwt` assertions. */
  readonly privateKeyId?: string;
  /** The method to use; default chosen by {@link chooseAuthMethod}. */
  readonly authMethod?: TokenEndpointAuthMethod;
}

/**
 * The authentication method for `credentials` at a server advertising `supported`: the configured one; else
 * `private_key_jwt` with a key; else for a secret `client_secret_basic` (the RFC 6749 default) unless the server
 * lists only `client_secret_post`; else `none`.
 */
export function chooseAuthMethod(credentials: ClientCredentials, supported?: readonly string[]): TokenEndpointAuthMethod {
  if (credentials.authMethod) return credentials.authMethod;
  if (credentials.privateKey) return 'private_key_jwt';
  if (credentials.clientSecret !== undefined) {
    if (supported && !supported.includes('client_secret_basic') && supported.includes('client_secret_post')) return 'client_secret_post';
    return 'client_secret_basic';
  }
  return 'none';
}

/** `application/x-www-form-urlencoded` encoding of one value (the WHATWG serializer, RFC 6749 Appendix B). */
function formEncode(value: string): string {
  return new URLSearchParams([['', value]]).toString().slice(1);
}

/**
 * HTTP Basic client authentication (RFC 6749 §2.3.1). `oauth4webapi` percent-encodes characters such as `-` that the
 * form encoding leaves alone; servers that compare the decoded header without unescaping would then refuse
 * ordinary identifiers, so the WHATWG serializer's output is used instead.
 */
function clientSecretBasic(secret: string): oauth.ClientAuth {
  return (_as, client, _body, headers) => {
    headers.set('authorization', `Basic ${btoa(`${formEncode(client.client_id)}:${formEncode(secret)}`)}`);
  };
}

/** The `oauth4webapi` client-authentication function for a method. */
export function clientAuthFor(credentials: ClientCredentials, method: TokenEndpointAuthMethod): oauth.ClientAuth {
  switch (method) {
    case 'none':
      return oauth.None();
    case 'client_secret_basic':
    case 'client_secret_post':
      if (!credentials.clientSecret) throw new AuthError('config_invalid', `${method} needs a client secret`);
      return method === 'client_secret_basic'
        ? clientSecretBasic(credentials.clientSecret)
        : oauth.ClientSecretPost(credentials.clientSecret);
    case 'private_key_jwt':
      if (!credentials.privateKey) throw new AuthError('config_invalid', 'private_key_jwt needs a private key');
      return oauth.PrivateKeyJwt(
        credentials.privateKeyId ? { key: credentials.privateKey, kid: credentials.privateKeyId } : credentials.privateKey,
      );
  }
}

/** The fetch signature `oauth4webapi` calls (any method, any body it builds). */
type OAuthFetch = (
  url: string,
  options: { method: string; headers: Record<string, string>; body: unknown; redirect: 'manual'; signal?: AbortSignal },
) => Promise<Response>;

/** Request options making `oauth4webapi` use the bounded fetch (which enforces the http/https policy itself). */
export function oauthRequestOptions(policy: FetchPolicy | undefined): {
  [oauth.customFetch]: OAuthFetch;
  [oauth.allowInsecureRequests]: boolean;
} {
  const fetchFn = policyFetch(policy);
  return {
    [oauth.customFetch]: (url, init) => fetchFn(url, init as RequestInit),
    [oauth.allowInsecureRequests]: true,
  };
}

/**
 * Converts an error thrown by `oauth4webapi` (or by the bounded fetch under it) into an {@link AuthError} with
 * `code`, keeping the server's OAuth `error` value but none of its free text beyond a short sanitized description.
 */
export function mapOAuthError(error: unknown, code: AuthErrorCode, what: string): AuthError {
  if (isAuthError(error)) return error;
  if (error instanceof oauth.ResponseBodyError) {
    const description = error.error_description ? `: ${describeValue(error.error_description, 120)}` : '';
    return new AuthError(code, `${what} failed with ${describeValue(error.error, 40)}${description}`, {
      cause: error,
      status: error.status,
      oauthError: error.error,
    });
  }
  if (error instanceof oauth.AuthorizationResponseError) {
    const description = error.error_description ? `: ${describeValue(error.error_description, 120)}` : '';
    return new AuthError(code, `${what} was refused with ${describeValue(error.error, 40)}${description}`, {
      cause: error,
      oauthError: error.error,
    });
  }
  if (error instanceof oauth.WWWAuthenticateChallengeError) {
    return new AuthError(code, `${what} was refused (HTTP ${error.status})`, { cause: error, status: error.status });
  }
  if (error instanceof oauth.OperationProcessingError) {
    return new AuthError(code, `${what} returned an invalid response (${describeValue(error.message, 160)})`, { cause: error });
  }
  return new AuthError(code, `${what} failed`, { cause: error });
}
