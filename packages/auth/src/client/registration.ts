/**
 * Obtaining a client identifier at an authorization server, in the MCP priority order: pre-registered credentials,
 * a Client ID Metadata Document URL when the server supports it, stored dynamic registration for this issuer, then
 * Dynamic Client Registration (RFC 7591, with `application_type`). Registrations are bound to the issuer: a
 * registration from one authorization server is never presented to another.
 */
import * as oauth from 'oauth4webapi';
import { AuthError, describeValue, isAuthError } from '../errors.js';
import { classifyHost } from '../http/address.js';
import { mapOAuthError, oauthRequestOptions, type TokenEndpointAuthMethod } from '../oauth-shared.js';
import type { GrantContext } from './grant.js';
import type { StoredClient } from './store.js';

/** Credentials registered out of band. */
export interface PreRegisteredClient {
  readonly clientId: string;
  readonly clientSecret?: string;
  readonly tokenEndpointAuthMethod?: TokenEndpointAuthMethod;
  /**
   * The issuer they belong to. When absent they are bound to the first authorization server they are used with,
   * and refused (with an error) for any other.
   */
  readonly issuer?: string;
}

/** How this client registers. */
export interface RegistrationOptions {
  /** The redirect URI of this authorization (loopback or https). */
  readonly redirectUri: string;
  readonly preRegistered?: PreRegisteredClient;
  /** An https URL serving this client's Client ID Metadata Document; used where the server supports CIMD. */
  readonly clientMetadataUrl?: string;
  /** `client_name` for dynamic registration. */
  readonly clientName: string;
  /** `native` (desktop, CLI, loopback redirects) or `web`; default derived from the redirect URI. */
  readonly applicationType?: 'native' | 'web';
  /** Further RFC 7591 metadata (`client_uri`, `logo_uri`, `software_id`, `software_version`…). */
  readonly clientMetadata?: Readonly<Record<string, string | readonly string[]>>;
  /** Ask for the refresh_token grant (SEP-2207). Default true. */
  readonly refreshTokens?: boolean;
}

function applicationTypeFor(redirectUri: string): 'native' | 'web' {
  try {
    const url = new URL(redirectUri);
    return url.protocol === 'https:' && classifyHost(url.hostname) !== 'loopback' ? 'web' : 'native';
  } catch {
    return 'native';
  }
}

function dcrAuthMethod(supported: readonly string[] | undefined): TokenEndpointAuthMethod {
  if (!supported || supported.includes('none')) return 'none';
  if (supported.includes('client_secret_basic')) return 'client_secret_basic';
  if (supported.includes('client_secret_post')) return 'client_secret_post';
  return 'none';
}

/**
 * Reads a registration response (RFC 7591 §3.2): 201 (200 tolerated) with a `client_id`. Deliberately lenient about
 * optional members (some servers omit `client_secret_expires_at` next to a secret); errors become `AuthError`s with
 * the server's OAuth error code.
 */
async function parseRegistrationResponse(response: Response): Promise<Record<string, unknown>> {
  let body: unknown;
  try {
    body = JSON.parse(await response.text());
  } catch {
    body = undefined;
  }
  const object = typeof body === 'object' && body !== null && !Array.isArray(body) ? (body as Record<string, unknown>) : undefined;
  if (response.status !== 201 && response.status !== 200) {
    const error = typeof object?.error === 'string' ? object.error : undefined;
    const description = typeof object?.error_description === 'string' ? `: ${describeValue(object.error_description, 120)}` : '';
    throw new AuthError(
      'registration_failed',
      `dynamic client registration was refused (HTTP ${response.status}${error ? `, ${describeValue(error, 40)}` : ''})${description}`,
      {
        status: response.status,
        ...(error ? { oauthError: error } : {}),
      },
    );
  }
  if (!object || typeof object.client_id !== 'string' || object.client_id.length === 0) {
    throw new AuthError('registration_failed', 'the registration response has no client_id');
  }
  return object;
}

const AUTH_METHODS = new Set(['none', 'client_secret_basic', 'client_secret_post', 'private_key_jwt']);

/**
 * Resolves the client to use at `context.issuer`, registering when needed (or, with `register: false`, resolving
 * `undefined` instead of registering).
 */
