/**
 * One HTTP request, as every exchange of the client transports makes it: the caller's headers, then the auth
 * hook's, then the protocol's own; every response shown to the hook; 401/403 handed to it and the same body sent
 * again on `'retry'`, a bounded number of times. Network failures become `LocalError`s.
 */
import { LocalError } from '@wiremcp/protocol';
import type { HttpAuthRequest, ResolvedHttpOptions } from './options.js';

/** Sends requests to one URL with the transport's settings. */
export class HttpRequester {
  readonly #options: ResolvedHttpOptions;

  constructor(options: ResolvedHttpOptions) {
    this.#options = options;
  }

  get options(): ResolvedHttpOptions {
    return this.#options;
  }

  /**
   * Sends `method` to `url` with `headers` (lower-case names) and `body`, and resolves with the response — a
   * 401/403 only once the auth hook gave up (`'fail'`) or the retries are spent. Rejects with `REQUEST_CANCELLED`
   * when `signal` aborts, `AUTHORIZATION_FAILED` when the hook rejects, `SEND_FAILED` when the server cannot be
   * reached.
   */
  async request(
    method: string,
    url: URL,
    headers: Record<string, string>,
    body: string | undefined,
    signal: AbortSignal | undefined,
  ): Promise<Response> {
    const options = this.#options;
    const auth = options.auth;
    if (auth === undefined) return this.#fetch(method, url, { ...options.headers, ...headers }, body, signal);
    const request: HttpAuthRequest = { method, url };
    for (let attempt = 0; ; attempt++) {
      let credentials: Record<string, string>;
      try {
        credentials = await auth.headers(request);
      } catch (error) {
        throw authorizationFailed(error);
      }
      const response = await this.#fetch(method, url, { ...options.headers, ...lowerCased(credentials), ...headers }, body, signal);
      try {
        auth.onResponse?.(response, request);
      } catch {
        // The hook's contract is never to throw; a hook that does must not fail a request that succeeded.
      }
      if ((response.status !== 401 && response.status !== 403) || attempt >= options.maxAuthRetries) return response;
      let outcome: 'retry' | 'fail';
      try {
        outcome = await auth.onUnauthorized(response, request);
      } catch (error) {
        await discard(response);
        throw authorizationFailed(error);
      }
      if (outcome !== 'retry') return response;
      await discard(response);
      if (signal?.aborted) throw cancelled(signal);
    }
  }

  async #fetch(
    method: string,
    url: URL,
    headers: Record<string, string>,
    body: string | undefined,
    signal: AbortSignal | undefined,
  ): Promise<Response> {
    const init: RequestInit = { ...this.#options.requestInit, method, headers };
    if (body !== undefined) init.body = body;
    if (signal !== undefined) init.signal = signal;
    try {
      return await this.#options.fetch(url, init);
    } catch (error) {
      if (signal?.aborted) throw cancelled(signal);
      throw new LocalError('SEND_FAILED', `${method} ${url.origin}${url.pathname} failed: ${describe(error)}`, { cause: error });
    }
  }
}

/** The error of a request whose signal aborted: the abort reason when it is a LocalError. */
export function cancelled(signal: AbortSignal): LocalError {
  const reason: unknown = signal.reason;
  if (reason instanceof LocalError) return reason;
  return new LocalError('REQUEST_CANCELLED', 'The HTTP request was cancelled', { cause: reason });
}

/** Drops a response body that will not be read (so the connection can be reused or released). */
export async function discard(response: Response): Promise<void> {
  try {
    await response.body?.cancel();
  } catch {
    // Already consumed or errored: nothing to release.
  }
}

function authorizationFailed(error: unknown): LocalError {
  const code = (error as { code?: unknown } | null)?.code;
  const text = error instanceof Error ? error.message : String(error);
  return new LocalError('AUTHORIZATION_FAILED', `Authorization failed: ${text}`, {
    cause: error,
    details: typeof code === 'string' ? { code } : undefined,
  });
}

function lowerCased(headers: Record<string, string>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const name of Object.keys(headers)) out[name.toLowerCase()] = headers[name]!;
  return out;
}

function describe(error: unknown): string {
  if (!(error instanceof Error)) return String(error);
  const cause = (error as { cause?: unknown }).cause;
  // undici reports "fetch failed" and keeps the reason (ECONNREFUSED…) in `cause`.
  if (cause instanceof Error && cause.message) return `${error.message} (${cause.message})`;
  return error.message;
}
