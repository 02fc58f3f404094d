/**
 * The HTTP+SSE client transport of protocol version 2024-11-05 (deprecated since 2025-03-26, still served by many
 * servers): a GET opens an SSE stream whose first `endpoint` event names the URL to POST messages to (it must be
 * on the same origin as the stream); every server message arrives as a `message` event on that stream. When the
 * stream ends the transport closes: reopening it would start a new session on most servers.
 */
import { LocalError, type RpcMessage } from '@wiremcp/protocol';
import type { SendOptions, Transport } from '@wiremcp/jsonrpc';
import { mediaType, readErrorBody, readSse } from './body-reader.js';
import { httpError, rpcErrorFor, unsupportedContentType } from './errors.js';
import { cancelled, discard, HttpRequester } from './http-requester.js';
import { endpointUrl, resolveHttpOptions, type HttpClientOptions } from './options.js';
import { receiveEvent } from './read-messages.js';

/** Options of {@link SseClientTransport}. */
export interface SseClientOptions extends HttpClientOptions {
  /** How long `start()` waits for the `endpoint` event (default 10 000 ms). */
  readonly endpointTimeoutMs?: number;
  /** Called once the `endpoint` event arrived (the era detector's hook). */
  readonly onEstablished?: (kind: 'sse') => void;
}

/** Default of {@link SseClientOptions.endpointTimeoutMs}. */
export const DEFAULT_ENDPOINT_TIMEOUT_MS = 10_000;

const POST_HEADERS: Readonly<Record<string, string>> = { 'content-type': 'application/json' };

/** A 2024-11-05 HTTP+SSE client transport; see the module documentation. */
export class SseClientTransport implements Transport {
  onmessage?: ((message: unknown) => void) | undefined;
  onerror?: ((error: Error) => void) | undefined;
  onclose?: (() => void) | undefined;
  /** The URL of the SSE stream. */
  readonly url: URL;
  readonly #http: HttpRequester;
  readonly #options: SseClientOptions;
  readonly #stream = new AbortController();
  readonly #posts = new Set<AbortController>();
  #endpoint: URL | undefined;
  #state: 'new' | 'starting' | 'started' | 'closed' = 'new';
  #closeReason: LocalError | undefined;

  constructor(url: string | URL, options: SseClientOptions = {}) {
    this.url = endpointUrl(url);
    this.#options = options;
    this.#http = new HttpRequester(resolveHttpOptions(options));
  }

  /** The URL messages are POSTed to (from the `endpoint` event), once known. */
  get endpoint(): URL | undefined {
    return this.#endpoint;
  }
  /** Why the transport closed, when the stream failed or ended rather than `close()` being called. */
  get closeReason(): LocalError | undefined {
    return this.#closeReason;
  }

  /** Opens the stream and resolves once the `endpoint` event arrived; rejects with a `LocalError` otherwise. */
  async start(): Promise<void> {
    if (this.#state !== 'new') throw new LocalError('ALREADY_CONNECTED', 'This transport was already started');
    this.#state = 'starting';
    const signal = this.#stream.signal;
    const timeoutMs = this.#options.endpointTimeoutMs ?? DEFAULT_ENDPOINT_TIMEOUT_MS;
    const timer = setTimeout(
      () =>
        this.#stream.abort(
          new LocalError('CONNECTION_CLOSED', `No endpoint event within ${timeoutMs} ms on ${this.url.origin}${this.url.pathname}`),
        ),
      timeoutMs,
    );
    try {
      const response = await this.#http.request('GET', this.url, { accept: 'text/event-stream' }, undefined, signal);
      if (!response.ok) {
        await discard(response);
        throw httpError('GET (HTTP+SSE stream)', response, undefined);
      }
      if (mediaType(response) !== 'text/event-stream') {
        await discard(response);
        throw unsupportedContentType('GET (HTTP+SSE stream)', response);
      }
      await new Promise<void>((resolve, reject) => {
        void this.#read(response, resolve).then(
          () => reject(new LocalError('CONNECTION_CLOSED', 'The HTTP+SSE stream ended before its endpoint event')),
          reject,
        );
      });
    } catch (error) {
      this.#state = 'closed';
      this.#stream.abort(error);
      throw signal.aborted ? cancelled(signal) : error;
    } finally {
      clearTimeout(timer);
    }
    this.#state = 'started';
    this.#options.onEstablished?.('sse');
  }

  async send(message: RpcMessage | RpcMessage[], _options?: SendOptions): Promise<void> {
    const endpoint = this.#endpoint;
    if (this.#state !== 'started' || endpoint === undefined) {
      throw new LocalError('NOT_CONNECTED', this.#closeReason?.message ?? 'The HTTP+SSE transport is not started, or closed');
    }
    const controller = new AbortController();
    this.#posts.add(controller);
    const what = `POST ${Array.isArray(message) ? '(batch)' : ((message as { method?: string }).method ?? '(response)')}`;
    try {
      const response = await this.#http.request('POST', endpoint, { ...POST_HEADERS }, JSON.stringify(message), controller.signal);
      if (response.ok) return await discard(response);
      throw httpError(what, response, rpcErrorFor(await readErrorBody(response)));
    } catch (error) {
      throw controller.signal.aborted ? cancelled(controller.signal) : error;
    } finally {
      this.#posts.delete(controller);
    }
  }

  async close(): Promise<void> {
    if (this.#state === 'closed') return;
    const wasOpen = this.#state === 'started';
    this.#state = 'closed';
    const reason = this.#closeReason ?? new LocalError('CONNECTION_CLOSED', 'The transport was closed');
    this.#stream.abort(reason);
    for (const post of this.#posts) post.abort(reason);
    if (wasOpen) this.onclose?.();
  }

  [Symbol.asyncDispose](): Promise<void> {
    return this.close();
  }

  /** Reads the stream to its end: the endpoint event first (then `ready`), then messages. */
  async #read(response: Response, ready: () => void): Promise<void> {
    try {
      await readSse(
        response,
        {
          event: (event) => {
            if (event.type === 'endpoint') {
              if (this.#endpoint === undefined) {
                this.#endpoint = this.#endpointOf(event.data);
                ready();
              }
              return;
            }
            if (this.#endpoint === undefined) return;
            try {
              receiveEvent(event, { what: 'the HTTP+SSE stream', receive: (message) => this.onmessage?.(message) });
            } catch (error) {
              // One broken event loses one message, not the session.
              this.onerror?.(error as Error);
            }
          },
        },
        this.#http.options.maxEventBytes,
      );
      if (this.#state === 'started') this.#fail(new LocalError('CONNECTION_CLOSED', 'The server ended the HTTP+SSE stream'));
    } catch (error) {
      if (this.#state === 'started') this.#fail(error);
      else if (this.#state === 'starting') throw error;
    }
  }

  #endpointOf(data: string): URL {
    let endpoint: URL;
    try {
      endpoint = new URL(data.trim(), this.url);
    } catch (error) {
      throw new LocalError('PROTOCOL_VIOLATION', 'The endpoint event does not name a URL', { cause: error });
    }
    // A server must not send the client's messages (and credentials) to another origin.
    if (endpoint.origin !== this.url.origin) {
      throw new LocalError(
        'PROTOCOL_VIOLATION',
        `The endpoint event names another origin (${endpoint.origin}) than the stream's (${this.url.origin})`,
      );
    }
    return endpoint;
  }

  #fail(error: unknown): void {
    if (this.#state !== 'started') return;
    this.#closeReason =
      error instanceof LocalError ? error : new LocalError('CONNECTION_CLOSED', 'The HTTP+SSE stream failed', { cause: error });
    void this.close();
  }
}
