/**
 * RFC 9728 protected resource metadata for an MCP server: the document, and a handler answering its well-known URLs
 * (path-based and, optionally, root) so the HTTP transport can route to it before authentication.
 */
import { canonicalResourceUri, protectedResourceMetadataUrls } from '../resource-uri.js';

/** What the metadata document says. */
export interface ProtectedResourceMetadataOptions {
  /** The canonical URI of the MCP endpoint (e.g. `https://mcp.example.com/mcp`). */
  readonly resource: string;
  /** Issuer identifiers of the authorization servers (at least one). */
  readonly authorizationServers: readonly string[];
  /** Scopes a client needs for basic use (not `offline_access`). */
  readonly scopesSupported?: readonly string[];
  /** Human-readable name of the resource. */
  readonly resourceName?: string;
  /** URL of human-readable documentation. */
  readonly resourceDocumentation?: string;
  /** DPoP proof algorithms accepted (advertises DPoP support). */
  readonly dpopSigningAlgValuesSupported?: readonly string[];
  /** True when only DPoP-bound tokens are accepted. */
  readonly dpopBoundAccessTokensRequired?: boolean;
  /** Also answer at the root well-known URL (default true; MCP clients fall back to it). */
  readonly serveAtRoot?: boolean;
  /** Further members to include. */
  readonly extra?: Readonly<Record<string, unknown>>;
}

/** The RFC 9728 document as a JSON object. */
export function protectedResourceMetadataDocument(options: ProtectedResourceMetadataOptions): Record<string, unknown> {
  if (options.authorizationServers.length === 0) throw new TypeError('at least one authorization server is required');
  const document: Record<string, unknown> = {
    ...options.extra,
    resource: canonicalResourceUri(options.resource),
    authorization_servers: [...options.authorizationServers],
    bearer_methods_supported: ['header'],
  };
  if (options.scopesSupported) document.scopes_supported = [...options.scopesSupported];
  if (options.resourceName) document.resource_name = options.resourceName;
  if (options.resourceDocumentation) document.resource_documentation = options.resourceDocumentation;
  if (options.dpopSigningAlgValuesSupported) document.dpop_signing_alg_values_supported = [...options.dpopSigningAlgValuesSupported];
  if (options.dpopBoundAccessTokensRequired !== undefined)
    document.dpop_bound_access_tokens_required = options.dpopBoundAccessTokensRequired;
  return document;
}

/** The URL a 401 challenge names in `resource_metadata`: the path-based well-known URL of the resource. */
export function resourceMetadataUrl(resource: string): string {
  return protectedResourceMetadataUrls(canonicalResourceUri(resource))[0]!.href;
}

/**
 * A request handler for the metadata: resolves with the response for a GET/HEAD (200, JSON, cacheable, CORS-open)
 * or OPTIONS (204 preflight) to one of the well-known paths, 405 for other methods there, and `undefined` for any
 * other path, which the caller routes on.
 */
export function createProtectedResourceMetadataHandler(
  options: ProtectedResourceMetadataOptions,
): (request: Request) => Response | undefined {
  const body = JSON.stringify(protectedResourceMetadataDocument(options));
  const urls = protectedResourceMetadataUrls(canonicalResourceUri(options.resource));
  const paths = new Set(((options.serveAtRoot ?? true) ? urls : urls.slice(0, 1)).map((url) => url.pathname));
  const cors = { 'access-control-allow-origin': '*', 'access-control-allow-methods': 'GET, HEAD, OPTIONS' };
  return (request) => {
    const path = new URL(request.url).pathname;
    if (!paths.has(path)) return undefined;
    if (request.method === 'OPTIONS') return new Response(null, { status: 204, headers: { ...cors, 'access-control-max-age': '86400' } });
    if (request.method !== 'GET' && request.method !== 'HEAD')
      return new Response(null, { status: 405, headers: { allow: 'GET, HEAD, OPTIONS' } });
    const headers = { ...cors, 'content-type': 'application/json', 'cache-control': 'public, max-age=3600' };
    return new Response(request.method === 'HEAD' ? null : body, { status: 200, headers });
  };
}
