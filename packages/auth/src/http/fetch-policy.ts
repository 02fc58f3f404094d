/**
 * Every request this package makes goes through one bounded fetch: a deadline for the whole exchange (all redirect
 * hops and the body), a cap on the body size, a redirect limit with loop detection, a scheme policy (plain http only
 * to loopback by default) and, when configured, refusal of private and loopback addresses (SSRF protection for
 * discovery URLs that a remote server chose). Bodies are read fully into memory only up to the cap.
 */
import { AuthError, describeUrl } from '../errors.js';
import { classifyHost, classifyIp } from './address.js';

/** Limits and rules for outgoing requests. All fields are optional; see {@link DEFAULT_FETCH_POLICY}. */
export interface FetchPolicy {
  /** The fetch implementation (default: the global `fetch`). */
  readonly fetch?: typeof globalThis.fetch;
  /** Deadline for one exchange, redirects and body included, in milliseconds. */
  readonly timeoutMs?: number;
  /** Largest accepted response body, in bytes. */
  readonly maxResponseBytes?: number;
  /** Most redirects followed for one GET. */
  readonly maxRedirects?: number;
  /** Where plain `http:` is allowed: never, only to loopback hosts (the default), or anywhere. */
  readonly allowHttp?: 'never' | 'loopback' | 'always';
  /** Refuse URLs whose host is, or resolves to, a loopback, private, link-local or otherwise non-public address. */
  readonly refusePrivateAddresses?: boolean;
  /** Hosts exempt from `refusePrivateAddresses` (exact, lower-case host names or IP literals). */
  readonly allowedPrivateHosts?: readonly string[];
  /**
   * Resolves a host name to its addresses, so `refusePrivateAddresses` also covers names (DNS). Without it only IP
   * literals and `localhost` names are classified. `@wiremcp/auth/node` exports one based on `node:dns`.
   */
  readonly resolveHost?: (hostname: string) => Promise<readonly string[]>;
}

/** The defaults: 10 s per exchange, 512 KiB bodies, 3 redirects, http only to loopback, private addresses allowed. */
export const DEFAULT_FETCH_POLICY = {
  timeoutMs: 10_000,
  maxResponseBytes: 512 * 1024,
  maxRedirects: 3,
  allowHttp: 'loopback',
  refusePrivateAddresses: false,
} as const satisfies FetchPolicy;

/** One outgoing request. */
export interface BoundedRequest {
  readonly method?: string;
  readonly headers?: Record<string, string> | Headers;
  readonly body?: string | URLSearchParams;
  /** Follow redirects (GET only). Default: true for GET, false otherwise. */
  readonly followRedirects?: boolean;
  /** Cancels the exchange; the signal's reason is thrown. */
  readonly signal?: AbortSignal;
}

const REDIRECTS = new Set([301, 302, 303, 307, 308]);
const NULL_BODY = new Set([101, 103, 204, 205, 304]);

/** Throws an `AuthError` when `url` may not be requested under `policy`. */
export async function assertUrlAllowed(url: URL, policy: FetchPolicy = {}): Promise<void> {
  const allowHttp = policy.allowHttp ?? DEFAULT_FETCH_POLICY.allowHttp;
  const kind = classifyHost(url.hostname);
  if (url.protocol === 'http:') {
    if (allowHttp === 'never' || (allowHttp === 'loopback' && kind !== 'loopback')) {
      throw new AuthError('insecure_url', `plain http is not allowed for ${describeUrl(url)}; use https`);
    }
  } else if (url.protocol !== 'https:') {
    throw new AuthError('insecure_url', `only http(s) URLs can be fetched, not ${describeUrl(url)}`);
  }
  if (url.username !== '' || url.password !== '') {
    throw new AuthError('insecure_url', 'URLs with embedded credentials are refused');
  }
  if (!policy.refusePrivateAddresses) return;
  const host = url.hostname.toLowerCase();
  if (policy.allowedPrivateHosts?.includes(host)) return;
  if (kind === 'loopback' || kind === 'private') {
    throw new AuthError('address_refused', `${describeUrl(url)} points at a non-public address`);
  }
  if (kind === 'name' && policy.resolveHost) {
    let addresses: readonly string[];
    try {
      addresses = await policy.resolveHost(url.hostname);
    } catch (cause) {
      throw new AuthError('fetch_failed', `could not resolve the host of ${describeUrl(url)}`, { cause });
    }
    if (addresses.some((address) => classifyIp(address) !== 'public')) {
      throw new AuthError('address_refused', `${describeUrl(url)} resolves to a non-public address`);
    }
  }
}

/**
 * Reads a response body into memory, refusing it once it exceeds `maxBytes` (checked against `Content-Length`
 * first, then while streaming, so an oversized body is never fully read).
 */