export async function resolveClient(
  context: GrantContext,
  options: RegistrationOptions,
  boundIssuer: { value?: string },
): Promise<StoredClient>;
export async function resolveClient(
  context: GrantContext,
  options: RegistrationOptions,
  boundIssuer: { value?: string },
  register: false,
): Promise<StoredClient | undefined>;
export async function resolveClient(
  context: GrantContext,
  options: RegistrationOptions,
  boundIssuer: { value?: string },
  register = true,
): Promise<StoredClient | undefined> {
  const { issuer, as, store } = context;
  const pre = options.preRegistered;
  if (pre) {
    const owner = pre.issuer ?? boundIssuer.value;
    if (owner !== undefined && owner !== issuer) {
      throw new AuthError(
        'registration_failed',
        `the pre-registered client belongs to ${describeValue(owner)}, but the server now uses ${describeValue(issuer)}; register with the new authorization server`,
      );
    }
    boundIssuer.value = issuer;
    const method =
      pre.tokenEndpointAuthMethod ??
      (pre.clientSecret
        ? as.token_endpoint_auth_methods_supported?.includes('client_secret_basic') === false &&
          as.token_endpoint_auth_methods_supported.includes('client_secret_post')
          ? 'client_secret_post'
          : 'client_secret_basic'
        : 'none');
    return { clientId: pre.clientId, clientSecret: pre.clientSecret, tokenEndpointAuthMethod: method, kind: 'pre-registered' };
  }
  if (options.clientMetadataUrl && as.client_id_metadata_document_supported === true) {
    return {
      clientId: options.clientMetadataUrl,
      tokenEndpointAuthMethod: 'none',
      redirectUris: [options.redirectUri],
      kind: 'metadata-document',
    };
  }
  let stored: StoredClient | undefined;
  try {
    stored = await store.loadClient(issuer);
  } catch (cause) {
    throw new AuthError('storage_failed', 'could not read the stored client registration', { cause });
  }
  const now = Date.now();
  // A refresh (register false) needs only the client the tokens were issued to, whatever redirect URI it was
  // registered with: a CLI's loopback redirect takes a new port on every run (RFC 8252 §7.3).
  if (
    stored &&
    stored.kind === 'dynamic' &&
    (!register || (stored.redirectUris ?? []).includes(options.redirectUri)) &&
    !(stored.clientSecretExpiresAt && stored.clientSecretExpiresAt <= now)
  ) {
    return stored;
  }
  if (!register) return undefined;
  if (!as.registration_endpoint) {
    throw new AuthError(
      'registration_failed',
      'the authorization server supports neither Client ID Metadata Documents (for this client) nor dynamic registration; configure a pre-registered client',
    );
  }
  const method = dcrAuthMethod(as.token_endpoint_auth_methods_supported);
  const grantTypes = options.refreshTokens === false ? ['authorization_code'] : ['authorization_code', 'refresh_token'];
  const metadata: Record<string, unknown> = {
    ...options.clientMetadata,
    client_name: options.clientName,
    redirect_uris: [options.redirectUri],
    grant_types: grantTypes,
    response_types: ['code'],
    token_endpoint_auth_method: method,
    application_type: options.applicationType ?? applicationTypeFor(options.redirectUri),
  };
  let registered: Record<string, unknown>;
  try {
    const response = await oauth.dynamicClientRegistrationRequest(as, metadata as Partial<oauth.Client>, {
      ...oauthRequestOptions(context.fetchPolicy),
      ...(context.signal ? { signal: context.signal } : {}),
    });
    registered = await parseRegistrationResponse(response);
  } catch (error) {
    throw isAuthError(error) ? error : mapOAuthError(error, 'registration_failed', 'dynamic client registration');
  }
  const returnedMethod =
    typeof registered.token_endpoint_auth_method === 'string' && AUTH_METHODS.has(registered.token_endpoint_auth_method);
  const secret = typeof registered.client_secret === 'string' && registered.client_secret.length > 0 ? registered.client_secret : undefined;
  const finalMethod = (returnedMethod ? registered.token_endpoint_auth_method : method) as TokenEndpointAuthMethod;
  const clientId = registered.client_id as string;
  const expires =
    typeof registered.client_secret_expires_at === 'number' && registered.client_secret_expires_at > 0
      ? registered.client_secret_expires_at * 1000
      : undefined;
  const client: StoredClient = {
    clientId,
    ...(secret && finalMethod !== 'none' ? { clientSecret: secret } : {}),
    ...(expires ? { clientSecretExpiresAt: expires } : {}),
    tokenEndpointAuthMethod: secret || finalMethod === 'none' ? finalMethod : 'none',
    redirectUris: [options.redirectUri],
    kind: 'dynamic',
  };
  try {
    await store.saveClient(issuer, client);
  } catch (cause) {
    throw new AuthError('storage_failed', 'could not store the client registration', { cause });
  }
  return client;
}
