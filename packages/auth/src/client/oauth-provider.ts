/**
 * The OAuth client behind the HTTP transport's {@link HttpAuthProvider} hook: on a 401 it discovers the
 * authorization server (every revision's rules), obtains tokens with its grant, and stores them; it refreshes (with
 * rotation) before expiry and after a 401; it re-registers when the resource names another authorization server;
 * it steps up scopes on 403 `insufficient_scope` a bounded number of times; it answers DPoP nonce challenges.
 */
import * as oauth from 'oauth4webapi';
import type { AuthorizationServerMetadata } from '../authorization-server-metadata.js';
import { discoverAuthorizationServer } from '../authorization-server-metadata.js';
import { generateDpopKey, importDpopKey, type DpopKey } from '../dpop/dpop-key.js';
import { AuthError, isAuthError } from '../errors.js';
import type { FetchPolicy } from '../http/fetch-policy.js';
import { canonicalResourceUri } from '../resource-uri.js';
import { parseWwwAuthenticate, type Challenge } from '../www-authenticate.js';
import { runTokenRequest, type GrantContext, type OAuthGrant } from './grant.js';
import { selectScopes, splitScopes } from './scopes.js';
import { resolveAuthorizationServer, type ResolvedServer } from './server-resolution.js';
import { MemoryAuthStore, type AuthStore, type StoredTokens } from './store.js';
import { authorizationHeaders, NonceMemory, tokensFromResponse } from './token-set.js';
import type { HttpAuthProvider, HttpAuthRequest, UnauthorizedOutcome } from './types.js';

/** Options of {@link McpOAuthProvider}. */
export interface McpOAuthProviderOptions {
  /** The MCP endpoint URL. */
  readonly serverUrl: string | URL;
  /** How tokens are obtained (authorization code, client credentials, JWT bearer, enterprise-managed). */
  readonly grant: OAuthGrant;
  /** Where registrations and tokens are kept (default: in memory). */
  readonly store?: AuthStore;
  /** DPoP: `auto` (default) when the authorization server supports it, `always`, or `never`. */
  readonly dpop?: 'auto' | 'always' | 'never';
  /** The DPoP key to use (default: generated, extractable so it can be stored with the tokens bound to it). */
  readonly dpopKey?: DpopKey;
  /** Limits for every request the client makes (timeouts, sizes, redirects, address policy). */
  readonly fetchPolicy?: FetchPolicy;
  /** Scopes to request instead of the automatic selection. */
  readonly scopes?: readonly string[];
  /** Request `offline_access` when the authorization server lists it (default true; interactive grants only). */
  readonly offlineAccess?: boolean;
  /** Re-authorizations allowed for the same scope set after 403 `insufficient_scope` (default 2). */
  readonly maxStepUpAttempts?: number;
  /** Authorizations allowed without a successful response in between (default 2). */
  readonly maxConsecutiveAuthorizations?: number;
  /** Use 2025-03-26 discovery when the server has no resource metadata (default true). */
  readonly legacyDiscovery?: boolean;
  /** `MCP-Protocol-Version` to send with discovery requests. */
  readonly protocolVersion?: string;
  /** Chooses among several authorization servers (default: the first listed). */
  readonly selectAuthorizationServer?: (servers: readonly string[]) => string;
  /** Refresh this many seconds before expiry (default 30). */
  readonly refreshSkewSeconds?: number;
  /**
   * Told why a token refresh failed (an `AuthError`: the refresh token refused, the client gone, the server
   * unreachable). The provider then goes on as before (a new authorization when the server asks for one); this is
   * where a host says so, instead of the user only seeing a browser open again.
   */
  readonly onRefreshError?: (error: unknown) => void;
  /** Clock in milliseconds since the epoch. */
  readonly now?: () => number;
}

const DPOP_PREFERENCE = ['ES256', 'EdDSA', 'Ed25519', 'ES384', 'PS256', 'RS256'];

