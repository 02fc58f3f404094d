/**
 * Options shared by the HTTP client transports, their defaults, and the structural auth hook (the shape of
 * `HttpAuthProvider` from `@wiremcp/auth/client`, restated here so that this package does not depend on it).
 */
import { LocalError } from '@wiremcp/protocol';
import { DEFAULT_MAX_SSE_EVENT_BYTES } from '../sse/parse.js';

/** The `fetch` the transports call: the global one by default, or any function of the same shape. */
export type FetchLike = (input: string | URL, init: RequestInit) => Promise<Response>;

/** The request an {@link HttpAuthHook} is asked about; the same object for every attempt of one request. */
export interface HttpAuthRequest {
  /** `POST`, `GET` or `DELETE`. */
  readonly method: string;
  /** The full request URL. */
  readonly url: URL;
}

/**
 * Supplies credentials (structurally `HttpAuthProvider` of `@wiremcp/auth/client`, e.g. `McpOAuthProvider`).
 * `headers` is called before every attempt, including each retry (DPoP proofs are single-use); `onResponse`
 * sees every response; `onUnauthorized` gets every 401 and 403 and resolves `'retry'` (the same body is sent
 * again with fresh headers) or `'fail'`, or rejects (an `AuthError`), which fails the request with
 * `AUTHORIZATION_FAILED` carrying that error as its `cause`.
 */
export interface HttpAuthHook {
  headers(request: HttpAuthRequest): Promise<Record<string, string>> | Record<string, string>;
  onUnauthorized(response: Response, request: HttpAuthRequest): Promise<'retry' | 'fail'>;
  onResponse?(response: Response, request: HttpAuthRequest): void;
}

/** Reconnection of SSE streams (legacy Streamable HTTP: the GET stream and resumed POST streams). */
export interface ReconnectOptions {
  /** First delay when the server sent no `retry` (default 1 000 ms; the actual delay is jittered down to half). */
  readonly initialDelayMs?: number;
  /** Upper bound of the exponential delay (default 30 000 ms; a server's `retry` is honoured even above it). */
  readonly maxDelayMs?: number;
  /** Growth of the delay per failed attempt (default 1.5). */
  readonly growFactor?: number;
  /** Attempts in a row without receiving an event before giving up (default 5). */
  readonly maxRetries?: number;
}

/** Options common to {@link StreamableHttpClientTransport} and {@link SseClientTransport}. */
export interface HttpClientOptions {
  /** The fetch to use (default `globalThis.fetch`). */
  readonly fetch?: FetchLike;
  /** Headers sent with every request (the protocol's own headers take precedence over these). */
  readonly headers?: HeadersInit;
  /** Extra `RequestInit` fields for every request (`credentials`, `mode`, a `dispatcher`…); never method, body, headers or signal. */
  readonly requestInit?: Omit<RequestInit, 'method' | 'body' | 'headers' | 'signal'>;
  /** Authorization: `headers()` before every attempt, `onUnauthorized()` for 401/403. */
  readonly auth?: HttpAuthHook;
  /** Most re-sends of one request after `onUnauthorized` resolved `'retry'` (default 4). */
  readonly maxAuthRetries?: number;
  /** Largest JSON response body read, in bytes (default 8 MiB); larger fails the request with `FRAME_TOO_LARGE`. */
  readonly maxResponseBytes?: number;
  /** Largest server-sent event (and line), in bytes (default 8 MiB). */
  readonly maxEventBytes?: number;
}

/** Options of {@link StreamableHttpClientTransport}. */
export interface StreamableHttpClientOptions extends HttpClientOptions {
  /** Reconnection of legacy SSE streams (the GET stream, resumed POST streams). */
  readonly reconnect?: ReconnectOptions;
  /** Legacy sessions: open the optional standalone GET stream after `initialize` (default true; a 405 is fine). */
  readonly standaloneStream?: boolean;
  /**
   * Legacy sessions: what a 404 on a request carrying the session id does. `'error'` (default) fails it with
   * `SESSION_EXPIRED` and closes the transport; `'reinitialize'` sends the same `initialize` again, transparently,
   * and retries (server-side session state such as subscriptions and the log level is lost).
   */
  readonly onSessionExpired?: 'error' | 'reinitialize';
  /** How long `close()` waits for the session's DELETE (default 3 000 ms). */
  readonly closeTimeoutMs?: number;
  /** Called once, with the kind of exchange, when the first JSON-RPC result arrives (the era detector's hook). */
  readonly onEstablished?: (kind: 'modern' | 'streamable') => void;
  /** Randomness for the backoff jitter (default `Math.random`). */
  readonly random?: () => number;
}

/** Default of {@link HttpClientOptions.maxResponseBytes}: 8 MiB. */
export const DEFAULT_MAX_RESPONSE_BYTES = 8 * 1024 * 1024;
/** Default of {@link HttpClientOptions.maxAuthRetries}. */
export const DEFAULT_MAX_AUTH_RETRIES = 4;

/** The settings every exchange reads, with defaults applied. */
export interface ResolvedHttpOptions {
  readonly fetch: FetchLike;
  readonly headers: Readonly<Record<string, string>>;
  readonly requestInit: Omit<RequestInit, 'method' | 'body' | 'headers' | 'signal'> | undefined;
  readonly auth: HttpAuthHook | undefined;
  readonly maxAuthRetries: number;
  readonly maxResponseBytes: number;
  readonly maxEventBytes: number;
}

/** Applies the defaults and checks the limits. */
export function resolveHttpOptions(options: HttpClientOptions): ResolvedHttpOptions {
  const fetchImpl = options.fetch ?? (globalThis.fetch as FetchLike | undefined);
  if (typeof fetchImpl !== 'function') throw new LocalError('INVALID_ARGUMENT', 'No fetch: pass the fetch option on this runtime');
  const headers: Record<string, string> = {};
  if (options.headers !== undefined) new Headers(options.headers).forEach((value, name) => (headers[name] = value));
  return {
    fetch: options.fetch ?? ((input, init) => globalThis.fetch(input, init)),
    headers,
    requestInit: options.requestInit,
    auth: options.auth,
    maxAuthRetries: positive(options.maxAuthRetries, DEFAULT_MAX_AUTH_RETRIES, 'maxAuthRetries', true),
    maxResponseBytes: positive(options.maxResponseBytes, DEFAULT_MAX_RESPONSE_BYTES, 'maxResponseBytes'),
    maxEventBytes: positive(options.maxEventBytes, DEFAULT_MAX_SSE_EVENT_BYTES, 'maxEventBytes'),
  };
}

function positive(value: number | undefined, fallback: number, name: string, zero = false): number {
  if (value === undefined) return fallback;
  if (!Number.isInteger(value) || value < (zero ? 0 : 1)) {
    throw new LocalError('INVALID_ARGUMENT', `${name} must be a ${zero ? 'non-negative' : 'positive'} integer`);
  }
  return value;
}

/** Parses the endpoint URL; only http: and https: are accepted. */
export function endpointUrl(url: string | URL): URL {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch (error) {
    throw new LocalError('INVALID_ARGUMENT', 'The MCP endpoint is not a valid URL', { cause: error });
  }
  if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') {
    throw new LocalError('INVALID_ARGUMENT', `The MCP endpoint must be an http: or https: URL (got ${parsed.protocol})`);
  }
  parsed.hash = '';
  return parsed;
}
