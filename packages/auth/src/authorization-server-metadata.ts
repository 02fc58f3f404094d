/**
 * Authorization server metadata discovery (RFC 8414 and OpenID Connect Discovery 1.0) as MCP requires it: every
 * well-known URL in the revision's order, each document bounded by the fetch policy, and the document's `issuer`
 * compared with the expected issuer by exact string comparison (RFC 8414 §3.3) before anything in it is used.
 */
import type { AuthorizationServer } from 'oauth4webapi';
import { AuthError, describeUrl, describeValue, isAuthError } from './errors.js';
import { boundedFetch, readJsonObject, type FetchPolicy } from './http/fetch-policy.js';
import { authorizationServerMetadataUrls } from './resource-uri.js';

/**
 * Authorization server metadata (RFC 8414 / OpenID Connect Discovery), as `oauth4webapi` types it, plus the MCP
 * `client_id_metadata_document_supported` flag.
 */
export type AuthorizationServerMetadata = AuthorizationServer & {
  readonly client_id_metadata_document_supported?: boolean;
};

const URL_FIELDS = [
  'authorization_endpoint',
  'token_endpoint',
  'registration_endpoint',
  'jwks_uri',
  'introspection_endpoint',
  'revocation_endpoint',
];
const LIST_FIELDS = [
  'scopes_supported',
  'response_types_supported',
  'grant_types_supported',
  'token_endpoint_auth_methods_supported',
  'token_endpoint_auth_signing_alg_values_supported',
  'code_challenge_methods_supported',
  'dpop_signing_alg_values_supported',
];
const FLAG_FIELDS = ['authorization_response_iss_parameter_supported', 'client_id_metadata_document_supported'];

/**
 * Checks the shape of a metadata document: endpoint fields are absolute http(s) URLs, list fields are arrays of
 * strings, flags are booleans. Throws `AuthError('metadata_invalid')` naming the first bad field.
 */
export function validateAuthorizationServerMetadata(document: Record<string, unknown>, source: URL | string): AuthorizationServerMetadata {
  if (typeof document.issuer !== 'string' || document.issuer.length === 0) {
    throw new AuthError('metadata_invalid', `the metadata at ${describeUrl(source)} has no issuer`);
  }
  for (const field of URL_FIELDS) {
    const value = document[field];
    if (value === undefined) continue;
    let ok = false;
    try {
      ok = typeof value === 'string' && ['https:', 'http:'].includes(new URL(value).protocol);
    } catch {
      ok = false;
    }
    if (!ok) throw new AuthError('metadata_invalid', `the metadata at ${describeUrl(source)} has an invalid ${field}`);
  }
  for (const field of LIST_FIELDS) {
    const value = document[field];
    if (value !== undefined && !(Array.isArray(value) && value.every((v) => typeof v === 'string'))) {
      throw new AuthError('metadata_invalid', `the metadata at ${describeUrl(source)} has an invalid ${field}`);
    }
  }
  for (const field of FLAG_FIELDS) {
    const value = document[field];
    if (value !== undefined && typeof value !== 'boolean') {
      throw new AuthError('metadata_invalid', `the metadata at ${describeUrl(source)} has an invalid ${field}`);
    }
  }
  return document as AuthorizationServerMetadata;
}

/** Options of {@link discoverAuthorizationServer}. */
export interface DiscoverAuthorizationServerOptions {
  readonly policy?: FetchPolicy;
  readonly signal?: AbortSignal;
  /** Extra request headers (e.g. `MCP-Protocol-Version`, which 2025-03-26 asks clients to send). */
  readonly headers?: Record<string, string>;
  /** Override the URLs tried (default: {@link authorizationServerMetadataUrls} of the issuer). */
  readonly urls?: readonly URL[];
}

const DECISIVE = new Set(['issuer_mismatch', 'metadata_invalid', 'response_too_large', 'too_many_redirects', 'fetch_timeout']);

/**
 * Fetches and validates the metadata of the authorization server `issuer` (the exact string a protected resource
 * metadata document listed). Resolves with the first document found whose `issuer` is identical to `issuer`.
 * Rejects with `AuthError('issuer_mismatch')` when only documents naming another issuer were found, with the
 * specific error when a document was too large, malformed, slow or redirected in a loop, and with
 * `AuthError('discovery_failed')` when no URL had a document.
 */
export async function discoverAuthorizationServer(
  issuer: string,
  options: DiscoverAuthorizationServerOptions = {},
): Promise<AuthorizationServerMetadata> {
  let urls: readonly URL[];
  try {
    urls = options.urls ?? authorizationServerMetadataUrls(issuer);
  } catch (cause) {
    throw new AuthError('discovery_failed', `the authorization server identifier ${describeValue(issuer)} is not a URL`, { cause });
  }
  let decisive: AuthError | undefined;
  let last: unknown;
  for (const url of urls) {
    try {
      const response = await boundedFetch(
        url,
        { headers: { accept: 'application/json', ...options.headers }, signal: options.signal },
        options.policy,
      );
      if (response.status !== 200) {
        last = new AuthError('discovery_failed', `${describeUrl(url)} answered ${response.status}`, { status: response.status });
        continue;
      }
      const metadata = validateAuthorizationServerMetadata(await readJsonObject(response, url), url);
      if (metadata.issuer !== issuer) {
        throw new AuthError(
          'issuer_mismatch',
          `the metadata at ${describeUrl(url)} names issuer ${describeValue(metadata.issuer)}, not ${describeValue(issuer)}`,
        );
      }
      return metadata;
    } catch (error) {
      if (options.signal?.aborted) throw error;
      if (isAuthError(error) && (error.code === 'address_refused' || error.code === 'insecure_url')) throw error;
      if (isAuthError(error) && DECISIVE.has(error.code)) decisive ??= error;
      last = error;
    }
  }
  if (decisive) throw decisive;
  throw new AuthError('discovery_failed', `no authorization server metadata found for ${describeValue(issuer)}`, { cause: last });
}
