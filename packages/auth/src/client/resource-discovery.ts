/**
 * Protected resource metadata discovery (RFC 9728) as MCP clients do it: the URL from the `WWW-Authenticate`
 * challenge when there is one, else the path-based well-known URL, then the root one. The document must name the
 * server being accessed (same origin, same or parent path) and at least one authorization server.
 */
import { AuthError, describeUrl, describeValue, isAuthError } from '../errors.js';
import { boundedFetch, readJsonObject, type FetchPolicy } from '../http/fetch-policy.js';
import { protectedResourceMetadataUrls, resourceCovers } from '../resource-uri.js';

/** The fields of a protected resource metadata document the client uses. */
export interface ProtectedResourceMetadata {
  readonly resource: string;
  readonly authorization_servers: readonly string[];
  readonly scopes_supported?: readonly string[];
  readonly dpop_signing_alg_values_supported?: readonly string[];
  readonly [key: string]: unknown;
}

/** Options of {@link discoverProtectedResource}. */
export interface DiscoverProtectedResourceOptions {
  /** `resource_metadata` from the server's challenge. */
  readonly resourceMetadataUrl?: string;
  readonly policy?: FetchPolicy;
  readonly signal?: AbortSignal;
  readonly headers?: Record<string, string>;
}

function validate(document: Record<string, unknown>, source: URL, serverUrl: URL): ProtectedResourceMetadata {
  const { resource, authorization_servers: servers, scopes_supported: scopes } = document;
  if (typeof resource !== 'string')
    throw new AuthError('metadata_invalid', `the resource metadata at ${describeUrl(source)} has no resource`);
  if (!resourceCovers(resource, serverUrl)) {
    throw new AuthError(
      'resource_mismatch',
      `the resource metadata at ${describeUrl(source)} is for ${describeValue(resource)}, not for ${describeUrl(serverUrl)}`,
    );
  }
  if (!Array.isArray(servers) || servers.length === 0 || !servers.every((s) => typeof s === 'string' && s.length > 0)) {
    throw new AuthError('metadata_invalid', `the resource metadata at ${describeUrl(source)} lists no authorization server`);
  }
  if (scopes !== undefined && !(Array.isArray(scopes) && scopes.every((s) => typeof s === 'string'))) {
    throw new AuthError('metadata_invalid', `the resource metadata at ${describeUrl(source)} has invalid scopes_supported`);
  }
  return document as ProtectedResourceMetadata;
}

/**
 * Finds the protected resource metadata of `serverUrl`. Resolves `undefined` when no document exists (every URL
 * answered 404 or another non-200), which under the 2025-03-26 revision means "use the server's origin as the
 * authorization server". Rejects with `AuthError('resource_mismatch')` for a document about another resource, and
 * with the fetch error for documents that are too large, too slow, redirect in loops or sit at refused addresses.
 */
export async function discoverProtectedResource(
  serverUrl: URL,
  options: DiscoverProtectedResourceOptions = {},
): Promise<{ metadata: ProtectedResourceMetadata; url: URL } | undefined> {
  const candidates: URL[] = [];
  if (options.resourceMetadataUrl) {
    try {
      candidates.push(new URL(options.resourceMetadataUrl, serverUrl));
    } catch {
      // An unusable challenge URL: fall back to the well-known locations.
    }
  }
  for (const url of protectedResourceMetadataUrls(serverUrl)) {
    if (!candidates.some((c) => c.href === url.href)) candidates.push(url);
  }
  let failure: unknown;
  for (const url of candidates) {
    let response: Response;
    try {
      response = await boundedFetch(
        url,
        { headers: { accept: 'application/json', ...options.headers }, signal: options.signal },
        options.policy,
      );
    } catch (error) {
      if (options.signal?.aborted) throw error;
      // A refused or oversized challenge URL must not stop the well-known fallback; remember the first such error.
      failure ??= error;
      continue;
    }
    if (response.status !== 200) continue;
    return { metadata: validate(await readJsonObject(response, url), url, serverUrl), url };
  }
  if (failure && isAuthError(failure) && failure.code !== 'fetch_failed') throw failure;
  return undefined;
}