/** An {@link HttpAuthProvider} that runs OAuth 2.1 for one MCP server. */
export class McpOAuthProvider implements HttpAuthProvider {
  readonly #options: McpOAuthProviderOptions;
  readonly #serverUrl: URL;
  readonly #serverKey: string;
  readonly #store: AuthStore;
  readonly #now: () => number;
  readonly #asCache = new Map<string, AuthorizationServerMetadata>();
  readonly #nonces = new NonceMemory();
  readonly #stepUps = new Map<string, number>();
  readonly #sentTokens = new WeakMap<HttpAuthRequest, string>();
  #tokens: StoredTokens | undefined | null = null;
  #resolved: ResolvedServer | undefined;
  #dpopKey: DpopKey | undefined;
  #dpopHandle: oauth.DPoPHandle | undefined;
  #authorizations = 0;
  #nonceRetries = 0;
  #refreshedToken: string | undefined;
  #refreshFailureReported: string | undefined;
  #inflight: Promise<void> | undefined;

  constructor(options: McpOAuthProviderOptions) {
    this.#options = options;
    this.#serverUrl = new URL(typeof options.serverUrl === 'string' ? options.serverUrl : options.serverUrl.href);
    this.#serverKey = canonicalResourceUri(this.#serverUrl);
    this.#store = options.store ?? new MemoryAuthStore();
    this.#now = options.now ?? Date.now;
    this.#dpopKey = options.dpopKey;
  }

