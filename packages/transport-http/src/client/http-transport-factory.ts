/**
 * Era detection over HTTP, as the transport factory `McpClient.connect` takes. The client drives the handshake;
 * the factory decides which transport each attempt runs on, in the spec's order:
 *
 * 1. the modern attempt (`server/discover`) is a 2026-07-28 POST; success, or a refusal only a modern server gives
 *    (400 with -32020/-32021/-32022, 404 with -32601), means modern — the transport delivers those as JSON-RPC
 *    errors, so the client sees a modern answer;
 * 2. any other refusal: `initialize` over a new Streamable HTTP session;
 * 3. if that fails with 400, 404 or 405: the 2024-11-05 HTTP+SSE transport (a GET that must yield an `endpoint`).
 *
 * Network failures and authorization failures stop the fallback at once (another transport would fail the same
 * way). The kind of transport that worked is cached per endpoint (origin and path), so the next connection skips
 * the transports that did not; give the client the factory's `serverKey` as well and it skips the discover probe
 * of a legacy server too.
 */
import { isLocalError } from '@wiremcp/protocol';
import type { Transport } from '@wiremcp/jsonrpc';
import { httpStatusOf } from './errors.js';
import { endpointUrl, type StreamableHttpClientOptions } from './options.js';
import { SseClientTransport } from './sse-client-transport.js';
import { StreamableHttpClientTransport } from './streamable-http-client-transport.js';

/** Which transport a server was reached over: 2026-07-28 POSTs, a legacy Streamable HTTP session, or 2024-11-05 HTTP+SSE. */
export type HttpTransportKind = 'modern' | 'streamable' | 'sse';

/** Remembers the {@link HttpTransportKind} per endpoint; may be asynchronous; a failing cache acts as an empty one. */
export interface HttpTransportCache {
  get(key: string): HttpTransportKind | undefined | Promise<HttpTransportKind | undefined>;
  set(key: string, kind: HttpTransportKind): void | Promise<void>;
  delete(key: string): void | Promise<void>;
}

/** An in-memory {@link HttpTransportCache}, bounded (the oldest entries go first; default 1 000). */
export class MemoryHttpTransportCache implements HttpTransportCache {
  readonly #entries = new Map<string, HttpTransportKind>();
  readonly #max: number;

  constructor(maxEntries = 1000) {
    this.#max = maxEntries;
  }

  get(key: string): HttpTransportKind | undefined {
    return this.#entries.get(key);
  }