export async function readBounded(response: Response, maxBytes: number, url: URL): Promise<Uint8Array<ArrayBuffer>> {
  const declared = Number(response.headers.get('content-length'));
  if (Number.isFinite(declared) && declared > maxBytes) {
    await response.body?.cancel().catch(() => undefined);
    throw new AuthError('response_too_large', `the response from ${describeUrl(url)} exceeds ${maxBytes} bytes`);
  }
  if (!response.body) return new Uint8Array(new ArrayBuffer(0));
  const reader = response.body.getReader();
  const chunks: Uint8Array[] = [];
  let total = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    total += value.byteLength;
    if (total > maxBytes) {
      await reader.cancel().catch(() => undefined);
      throw new AuthError('response_too_large', `the response from ${describeUrl(url)} exceeds ${maxBytes} bytes`);
    }
    chunks.push(value);
  }
  const out = new Uint8Array(new ArrayBuffer(total));
  let offset = 0;
  for (const chunk of chunks) {
    out.set(chunk, offset);
    offset += chunk.byteLength;
  }
  return out;
}

function mapFetchError(error: unknown, url: URL, timeout: AbortSignal, caller: AbortSignal | undefined): unknown {
  if (caller?.aborted) return caller.reason;
  if (error instanceof AuthError) return error;
  if (timeout.aborted) return new AuthError('fetch_timeout', `the request to ${describeUrl(url)} timed out`, { cause: error });
  return new AuthError('fetch_failed', `the request to ${describeUrl(url)} failed`, { cause: error });
}

/**
 * Performs one bounded exchange and returns a `Response` whose body is already in memory (at most
 * `maxResponseBytes`). Redirects are followed by hand for GET so that every hop is checked against the policy.
 */
export async function boundedFetch(input: string | URL, request: BoundedRequest = {}, policy: FetchPolicy = {}): Promise<Response> {
  const timeoutMs = policy.timeoutMs ?? DEFAULT_FETCH_POLICY.timeoutMs;
  const maxBytes = policy.maxResponseBytes ?? DEFAULT_FETCH_POLICY.maxResponseBytes;
  const maxRedirects = policy.maxRedirects ?? DEFAULT_FETCH_POLICY.maxRedirects;
  const fetchImpl = policy.fetch ?? globalThis.fetch;
  const timeout = AbortSignal.timeout(timeoutMs);
  const signal = request.signal ? AbortSignal.any([request.signal, timeout]) : timeout;
  let method = (request.method ?? 'GET').toUpperCase();
  const follow = request.followRedirects ?? method === 'GET';
  let url = new URL(typeof input === 'string' ? input : input.href);
  let body = request.body;
  const visited = new Set<string>();
  for (let hop = 0; ; hop++) {
    try {
      await assertUrlAllowed(url, policy);
      visited.add(url.href);
      const response = await fetchImpl(url.href, {
        method,
        headers: request.headers,
        body: body === undefined ? undefined : body,
        redirect: 'manual',
        signal,
      });
      const location = response.headers.get('location');
      if (follow && REDIRECTS.has(response.status) && location !== null) {
        await response.body?.cancel().catch(() => undefined);
        const next = new URL(location, url);
        if (hop >= maxRedirects || visited.has(next.href)) {
          throw new AuthError('too_many_redirects', `too many redirects (or a redirect loop) from ${describeUrl(url)}`);
        }
        if (response.status === 303 || ((response.status === 301 || response.status === 302) && method === 'POST')) {
          method = 'GET';
          body = undefined;
        }
        url = next;
        continue;
      }
      if (response.type === 'opaqueredirect') {
        throw new AuthError('fetch_failed', `the response from ${describeUrl(url)} is a redirect this runtime hides`);
      }
      const bytes = NULL_BODY.has(response.status) ? null : await readBounded(response, maxBytes, url);
      const status = response.status >= 200 && response.status <= 599 ? response.status : 502;
      return new Response(bytes && bytes.byteLength > 0 ? bytes : null, {
        status,
        statusText: response.statusText,
        headers: response.headers,
      });
    } catch (error) {
      throw mapFetchError(error, url, timeout, request.signal);
    }
  }
}

/**
 * A `fetch`-compatible function that applies `policy` to every call without following redirects (the caller sees a
 * 3xx). It is what `oauth4webapi` and `jose` are given, so their requests obey the same limits.
 */
export function policyFetch(policy: FetchPolicy = {}): (input: string | URL | Request, init?: RequestInit) => Promise<Response> {
  return async (input, init = {}) => {
    const url = typeof input === 'string' ? input : input instanceof URL ? input : new URL(input.url);
    const headers = init.headers instanceof Headers ? init.headers : new Headers(init.headers);
    const body = typeof init.body === 'string' || init.body instanceof URLSearchParams ? init.body : undefined;
    return boundedFetch(
      url,
      { method: init.method ?? 'GET', headers, body, followRedirects: false, signal: init.signal ?? undefined },
      policy,
    );
  };
}

/** Parses a bounded response as a JSON object, or throws `AuthError('metadata_invalid')`. */
export async function readJsonObject(response: Response, url: URL): Promise<Record<string, unknown>> {
  let value: unknown;
  try {
    value = JSON.parse(await response.text());
  } catch (cause) {
    throw new AuthError('metadata_invalid', `${describeUrl(url)} did not return valid JSON`, { cause });
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    throw new AuthError('metadata_invalid', `${describeUrl(url)} did not return a JSON object`);
  }
  return value as Record<string, unknown>;
}