  async headers(request: HttpAuthRequest): Promise<Record<string, string>> {
    if (this.#inflight) await this.#inflight.catch(() => undefined);
    let tokens = await this.#loadTokens();
    if (!tokens) return {};
    const skew = (this.#options.refreshSkewSeconds ?? 30) * 1000;
    if (tokens.refreshToken && tokens.expiresAt !== undefined && tokens.expiresAt - skew <= this.#now()) {
      const expiring = tokens;
      await this.#exclusive(() => this.#refresh(expiring)).catch((error: unknown) => this.#refreshFailed(expiring, error));
      tokens = await this.#loadTokens();
      if (!tokens) return {};
    }
    this.#sentTokens.set(request, tokens.accessToken);
    return authorizationHeaders(tokens, request, this.#dpopKey, this.#nonces.get(request.url));
  }

  onResponse(response: Response, request: HttpAuthRequest): void {
    this.#nonces.set(request.url, response.headers.get('dpop-nonce'));
    if (response.status >= 200 && response.status < 300) {
      this.#authorizations = 0;
      this.#nonceRetries = 0;
    }
  }

  async onUnauthorized(response: Response, request: HttpAuthRequest): Promise<UnauthorizedOutcome> {
    if (response.status !== 401 && response.status !== 403) return 'fail';
    this.#nonces.set(request.url, response.headers.get('dpop-nonce'));
    const challenges = parseWwwAuthenticate(response.headers.get('www-authenticate')).filter(
      (c) => c.scheme === 'bearer' || c.scheme === 'dpop',
    );
    const challenge = challenges.find((c) => c.params.error !== undefined) ?? challenges[0];
    const error = challenge?.params.error;
    if (response.status === 401 && error === 'use_dpop_nonce') {
      if (!this.#nonces.get(request.url) || this.#nonceRetries >= 2)
        throw new AuthError('retry_limit', 'the server keeps asking for a new DPoP nonce');
      this.#nonceRetries++;
      return 'retry';
    }
    const sent = this.#sentTokens.get(request);
    const current = (await this.#loadTokens())?.accessToken;
    // The request went out with credentials that have been replaced since (another request re-authorized): retry.
    if (sent !== undefined && current !== undefined && sent !== current) return 'retry';
    if (response.status === 403) {
      if (error !== 'insufficient_scope') return 'fail';
      await this.#exclusive(() => this.#stepUp(challenge));
      return 'retry';
    }
    await this.#exclusive(() => this.#reauthorize(challenge));
    return 'retry';
  }

  /** Authorizes now (e.g. a CLI `login` command), without waiting for a 401. */
  async authorize(): Promise<void> {
    await this.#exclusive(() => this.#reauthorize(undefined));
  }

  /** Forgets the tokens of this server (the client registration stays). */
  async clearTokens(): Promise<void> {
    await this.#exclusive(() => this.#dropTokens());
  }

  /** Runs `task` unless one is running, in which case waits for that one instead (one authorization at a time). */
  async #exclusive(task: () => Promise<void>): Promise<void> {
    if (this.#inflight) return this.#inflight;
    const run = task().finally(() => {
      if (this.#inflight === run) this.#inflight = undefined;
    });
    this.#inflight = run;
    return run;
  }

  async #loadTokens(): Promise<StoredTokens | undefined> {
    if (this.#tokens !== null) return this.#tokens;
    let tokens: StoredTokens | undefined;
    try {
      tokens = await this.#store.loadTokens(this.#serverKey);
    } catch (cause) {
      throw new AuthError('storage_failed', 'could not read the stored tokens', { cause });
    }
    if (tokens?.dpopKey && !this.#options.dpopKey) this.#dpopKey = await importDpopKey(tokens.dpopKey).catch(() => undefined);
    this.#tokens = tokens;
    return tokens;
  }

  async #saveTokens(tokens: StoredTokens): Promise<void> {
    this.#tokens = tokens;
    try {
      await this.#store.saveTokens(this.#serverKey, tokens);
    } catch (cause) {
      throw new AuthError('storage_failed', 'could not store the tokens', { cause });
    }
  }

  async #dropTokens(): Promise<void> {
    this.#tokens = undefined;
    this.#refreshedToken = undefined;
    try {
      await this.#store.deleteTokens(this.#serverKey);
    } catch (cause) {
      throw new AuthError('storage_failed', 'could not delete the stored tokens', { cause });
    }
  }

  async #resolve(challenge: Challenge | undefined): Promise<ResolvedServer> {
    const resolved = await resolveAuthorizationServer(this.#serverUrl, {
      resourceMetadataUrl: challenge?.params.resource_metadata,
      policy: this.#options.fetchPolicy,
      protocolVersion: this.#options.protocolVersion,
      legacyDiscovery: this.#options.legacyDiscovery,
      selectAuthorizationServer: this.#options.selectAuthorizationServer,
    });
    this.#asCache.set(resolved.issuer, resolved.as);
    this.#resolved = resolved;
    return resolved;
  }

  async #dpopFor(as: AuthorizationServerMetadata): Promise<oauth.DPoPHandle | undefined> {
    const mode = this.#options.dpop ?? 'auto';
    if (mode === 'never') return undefined;
    const advertised = as.dpop_signing_alg_values_supported?.filter((alg) => alg !== 'none') ?? [];
    if (mode === 'auto' && advertised.length === 0) return undefined;
    if (!this.#dpopKey) {
      const alg = DPOP_PREFERENCE.find((a) => advertised.includes(a)) ?? 'ES256';
      this.#dpopKey = await generateDpopKey(alg, true);
    }
    if (mode === 'auto' && !advertised.includes(this.#dpopKey.alg)) return undefined;
    this.#dpopHandle ??= oauth.DPoP({}, this.#dpopKey.keyPair);
    return this.#dpopHandle;
  }

  async #context(
    resolved: Pick<ResolvedServer, 'issuer' | 'as' | 'resource' | 'defaultEndpoints'>,
    scopes: readonly string[] | undefined,
  ): Promise<GrantContext> {
    return {
      as: resolved.as,
      issuer: resolved.issuer,
      defaultEndpoints: resolved.defaultEndpoints,
      resource: resolved.resource,
      scopes,
      store: this.#store,
      dpop: await this.#dpopFor(resolved.as),
      fetchPolicy: this.#options.fetchPolicy,
      signal: undefined,
    };
  }

  #scopes(resolved: ResolvedServer, challenged: string | undefined, previous: readonly string[] | undefined): string[] | undefined {
    return selectScopes({
      configured: this.#options.scopes,
      challenged,
      resourceScopes: resolved.resourceMetadata?.scopes_supported,
      previous,
      serverScopes: resolved.as.scopes_supported,
      offlineAccess: (this.#options.offlineAccess ?? true) && this.#options.grant.interactive,
    });
  }

  async #acquire(resolved: ResolvedServer, scopes: readonly string[] | undefined): Promise<void> {
    const limit = this.#options.maxConsecutiveAuthorizations ?? 2;
    if (this.#authorizations >= limit) {
      throw new AuthError('retry_limit', 'the server keeps refusing newly obtained credentials; giving up');
    }
    this.#authorizations++;
    const context = await this.#context(resolved, scopes);
    const result = await this.#options.grant.acquire(context);
    const base = { issuer: resolved.issuer, clientId: result.clientId, resource: resolved.resource, scopes, now: this.#now() };
    await this.#saveTokens(await tokensFromResponse(result.response, base, context.dpop ? this.#dpopKey : undefined));
    this.#refreshedToken = undefined;
  }

  async #reauthorize(challenge: Challenge | undefined): Promise<void> {
    const resolved = await this.#resolve(challenge);
    let tokens = await this.#loadTokens();
    if (tokens && tokens.issuer !== resolved.issuer) {
      // The resource moved to another authorization server: nothing from the old one is reused (SEP-2352).
      await this.#dropTokens();
      tokens = undefined;
    }
    if (tokens?.refreshToken && tokens.accessToken !== this.#refreshedToken) {
      try {
        await this.#refresh(tokens);
        return;
      } catch (error) {
        if (!isAuthError(error) || (error.code !== 'token_request_failed' && error.code !== 'config_invalid')) throw error;
        this.#refreshFailed(tokens, error);
        await this.#dropTokens();
      }
    }
    const previous = tokens ? splitScopes(tokens.scope) : undefined;
    await this.#acquire(resolved, this.#scopes(resolved, challenge?.params.scope, previous));
  }

  async #stepUp(challenge: Challenge | undefined): Promise<void> {
    const tokens = await this.#loadTokens();
    const resolved = this.#resolved && tokens?.issuer === this.#resolved.issuer ? this.#resolved : await this.#resolve(challenge);
    const previous = [...(this.#options.scopes ?? []), ...splitScopes(tokens?.scope)];
    const scopes = selectScopes({
      challenged: challenge?.params.scope,
      previous,
      serverScopes: resolved.as.scopes_supported,
      offlineAccess: (this.#options.offlineAccess ?? true) && this.#options.grant.interactive,
    });
    const key = [...(scopes ?? [])].sort().join(' ');
    const attempts = this.#stepUps.get(key) ?? 0;
    if (attempts >= (this.#options.maxStepUpAttempts ?? 2)) {
      throw new AuthError('step_up_limit', 'the server still requires more scopes after re-authorization; giving up', { status: 403 });
    }
    this.#stepUps.set(key, attempts + 1);
    this.#authorizations = 0;
    await this.#acquire(resolved, scopes);
  }

  /** Reports a failed refresh to `onRefreshError`, once per refresh token (a 401 after it tries the same one again). */
  #refreshFailed(tokens: StoredTokens, error: unknown): void {
    if (tokens.refreshToken === this.#refreshFailureReported) return;
    this.#refreshFailureReported = tokens.refreshToken;
    this.#options.onRefreshError?.(error);
  }

  async #refresh(tokens: StoredTokens): Promise<void> {
    if (!tokens.refreshToken) throw new AuthError('token_request_failed', 'no refresh token');
    let as = this.#asCache.get(tokens.issuer);
    if (!as) {
      as = await discoverAuthorizationServer(tokens.issuer, { policy: this.#options.fetchPolicy });
      this.#asCache.set(tokens.issuer, as);
    }
    const scopes = tokens.scope ? splitScopes(tokens.scope) : undefined;
    const context = await this.#context({ issuer: tokens.issuer, as, resource: tokens.resource, defaultEndpoints: false }, scopes);
    const client = await this.#options.grant.refreshClient(context, tokens.clientId);
    if (!client) throw new AuthError('token_request_failed', 'the client the tokens were issued to is not available for a refresh');
    const refreshToken = tokens.refreshToken;
    const extra: Record<string, string> = tokens.resource !== undefined ? { resource: tokens.resource } : {};
    const response = await runTokenRequest(
      'the token refresh',
      context,
      (options) =>
        oauth.refreshTokenGrantRequest(as, client.client, client.auth, refreshToken, { ...options, additionalParameters: extra }),
      (answer) => oauth.processRefreshTokenResponse(as, client.client, answer),
    );
    const base = { issuer: tokens.issuer, clientId: tokens.clientId, resource: tokens.resource, scopes, now: this.#now() };
    const next = await tokensFromResponse(response, base, context.dpop ? this.#dpopKey : undefined, refreshToken);
    await this.#saveTokens(next);
    this.#refreshedToken = next.accessToken;
  }
}