  set(key: string, kind: HttpTransportKind): void {
    this.#entries.delete(key);
    this.#entries.set(key, kind);
    if (this.#entries.size > this.#max) this.#entries.delete(this.#entries.keys().next().value as string);
  }

  delete(key: string): void {
    this.#entries.delete(key);
  }
}

/** One attempt, as `McpClient.connect` describes it to a transport factory (structurally its `TransportAttempt`). */
export interface HttpTransportAttempt {
  readonly era: 'modern' | 'legacy';
  readonly attempt: number;
  readonly previousError?: unknown;
  readonly previous?: Transport;
}

/** Options of {@link httpTransportFactory}: the transports' options, and the detection's. */
export interface HttpTransportFactoryOptions extends StreamableHttpClientOptions {
  /** Where detected kinds are remembered (default: in memory, for this factory). */
  readonly cache?: HttpTransportCache;
  /** Fall back to the 2024-11-05 HTTP+SSE transport (default true). */
  readonly legacySse?: boolean;
  /** The HTTP+SSE stream's URL when it is not the MCP endpoint (e.g. `/sse`; default: the endpoint). */
  readonly sseUrl?: string | URL;
  /** How long the HTTP+SSE transport waits for its `endpoint` event (default 10 000 ms). */
  readonly endpointTimeoutMs?: number;
}

/** The factory: give it to `McpClient.connect`. */
export interface HttpTransportFactory {
  (attempt: HttpTransportAttempt): Promise<Transport>;
  /** The endpoint's key (`http:` + origin and path): pass it as `serverKey` to the client to cache the era too. */
  readonly serverKey: string;
  /** The kind of transport that worked last, once one did. */
  readonly kind: HttpTransportKind | undefined;
}

const METHOD_NOT_FOUND = -32601;

/** HTTP statuses after which an `initialize` refusal means "try HTTP+SSE". */
const SSE_FALLBACK_STATUSES = new Set([400, 404, 405]);

/** Makes the transport factory for the MCP endpoint `url`; see the module documentation. */
export function httpTransportFactory(url: string | URL, options: HttpTransportFactoryOptions = {}): HttpTransportFactory {
  const endpoint = endpointUrl(url);
  const key = `${endpoint.origin}${endpoint.pathname}${endpoint.search}`;
  const cache = options.cache ?? new MemoryHttpTransportCache();
  const legacySse = options.legacySse !== false;
  let detected: HttpTransportKind | undefined;
  // Per connect (reset on attempt 1): the era of the previous attempt, and the legacy transports tried.
  let lastEra: 'modern' | 'legacy' | undefined;
  let triedSession = false;
  let triedSse = false;
  let cached: HttpTransportKind | undefined;
  // The first refusal of this connect: what a wrong URL reports, rather than the last fallback's own 404.
  let firstRefusal: unknown;

  const established = (kind: HttpTransportKind): void => {
    detected = kind;
    void quietly(() => cache.set(key, kind));
  };
  const streamable = (legacy: boolean): Transport => {
    if (legacy) triedSession = true;
    return new StreamableHttpClientTransport(endpoint, {
      ...options,
      onEstablished: (kind) => {
        established(kind);
        options.onEstablished?.(kind);
      },
    });
  };
  const sse = (): Transport => {
    triedSse = true;
    return new SseClientTransport(options.sseUrl ?? endpoint, { ...options, onEstablished: established });
  };

  const factory = async ({ era, attempt, previousError, previous }: HttpTransportAttempt): Promise<Transport> => {
    if (attempt === 1) {
      lastEra = undefined;
      triedSession = triedSse = false;
      firstRefusal = undefined;
      cached = await quietly(() => cache.get(key));
    }
    const before = lastEra;
    lastEra = era;
    if (previous === undefined) {
      // The HTTP+SSE transport is for 2024-11-05 only: a modern probe always goes out as a POST.
      if (era === 'legacy' && cached === 'sse' && legacySse) return sse();
      return streamable(era === 'legacy');
    }
    firstRefusal ??= previousError;
    // Another transport would fail the same way.
    if (isLocalError(previousError, 'AUTHORIZATION_FAILED') || isLocalError(previousError, 'SEND_FAILED')) throw previousError;
    // What was remembered did not work: detect from scratch next time.
    if (before === 'legacy' && cached !== undefined) {
      cached = undefined;
      await quietly(() => cache.delete(key));
    }
    if (era === 'modern') return streamable(false);
    if (previous instanceof SseClientTransport) {
      if (!triedSession) return streamable(true);
      throw refusal(previousError, firstRefusal);
    }
    if (before === 'modern') {
      // A modern server without server/discover (404 with -32601): initialize would only fail again, less clearly.
      // (After -32022 listing only legacy versions, the client initializes on purpose.)
      if (previous instanceof StreamableHttpClientTransport && previous.modernRefusal?.code === METHOD_NOT_FOUND) throw previousError;
      if (cached === 'sse' && legacySse && !triedSse) return sse();
      if (!triedSession) return streamable(true);
    }
    const status = httpStatusOf(previousError);
    if (legacySse && !triedSse && status !== undefined && SSE_FALLBACK_STATUSES.has(status)) return sse();
    throw previousError;
  };

  return Object.defineProperties(factory, {
    serverKey: { value: `http:${key}`, enumerable: true },
    kind: { get: () => detected, enumerable: true },
  }) as HttpTransportFactory;
}

/**
 * The error a failed fallback reports: when the last transport tried was refused as plainly as the first (400, 404,
 * 405: nothing speaks MCP at that URL), the first refusal, which names the request the user's URL got; otherwise the
 * last error, which says more (a stream that broke, a server error).
 */
function refusal(last: unknown, first: unknown): unknown {
  const status = httpStatusOf(last);
  return first !== undefined && status !== undefined && SSE_FALLBACK_STATUSES.has(status) ? first : last;
}

async function quietly<T>(operation: () => T | Promise<T>): Promise<T | undefined> {
  try {
    return await operation();
  } catch {
    return undefined;
  }
}
