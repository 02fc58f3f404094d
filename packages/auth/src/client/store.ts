/**
 * Where the OAuth client keeps what it obtained: client registrations (keyed by the authorization server's issuer,
 * so credentials are never reused with another authorization server) and tokens (keyed by the MCP server, and
 * labelled with the issuer that minted them). Implement {@link AuthStore} over a keychain or a database; a file
 * store for CLIs is in `@wiremcp/auth/node`.
 */
import type { JWK } from 'jose';
import type { TokenEndpointAuthMethod } from '../oauth-shared.js';

/** How a client identifier was obtained. */
export type RegistrationKind = 'pre-registered' | 'dynamic' | 'metadata-document';

/** A client registration at one authorization server. */
export interface StoredClient {
  readonly clientId: string;
  readonly clientSecret?: string;
  /** When the secret expires (ms since the epoch); absent when it does not. */
  readonly clientSecretExpiresAt?: number;
  readonly tokenEndpointAuthMethod: TokenEndpointAuthMethod;
  /** Redirect URIs registered with it. */
  readonly redirectUris?: readonly string[];
  readonly kind: RegistrationKind;
}

/** Tokens for one MCP server. */
export interface StoredTokens {
  /** The issuer that minted them (exact string from the protected resource metadata). */
  readonly issuer: string;
  /** The client they were issued to. */
  readonly clientId: string;
  /** The resource indicator they were requested for (absent under 2025-03-26 discovery). */
  readonly resource?: string;
  readonly accessToken: string;
  /** `bearer`, or `dpop` for a DPoP-bound token. */
  readonly tokenType: 'bearer' | 'dpop';
  readonly refreshToken?: string;
  /** Expiry of the access token (ms since the epoch), when the server said. */
  readonly expiresAt?: number;
  /** The scopes requested (space-separated): the base for later step-up unions. */
  readonly scope?: string;
  /** The private DPoP key the tokens are bound to (JWK with `alg`), for DPoP-bound tokens that outlive the process. */
  readonly dpopKey?: JWK;
}

/** Persistence for the OAuth client. Every method may reject; errors surface as `AuthError('storage_failed')`. */
export interface AuthStore {
  loadClient(issuer: string): Promise<StoredClient | undefined>;
  saveClient(issuer: string, client: StoredClient): Promise<void>;
  deleteClient(issuer: string): Promise<void>;
  /** `server` is the canonical URI of the MCP endpoint. */
  loadTokens(server: string): Promise<StoredTokens | undefined>;
  saveTokens(server: string, tokens: StoredTokens): Promise<void>;
  deleteTokens(server: string): Promise<void>;
}

/** An {@link AuthStore} in memory (the default): nothing outlives the process. */
export class MemoryAuthStore implements AuthStore {
  readonly #clients = new Map<string, StoredClient>();
  readonly #tokens = new Map<string, StoredTokens>();

  loadClient(issuer: string): Promise<StoredClient | undefined> {
    return Promise.resolve(this.#clients.get(issuer));
  }
  saveClient(issuer: string, client: StoredClient): Promise<void> {
    this.#clients.set(issuer, client);
    return Promise.resolve();
  }
  deleteClient(issuer: string): Promise<void> {
    this.#clients.delete(issuer);
    return Promise.resolve();
  }
  loadTokens(server: string): Promise<StoredTokens | undefined> {
    return Promise.resolve(this.#tokens.get(server));
  }
  saveTokens(server: string, tokens: StoredTokens): Promise<void> {
    this.#tokens.set(server, tokens);
    return Promise.resolve();
  }
  deleteTokens(server: string): Promise<void> {
    this.#tokens.delete(server);
    return Promise.resolve();
  }
}
