/**
 * From an MCP server URL (and the challenge it sent) to the authorization server to use, for every revision:
 * protected resource metadata first (2025-06-18 and later), then RFC 8414 / OpenID Connect discovery of the chosen
 * issuer; without resource metadata, the 2025-03-26 rules (the server's origin as authorization base URL, its root
 * metadata, else the default `/authorize`, `/token` and `/register` endpoints).
 */
import { discoverAuthorizationServer, type AuthorizationServerMetadata } from '../authorization-server-metadata.js';
import { AuthError, isAuthError } from '../errors.js';
import type { FetchPolicy } from '../http/fetch-policy.js';
import { discoverProtectedResource, type ProtectedResourceMetadata } from './resource-discovery.js';

/** Where and how to obtain tokens for one MCP server. */
export interface ResolvedServer {
  readonly issuer: string;
  readonly as: AuthorizationServerMetadata;
  /** The resource indicator to request (the metadata's `resource`); absent under 2025-03-26 discovery. */
  readonly resource: string | undefined;
  readonly resourceMetadata: ProtectedResourceMetadata | undefined;
  /** True when `as` is the 2025-03-26 default-endpoint fallback. */
  readonly defaultEndpoints: boolean;
}

/** Options of {@link resolveAuthorizationServer}. */
export interface ResolveOptions {
  readonly resourceMetadataUrl?: string;
  readonly policy?: FetchPolicy;
  readonly signal?: AbortSignal;
  /** `MCP-Protocol-Version` to send with discovery requests. */
  readonly protocolVersion?: string;
  /** Fall back to 2025-03-26 discovery when the server has no resource metadata (default true). */
  readonly legacyDiscovery?: boolean;
  /** Chooses among several authorization servers (default: the first). */
  readonly selectAuthorizationServer?: (servers: readonly string[]) => string;
  /** Metadata already fetched for an issuer (refreshed when absent). */
  readonly cache?: Map<string, AuthorizationServerMetadata>;
}

/** Resolves the authorization server for `serverUrl`. */
export async function resolveAuthorizationServer(serverUrl: URL, options: ResolveOptions = {}): Promise<ResolvedServer> {
  const headers: Record<string, string> = options.protocolVersion ? { 'mcp-protocol-version': options.protocolVersion } : {};
  const common = { policy: options.policy, signal: options.signal, headers };
  const found = await discoverProtectedResource(serverUrl, { ...common, resourceMetadataUrl: options.resourceMetadataUrl });
  if (found) {
    const servers = found.metadata.authorization_servers;
    const issuer = options.selectAuthorizationServer ? options.selectAuthorizationServer(servers) : servers[0]!;
    if (!servers.includes(issuer)) throw new AuthError('config_invalid', 'the selected authorization server is not listed by the resource');
    const as = options.cache?.get(issuer) ?? (await discoverAuthorizationServer(issuer, common));
    options.cache?.set(issuer, as);
    return { issuer, as, resource: found.metadata.resource, resourceMetadata: found.metadata, defaultEndpoints: false };
  }
  if (options.legacyDiscovery === false) {
    throw new AuthError('discovery_failed', 'the server publishes no protected resource metadata');
  }
  const issuer = serverUrl.origin;
  try {
    const as = await discoverAuthorizationServer(issuer, common);
    return { issuer, as, resource: undefined, resourceMetadata: undefined, defaultEndpoints: false };
  } catch (error) {
    if (!isAuthError(error) || error.code !== 'discovery_failed') throw error;
  }
  const as: AuthorizationServerMetadata = {
    issuer,
    authorization_endpoint: new URL('/authorize', issuer).href,
    token_endpoint: new URL('/token', issuer).href,
    registration_endpoint: new URL('/register', issuer).href,
  };
  return { issuer, as, resource: undefined, resourceMetadata: undefined, defaultEndpoints: true };
}
