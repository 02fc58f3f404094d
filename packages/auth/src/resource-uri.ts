/**
 * Canonical resource identifiers (RFC 8707 §2, RFC 9728 §1.2) and the comparisons MCP needs: which URI names an MCP
 * server, and whether a protected resource metadata document speaks for the server being accessed.
 */
import { AuthError, describeUrl } from './errors.js';

/**
 * The canonical URI of a resource: absolute http(s), lower-case scheme and host (the URL parser does that), default
 * port dropped, no fragment, and no lone trailing `/` (`https://mcp.example.com`, not `https://mcp.example.com/`).
 * The path is kept as written. Throws `AuthError('config_invalid')` for anything that is not an http(s) URL.
 */
export function canonicalResourceUri(input: string | URL): string {
  let url: URL;
  try {
    url = new URL(typeof input === 'string' ? input : input.href);
  } catch (cause) {
    throw new AuthError('config_invalid', 'a resource URI must be an absolute URL', { cause });
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') {
    throw new AuthError('config_invalid', `a resource URI must be http or https: ${describeUrl(url)}`);
  }
  url.hash = '';
  const text = url.href;
  return url.pathname === '/' && url.search === '' ? text.slice(0, -1) : text;
}

/**
 * True when the resource named by a protected resource metadata document (`prmResource`) covers `serverUrl`: same
 * origin, and its path is the server's path or a parent of it on a segment boundary. This accepts both a path-based
 * document (`https://h/mcp` for `https://h/mcp`) and a root one (`https://h` for `https://h/mcp`), and refuses any
 * other host, scheme or port.
 */
export function resourceCovers(prmResource: string, serverUrl: string | URL): boolean {
  let resource: URL;
  let server: URL;
  try {
    resource = new URL(prmResource);
    server = new URL(typeof serverUrl === 'string' ? serverUrl : serverUrl.href);
  } catch {
    return false;
  }
  if (resource.hash !== '' || resource.origin !== server.origin) return false;
  const base = resource.pathname.endsWith('/') ? resource.pathname : `${resource.pathname}/`;
  const path = server.pathname.endsWith('/') ? server.pathname : `${server.pathname}/`;
  return path.startsWith(base);
}

/**
 * RFC 9728 §3.1 well-known URLs of a resource's metadata, in the order MCP clients try them: the path-based one
 * (`/.well-known/oauth-protected-resource/<path>`) when the resource has a path, then the root one.
 */
export function protectedResourceMetadataUrls(resource: string | URL): URL[] {
  const url = new URL(typeof resource === 'string' ? resource : resource.href);
  const root = new URL('/.well-known/oauth-protected-resource', url.origin);
  const path = url.pathname.replace(/\/+$/, '');
  if (path === '' && url.search === '') return [root];
  const pathBased = new URL(`/.well-known/oauth-protected-resource${path}`, url.origin);
  pathBased.search = url.search;
  return [pathBased, root];
}

/**
 * RFC 8414 / OpenID Connect Discovery URLs for an issuer, in the order of the MCP 2025-11-25 and 2026-07-28
 * revisions: for an issuer with a path, OAuth path insertion, OIDC path insertion, OIDC path appending; for one
 * without, OAuth then OIDC. (2025-06-18 required only the first; trying the rest is a compatible superset.)
 */
export function authorizationServerMetadataUrls(issuer: string): URL[] {
  const url = new URL(issuer);
  const path = url.pathname.replace(/\/+$/, '');
  if (path === '') {
    return [new URL('/.well-known/oauth-authorization-server', url.origin), new URL('/.well-known/openid-configuration', url.origin)];
  }
  return [
    new URL(`/.well-known/oauth-authorization-server${path}`, url.origin),
    new URL(`/.well-known/openid-configuration${path}`, url.origin),
    new URL(`${path}/.well-known/openid-configuration`, url.origin),
  ];
}
