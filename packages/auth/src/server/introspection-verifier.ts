/**
 * Access-token verification by RFC 7662 token introspection, for opaque tokens: the resource server authenticates
 * to the authorization server's introspection endpoint (through `oauth4webapi`) and accepts the token only when it
 * is active, unexpired, from the expected issuer and for this resource.
 */
import * as oauth from 'oauth4webapi';
import { discoverAuthorizationServer, type AuthorizationServerMetadata } from '../authorization-server-metadata.js';
import { AuthError, isAuthError } from '../errors.js';
import type { FetchPolicy } from '../http/fetch-policy.js';
import { chooseAuthMethod, clientAuthFor, mapOAuthError, oauthRequestOptions, type ClientCredentials } from '../oauth-shared.js';
import { principalFromClaims, type Principal } from './principal.js';
import type { TokenVerificationContext, TokenVerifier } from './token-verifier.js';
import { MAX_TOKEN_LENGTH } from './jwt-verifier.js';

/** Options of {@link IntrospectionTokenVerifier}. */
export interface IntrospectionTokenVerifierOptions {
  /** The authorization server's issuer identifier. */
  readonly issuer: string;
  /** The introspection endpoint; discovered from the issuer's metadata when absent. */
  readonly introspectionEndpoint?: string;
  /** The resource server's own client credentials at the authorization server. */
  readonly client: ClientCredentials;
  /** Accepted audiences. Default: the canonical resource URI of the request. */
  readonly audience?: string | readonly string[];
  /** Refuse responses without `aud` (default true: the audience must be checked, MCP authorization §Token Handling). */
  readonly requireAudience?: boolean;
  /** Clock tolerance for `exp`/`nbf`, in seconds (default 30). */
  readonly clockToleranceSeconds?: number;
  /** Policy for the introspection and metadata requests. */
  readonly fetchPolicy?: FetchPolicy;
}

/** Verifies tokens through the authorization server's introspection endpoint. */
export class IntrospectionTokenVerifier implements TokenVerifier {
  readonly #options: IntrospectionTokenVerifierOptions;
  #metadata: Promise<AuthorizationServerMetadata> | undefined;

  constructor(options: IntrospectionTokenVerifierOptions) {
    this.#options = options;
  }

  #server(): Promise<AuthorizationServerMetadata> {
    if (!this.#metadata) {
      const { issuer, introspectionEndpoint } = this.#options;
      this.#metadata = introspectionEndpoint
        ? Promise.resolve({ issuer, introspection_endpoint: introspectionEndpoint })
        : discoverAuthorizationServer(issuer, { policy: this.#options.fetchPolicy });
      this.#metadata.catch(() => (this.#metadata = undefined));
    }
    return this.#metadata;
  }

  async verify(token: string, context: TokenVerificationContext): Promise<Principal> {
    if (token.length > MAX_TOKEN_LENGTH) throw new AuthError('invalid_token', 'the access token is too long');
    let claims: oauth.IntrospectionResponse;
    try {
      const as = await this.#server();
      const credentials = this.#options.client;
      const method = chooseAuthMethod(credentials, as.token_endpoint_auth_methods_supported);
      const client: oauth.Client = { client_id: credentials.clientId };
      const response = await oauth.introspectionRequest(as, client, clientAuthFor(credentials, method), token, {
        ...oauthRequestOptions(this.#options.fetchPolicy),
        additionalParameters: { token_type_hint: 'access_token' },
      });
      claims = await oauth.processIntrospectionResponse(as, client, response);
    } catch (cause) {
      const error = isAuthError(cause) ? cause : mapOAuthError(cause, 'verifier_unavailable', 'token introspection');
      throw error.code === 'config_invalid' ? error : new AuthError('verifier_unavailable', error.message, { cause });
    }
    return this.#judge(claims as Record<string, unknown>, context);
  }

  #judge(claims: Record<string, unknown>, context: TokenVerificationContext): Principal {
    if (claims.active !== true) throw new AuthError('invalid_token', 'the access token is not active');
    const now = Math.floor(context.now / 1000);
    const tolerance = this.#options.clockToleranceSeconds ?? 30;
    if (typeof claims.exp === 'number' && claims.exp + tolerance <= now)
      throw new AuthError('invalid_token', 'the access token has expired');
    if (typeof claims.nbf === 'number' && claims.nbf - tolerance > now)
      throw new AuthError('invalid_token', 'the access token is not valid yet');
    if (claims.iss !== undefined && claims.iss !== this.#options.issuer)
      throw new AuthError('invalid_token', 'the access token is from another issuer');
    const expected = this.#options.audience ?? context.resource;
    const accepted = typeof expected === 'string' ? [expected] : expected;
    const aud = claims.aud;
    const audiences = typeof aud === 'string' ? [aud] : Array.isArray(aud) ? aud : [];
    if (audiences.length === 0 && (this.#options.requireAudience ?? true)) {
      throw new AuthError('invalid_token', 'the introspection response names no audience');
    }
    if (audiences.length > 0 && !audiences.some((a) => accepted.includes(a as string))) {
      throw new AuthError('invalid_token', 'the access token is not for this resource');
    }
    return principalFromClaims({ iss: this.#options.issuer, ...claims });
  }
}
