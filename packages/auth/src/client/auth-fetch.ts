/**
 * The reference loop around an {@link HttpAuthProvider}, as a `fetch`-like function: headers per attempt, every
 * response observed, 401/403 handed to the provider, the same request re-sent after `'retry'` a bounded number of
 * times. An HTTP transport may use it as its fetch, or follow the same steps itself.
 */
import type { HttpAuthProvider, HttpAuthRequest } from './types.js';

/** Options of {@link createAuthFetch}. */
export interface AuthFetchOptions {
  /** Underlying fetch (default: the global one). */
  readonly fetch?: typeof globalThis.fetch;
  /** Most re-sends of one request (default 4: a nonce, an authorization, a step-up, another nonce). */
  readonly maxRetries?: number;
}

/**
 * Wraps `fetch` with authorization. Bodies must be replayable (string, bytes, `URLSearchParams`), since a request may
 * be sent more than once. Rejects with the provider's `AuthError` when authorization fails.
 */
export function createAuthFetch(
  provider: HttpAuthProvider,
  options: AuthFetchOptions = {},
): (input: string | URL, init?: RequestInit) => Promise<Response> {
  const fetchImpl = options.fetch ?? globalThis.fetch;
  const maxRetries = options.maxRetries ?? 4;
  return async (input, init = {}) => {
    const request: HttpAuthRequest = {
      method: (init.method ?? 'GET').toUpperCase(),
      url: new URL(typeof input === 'string' ? input : input.href),
    };
    for (let attempt = 0; ; attempt++) {
      const headers = new Headers(init.headers);
      for (const [name, value] of Object.entries(await provider.headers(request))) headers.set(name, value);
      const response = await fetchImpl(request.url, { ...init, headers });
      provider.onResponse(response, request);
      if ((response.status !== 401 && response.status !== 403) || attempt >= maxRetries) return response;
      const outcome = await provider.onUnauthorized(response, request);
      if (outcome !== 'retry') return response;
      await response.body?.cancel().catch(() => undefined);
    }
  };
}
