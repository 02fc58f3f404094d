/**
 * The one error type of this package. Every failure that a caller can act on is an `AuthError` with a stable `code`;
 * messages are written for people and never carry secrets (tokens, client secrets, authorization codes, query strings).
 */

/** Stable machine-readable reasons for an {@link AuthError}. */
export type AuthErrorCode =
  /** A request's credentials are missing, malformed, expired, for another audience or from another issuer. */
  | 'invalid_token'
  /** A request is malformed (token in the query string, oversized or duplicated header, bad DPoP header). */
  | 'invalid_request'
  /** The token is valid but lacks the scopes the operation needs. */
  | 'insufficient_scope'
  /** A DPoP proof is missing, malformed, replayed, or not bound to the token. */
  | 'invalid_dpop_proof'
  /** The verifier could not reach what it needs (JWKS, introspection endpoint); the token was not judged. */
  | 'verifier_unavailable'
  /** No protected resource metadata or authorization server metadata could be found or used. */
  | 'discovery_failed'
  /** A metadata document is not valid JSON of the expected shape. */
  | 'metadata_invalid'
  /** An `issuer` (metadata document or RFC 9207 `iss`) is not identical to the one expected. */
  | 'issuer_mismatch'
  /** The protected resource metadata names a resource other than the server being accessed. */
  | 'resource_mismatch'
  /** The authorization server does not advertise PKCE with S256. */
  | 'pkce_unsupported'
  /** No way to obtain a client identifier, or the registration request failed. */
  | 'registration_failed'
  /** The authorization response was an error or could not be validated. */
  | 'authorization_failed'
  /** The authorization response's `state` does not match the request's. */
  | 'state_mismatch'
  /** The token endpoint refused a grant (the OAuth error is in `oauthError`). */
  | 'token_request_failed'
  /** Re-authorization for more scopes was attempted as often as allowed and the server still refuses. */
  | 'step_up_limit'
  /** The server keeps refusing freshly obtained credentials. */
  | 'retry_limit'
  /** A network request failed (connection refused, DNS failure, unexpected status). */
  | 'fetch_failed'
  /** A network request did not finish in time. */
  | 'fetch_timeout'
  /** A response body exceeded the configured size limit. */
  | 'response_too_large'
  /** A request was redirected more often than allowed, or in a loop. */
  | 'too_many_redirects'
  /** A URL points at an address the fetch policy refuses (private, loopback, link-local…). */
  | 'address_refused'
  /** A URL uses a scheme the fetch policy refuses (plain http to a non-loopback host, or not http at all). */
  | 'insecure_url'
  /** The user did not complete the interactive authorization in time. */
  | 'interaction_timeout'
  /** The interactive authorization was cancelled (aborted, or the listener closed). */
  | 'interaction_cancelled'
  /** A token or registration store failed to read or write. */
  | 'storage_failed'
  /** The options given to a component are inconsistent. */
  | 'config_invalid';

/** Options of {@link AuthError}. */
export interface AuthErrorOptions {
  /** The underlying error, kept for debugging; never shown in `message`. */
  cause?: unknown;
  /** The HTTP status this error stands for, when it came from or maps to one. */
  status?: number;
  /** The OAuth `error` value reported by a server (e.g. `invalid_grant`), when there was one. */
  oauthError?: string;
}

/** An authorization failure with a stable {@link AuthErrorCode}. Messages never contain secrets. */
export class AuthError extends Error {
  /** The stable reason. */
  readonly code: AuthErrorCode;
  /** The HTTP status this error stands for, if any. */
  readonly status: number | undefined;
  /** The OAuth `error` value a server reported, if any. */
  readonly oauthError: string | undefined;

  constructor(code: AuthErrorCode, message: string, options: AuthErrorOptions = {}) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.name = 'AuthError';
    this.code = code;
    this.status = options.status;
    this.oauthError = options.oauthError;
  }
}

/** True when `value` is an {@link AuthError} (also across package copies, by shape). */
export function isAuthError(value: unknown): value is AuthError {
  return (
    value instanceof AuthError ||
    (value instanceof Error && value.name === 'AuthError' && typeof (value as { code?: unknown }).code === 'string')
  );
}

/**
 * A URL as it may appear in an error message: scheme, host and path only (no query, which may carry codes or
 * tokens, and no fragment), cut to a readable length.
 */
export function describeUrl(url: string | URL): string {
  let text: string;
  try {
    const parsed = typeof url === 'string' ? new URL(url) : url;
    text = `${parsed.protocol}//${parsed.host}${parsed.pathname}`;
  } catch {
    text = '(invalid URL)';
  }
  return text.length > 200 ? `${text.slice(0, 200)}…` : text;
}

/** A short printable form of an untrusted string for error messages: control characters removed, length capped. */
export function describeValue(value: unknown, max = 80): string {
  let text: string;
  try {
    text = typeof value === 'string' ? value : (JSON.stringify(value) ?? String(value));
  } catch {
    text = typeof value;
  }
  const clean = text.replace(/[\u0000-\u001f\u007f]/g, '?');
  return clean.length > max ? `${clean.slice(0, max)}…` : clean;
}
