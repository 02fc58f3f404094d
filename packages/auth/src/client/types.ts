/**
 * The client-side hook for the HTTP transport. The transport asks an {@link HttpAuthProvider} for the headers of
 * each request (per request, because DPoP proofs bind the method, the URL, the token and the latest server nonce),
 * tells it about every response, and hands it 401/403 responses to fix.
 */

/** The request the transport is about to send (or has sent). */
export interface HttpAuthRequest {
  /** HTTP method (`POST`, `GET`, `DELETE`). */
  readonly method: string;
  /** The full request URL. */
  readonly url: URL;
}

/** What the transport should do after {@link HttpAuthProvider.onUnauthorized}. */
export type UnauthorizedOutcome = 'retry' | 'fail';

/** Supplies credentials for requests to one MCP server. */
export interface HttpAuthProvider {
  /**
   * Headers for one request: `Authorization` (and `DPoP` with a fresh proof) when a token is available, `{}` before
   * the first authorization. Call it for every request, including each retry.
   */
  headers(request: HttpAuthRequest): Promise<Record<string, string>>;
  /**
   * Handles a 401 or 403 response. Resolves `'retry'` when new credentials (or a new DPoP nonce) are ready: send the
   * same request again with fresh {@link headers}. Resolves `'fail'` when the response is nothing authorization can
   * fix. Rejects with an `AuthError` when authorization was attempted and failed (its `code` says why).
   */
  onUnauthorized(response: Response, request: HttpAuthRequest): Promise<UnauthorizedOutcome>;
  /**
   * Observes every response to a request that carried {@link headers} (any status): picks up `DPoP-Nonce` values and
   * resets the retry bookkeeping after a success. Synchronous and cheap; never throws.
   */
  onResponse(response: Response, request: HttpAuthRequest): void;
}

/**
 * Sends the user (or an automated agent) to the authorization server and returns where it came back: the full
 * redirect URI the authorization server redirected to, with `code`, `state` and `iss` in its query.
 */
export interface AuthorizationUserAgent {
  authorize(url: URL, context: AuthorizationUserAgentContext): Promise<URL>;
}

/** What {@link AuthorizationUserAgent.authorize} knows about the pending authorization. */
export interface AuthorizationUserAgentContext {
  /** The redirect URI the authorization server will send the user back to. */
  readonly redirectUri: string;
  /** The `state` value of this authorization request. */
  readonly state: string;
  /** Aborts the wait. */
  readonly signal?: AbortSignal;
}
