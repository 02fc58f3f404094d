/**
 * A user agent without a user: it follows the authorization server's redirects itself (keeping cookies, like a
 * browser would) until one points at the redirect URI. It completes authorization only where the server needs no
 * interaction (test servers, conformance mocks, policies that auto-approve); anything else ends in a clear error.
 */
import { AuthError, describeUrl } from '../errors.js';
import { boundedFetch, type FetchPolicy } from '../http/fetch-policy.js';
import type { AuthorizationUserAgent } from './types.js';

/** Options of {@link automaticUserAgent}. */
export interface AutomaticUserAgentOptions {
  /** Most redirects followed (default 10). */
  readonly maxRedirects?: number;
  /** Policy for each request (the redirect chain is followed by hand, one hop per request). */
  readonly fetchPolicy?: FetchPolicy;
}

function sameEndpoint(a: URL, b: URL): boolean {
  return a.origin === b.origin && a.pathname === b.pathname;
}

/** Creates an {@link AuthorizationUserAgent} that follows redirects until it reaches the redirect URI. */
export function automaticUserAgent(options: AutomaticUserAgentOptions = {}): AuthorizationUserAgent {
  return {
    async authorize(url, context) {
      const target = new URL(context.redirectUri);
      const cookies = new Map<string, Map<string, string>>();
      let current = url;
      for (let hop = 0; hop <= (options.maxRedirects ?? 10); hop++) {
        const jar = cookies.get(current.host);
        const headers: Record<string, string> = jar && jar.size > 0 ? { cookie: [...jar].map(([k, v]) => `${k}=${v}`).join('; ') } : {};
        const response = await boundedFetch(
          current,
          { headers, followRedirects: false, ...(context.signal ? { signal: context.signal } : {}) },
          options.fetchPolicy,
        );
        for (const line of response.headers.getSetCookie?.() ?? []) {
          const pair = /^([^=;\s]+)=([^;]*)/.exec(line);
          if (!pair) continue;
          const hostJar = cookies.get(current.host) ?? new Map<string, string>();
          hostJar.set(pair[1]!, pair[2]!);
          cookies.set(current.host, hostJar);
        }
        const location = response.headers.get('location');
        if (response.status < 300 || response.status > 399 || location === null) {
          throw new AuthError(
            'authorization_failed',
            `the authorization stopped at ${describeUrl(current)} (HTTP ${response.status}) and needs a person`,
          );
        }
        const next = new URL(location, current);
        if (sameEndpoint(next, target)) return next;
        current = next;
      }
      throw new AuthError('too_many_redirects', 'the authorization server redirected too often');
    },
  };
}
