/**
 * The Streamable HTTP client transport, for both eras on one class: what it sends follows the body.
 *
 * - A request whose `_meta` names a 2026-07-28 version is a **modern** POST: the mirrored headers, no session, a
 *   JSON or request-scoped SSE answer, cancellation by aborting the POST (listen streams are just long POSTs).
 * - `initialize` opens a **legacy** session (2025-03-26 … 2025-11-25): `Mcp-Session-Id` is captured and echoed,
 *   `MCP-Protocol-Version` follows the negotiated revision, the standalone GET stream opens after
 *   `notifications/initialized`, a POST stream closed before its response is resumed with GET and
 *   `Last-Event-ID`, server requests arrive on any stream and their responses are POSTed, DELETE ends the session.
 *
 * Refusals: a JSON-RPC error body that the era rules recognise is delivered as the request's error response (so
 * era detection sees a modern server's `-32022`, `-32020`, `-32021` or `404`/`-32601` as modern); any other
 * refusal rejects `send` with a `LocalError` (`HTTP_ERROR` with `details.status`, `SESSION_EXPIRED`,
 * `UNSUPPORTED_CONTENT_TYPE`, `AUTHORIZATION_FAILED`…), which the engine turns into that request's rejection.
 * `send` of a request resolves when its exchange is over.
 */
import { ErrorCode, LocalError, quoteInput, type RequestId, type RpcMessage, type RpcRequest } from '@wiremcp/protocol';
import { stringifyMessage, type SendOptions, type Transport } from '@wiremcp/jsonrpc';
import { Backoff } from './backoff.js';
import { readErrorBody } from './body-reader.js';
import { broken, httpError, isModernRefusal, rpcErrorFor, sessionExpired, streamEnded } from './errors.js';
import { GetStreams } from './get-streams.js';
import { discard, HttpRequester, cancelled } from './http-requester.js';
import { LegacySession } from './legacy-session.js';
import { modernRequestHeaders, modernVersionOf, ToolHeaderRegistry } from './modern-headers.js';
import { endpointUrl, resolveHttpOptions, type StreamableHttpClientOptions } from './options.js';
import { isBrokenStream, readMessages, type LivePosition } from './read-messages.js';
import { refreshToolHeaders, type InternalRequester } from './tool-refresh.js';
import { INITIALIZED, isErrorResponse, POST_HEADERS, type Era, type Exchange } from './exchange.js';

/** Default of {@link StreamableHttpClientOptions.closeTimeoutMs}. */
export const DEFAULT_CLOSE_TIMEOUT_MS = 3000;

/** A Streamable HTTP client transport; see the module documentation. */
export class StreamableHttpClientTransport implements Transport {
  onmessage?: ((message: unknown) => void) | undefined;
  onerror?: ((error: Error) => void) | undefined;
  onclose?: (() => void) | undefined;
  /** The MCP endpoint. */
  readonly url: URL;
  readonly #http: HttpRequester;
  readonly #options: StreamableHttpClientOptions;
  readonly #streams: GetStreams;
  readonly #tools = new ToolHeaderRegistry();
  /** Requests awaiting their response. */
  readonly #awaited = new Set<RequestId>();
  /** The POST of each request in flight (cancellation aborts it). */
  readonly #inflight = new Map<RequestId, AbortController>();
  /** Every POST in flight (close aborts them). */
  readonly #controllers = new Set<AbortController>();
  readonly #closed = new AbortController();
  #state: 'new' | 'started' | 'closed' = 'new';
  #closing: Promise<void> | undefined;
  #closeReason: LocalError | undefined;
  #era: Era | undefined;
  #modernVersion: string | undefined;
  #modernConfirmed = false;
  #modernRefusal: { status: number; code: number } | undefined;
  #established = false;
  readonly #session: LegacySession;
  #internalIds = 0;

  constructor(url: string | URL, options: StreamableHttpClientOptions = {}) {
    this.url = endpointUrl(url);
    this.#options = options;
    this.#http = new HttpRequester(resolveHttpOptions(options));
    const backoff = new Backoff(options.reconnect, options.random);
    this.#session = new LegacySession({
      renew: options.onSessionExpired === 'reinitialize',
      internal: this.#internal,
      initialized: () => this.#oneWay(INITIALIZED, 'POST notifications/initialized', () => this.#sessionHeaders({ ...POST_HEADERS })),
      isOpen: () => this.#state === 'started',
      close: (reason) => {
        this.#closeReason = reason;
        void this.close();
      },
    });
    this.#streams = new GetStreams(
      {
        url: this.url,
        http: this.#http,
        closed: this.#closed.signal,
        sessionHeaders: () => this.#sessionHeaders({}),
        sessionId: () => this.#session.id,
        expired: (session) => this.#session.expired(session),
        receive: (message) => this.#receive(message, undefined),
        report: (error) => this.onerror?.(error),
      },
      backoff,
    );
  }

  /** The legacy session id, once `initialize` was answered with one. */
  get sessionId(): string | undefined {
    return this.#session.id;
  }
  /** The legacy protocol version negotiated on this transport (sent as `MCP-Protocol-Version`). */
  get protocolVersion(): string | undefined {
    return this.#session.protocolVersion;
  }
  /** A refusal of a modern request that only a 2026-07-28 server gives, seen before any success (era detection). */
  get modernRefusal(): { readonly status: number; readonly code: number } | undefined {
    return this.#modernRefusal;
  }
  /** Why the transport closed, when it was not `close()` (`SESSION_EXPIRED`). */
  get closeReason(): LocalError | undefined {
    return this.#closeReason;
  }

  async start(): Promise<void> {
    if (this.#state === 'closed') throw new LocalError('NOT_CONNECTED', 'This transport is closed');
    if (this.#state === 'started') throw new LocalError('ALREADY_CONNECTED', 'This transport is already started');
    this.#state = 'started';
  }

  async send(message: RpcMessage | RpcMessage[], _options?: SendOptions): Promise<void> {
    if (this.#state !== 'started')
      throw new LocalError('NOT_CONNECTED', this.#closeReason?.message ?? 'The transport is not started, or closed');
    if (Array.isArray(message)) return this.#sendBatch(message);
    const { method, id } = message as { method?: unknown; id?: RequestId };
    if (typeof method !== 'string') return this.#oneWay(message, 'POST (response)', () => this.#sessionHeaders({ ...POST_HEADERS }));
    if (id !== undefined) {
      const request = message as RpcRequest;
      if (method === 'initialize') {
        this.#era = 'legacy';
        this.#session.begin(request);
        return this.#post(request, 'legacy', this.#deliver, true);
      }
      const version = modernVersionOf(request);
      if (version !== undefined) {
        this.#era = 'modern';
        this.#modernVersion = version;
        return this.#post(request, 'modern', this.#deliver);
      }
      return this.#post(request, 'legacy', this.#deliver);
    }
    if (this.#era === 'modern') return this.#modernNotification(message, method);
    await this.#oneWay(message, `POST ${method}`, () => this.#sessionHeaders({ ...POST_HEADERS }));
    if (method === 'notifications/initialized' && this.#options.standaloneStream !== false && this.#session.id !== undefined) {
      this.#streams.openStandalone();
    }
  }

  cancelRequest(id: RequestId): void {
    this.#inflight.get(id)?.abort(new LocalError('REQUEST_CANCELLED', `Request ${String(id)} was cancelled`));
  }

  close(): Promise<void> {
    if (this.#state === 'closed') return this.#closing ?? Promise.resolve();
    this.#state = 'closed';
    this.#closing = this.#shutdown();
    return this.#closing;
  }

  [Symbol.asyncDispose](): Promise<void> {
    return this.close();
  }

  readonly #deliver = (message: unknown): void => this.onmessage?.(message);

  async #shutdown(): Promise<void> {
    const reason = this.#closeReason ?? new LocalError('CONNECTION_CLOSED', 'The transport was closed');
    this.#closed.abort(reason);
    for (const controller of this.#controllers) controller.abort(reason);
    if (this.#session.id !== undefined) {
      const headers = this.#sessionHeaders({});
      this.#session.id = undefined;
      const signal = AbortSignal.timeout(this.#options.closeTimeoutMs ?? DEFAULT_CLOSE_TIMEOUT_MS);
      // The server may answer 405 (it keeps sessions until they expire); either way the session is over here.
      await this.#http.request('DELETE', this.url, headers, undefined, signal).then(discard, () => undefined);
    }
    this.onclose?.();
  }

  #exchange(request: RpcRequest, era: Era, deliver: (message: unknown) => void, initialize = false): Exchange {
    const params = request.params as Record<string, unknown> | undefined;
    return { id: request.id, ids: [request.id], method: request.method, params, era, initialize, what: `POST ${request.method}`, deliver };
  }

  #owed(exchange: Exchange): boolean {
    for (const id of exchange.ids) if (this.#awaited.has(id)) return true;
    return false;
  }

  #sessionHeaders(headers: Record<string, string>): Record<string, string> {
    return this.#session.headers(headers);
  }

  /** A request's exchange: modern headers mirrored from the body, or the session's headers (none for initialize). */
  #post(request: RpcRequest, era: Era, deliver: (message: unknown) => void, initialize = false): Promise<void> {
    const params = request.params as Record<string, unknown> | undefined;
    const version = modernVersionOf(request) ?? this.#modernVersion!;
    const headers =
      era === 'modern'
        ? () => modernRequestHeaders(POST_HEADERS, request.method, params, version, this.#tools)
        : initialize
          ? () => ({ ...POST_HEADERS })
          : () => this.#sessionHeaders({ ...POST_HEADERS });
    // stringifyMessage: a 2026-07-28 request's `_meta` envelope, serialised once per client, is spliced in.
    return this.#request(this.#exchange(request, era, deliver, initialize), stringifyMessage(request)!, headers);
  }

  async #modernNotification(message: RpcMessage, method: string): Promise<void> {
    if (method === 'notifications/cancelled') {
      // On Streamable HTTP, closing the response stream is the cancellation; nothing is posted.
      const requestId = (message as { params?: { requestId?: RequestId } }).params?.requestId;
      if (requestId !== undefined) this.cancelRequest(requestId);
      return;
    }
    const version = this.#modernVersion!;
    await this.#oneWay(message, `POST ${method}`, () => ({ ...POST_HEADERS, 'mcp-protocol-version': version, 'mcp-method': method }));
  }

  async #sendBatch(messages: RpcMessage[]): Promise<void> {
    if (this.#session.protocolVersion !== '2025-03-26') {
      throw new LocalError('INVALID_ARGUMENT', 'JSON-RPC batches exist only in protocol version 2025-03-26');
    }
    const ids = messages.flatMap((m) => ('method' in m && 'id' in m && m.id !== undefined ? [m.id] : []));
    const headers = (): Record<string, string> => this.#sessionHeaders({ ...POST_HEADERS });
    if (ids.length === 0) return this.#oneWay(messages, 'POST (batch)', headers);
    // The responses come back together, as a JSON array or on one stream.
    const first: RpcRequest = { jsonrpc: '2.0', id: ids[0]!, method: 'batch' };
    await this.#request(
      { ...this.#exchange(first, 'legacy', this.#deliver), ids, what: 'POST (batch)' },
      JSON.stringify(messages),
      headers,
    );
  }

  /** A request's POST: its response read (JSON or SSE), a legacy stream resumed, a refusal classified. */
  async #request(exchange: Exchange, body: string, headersFor: () => Record<string, string>): Promise<void> {
    const { id, what } = exchange;
    const controller = new AbortController();
    this.#controllers.add(controller);
    for (const owed of exchange.ids) {
      this.#inflight.set(owed, controller);
      this.#awaited.add(owed);
    }
    const signal = controller.signal;
    try {
      for (let round = 0; ; round++) {
        const headers = headersFor();
        const session = headers['mcp-session-id'];
        const response = await this.#http.request('POST', this.url, headers, body, signal);
        if (!response.ok) {
          if ((await this.#refused(exchange, response, session, round === 0 ? headers : undefined)) === 'again') continue;
          return;
        }
        if (exchange.initialize) this.#session.take(response);
        if (response.status === 202) {
          await discard(response);
          throw new LocalError('PROTOCOL_VIOLATION', `${what} was answered 202 Accepted; a request needs a JSON or SSE response`);
        }
        const options = this.#http.options;
        const position: LivePosition = { lastEventId: '', retry: undefined };
        const done = (): boolean => !this.#owed(exchange);
        await readMessages(response, {
          what,
          maxResponseBytes: options.maxResponseBytes,
          maxEventBytes: options.maxEventBytes,
          position,
          receive: (message) => this.#receive(message, exchange),
        }).catch((error: unknown) => {
          // The stream broke (its server process died, a proxy cut it): a legacy request's stream resumes below where
          // it stood, on whichever process the GET reaches; the caller sees a pause, not a failure.
          const resumable = exchange.era === 'legacy' && position.lastEventId !== '' && !signal.aborted && isBrokenStream(error);
          if (!done() && !resumable) throw error;
        });
        if (done()) return;
        if (exchange.era === 'legacy' && position.lastEventId !== '') {
          await this.#streams.resume(position, what, done, signal);
          return;
        }
        throw streamEnded(what);
      }
    } catch (error) {
      throw signal.aborted ? cancelled(signal) : broken(error, what);
    } finally {
      this.#controllers.delete(controller);
      for (const owed of exchange.ids) {
        if (this.#inflight.get(owed) === controller) this.#inflight.delete(owed);
        this.#awaited.delete(owed);
      }
    }
  }

  /**
   * A non-2xx answer to a request: `'again'` to send it once more (a renewed session, or fresher tool headers),
   * `'delivered'` when a recognised JSON-RPC error went to the engine as the response; throws otherwise.
   */
  async #refused(
    exchange: Exchange,
    response: Response,
    session: string | undefined,
    sent: Record<string, string> | undefined,
  ): Promise<'again' | 'delivered'> {
    const status = response.status;
    if (exchange.era === 'legacy' && status === 404 && session !== undefined) {
      await discard(response);
      if (await this.#session.expired(session)) return 'again';
      throw this.#closeReason ?? sessionExpired();
    }
    const error = exchange.ids.length === 1 ? rpcErrorFor(await readErrorBody(response), exchange.id) : undefined;
    if (error !== undefined) {
      if (exchange.era === 'modern' && isModernRefusal(status, error.code) && !this.#modernConfirmed) {
        this.#modernRefusal = { status, code: error.code };
      }
      const mismatch = error.code === ErrorCode.HeaderMismatch && exchange.method === 'tools/call' && sent !== undefined;
      if (mismatch && exchange.era === 'modern' && (await this.#freshToolHeaders(exchange, sent))) return 'again';
      if (isErrorResponse(exchange, status, error, this.#modernConfirmed)) {
        if (exchange.era === 'modern') this.#modernConfirmed = true;
        exchange.deliver({ jsonrpc: '2.0', id: exchange.id, error });
        this.#awaited.delete(exchange.id);
        return 'delivered';
      }
    }
    throw httpError(exchange.what, response, error);
  }

  /** Each message read: bookkeeping (responses owed, the session's version, tool headers), then delivery. */
  #receive(message: unknown, exchange: Exchange | undefined): void {
    if (typeof message === 'object' && message !== null && !('method' in message) && 'id' in message) {
      const response = message as { id: RequestId; result?: unknown };
      if (exchange !== undefined && response.id === exchange.id && typeof response.result === 'object' && response.result !== null) {
        message = this.#onResult(exchange, response.result as Record<string, unknown>, message);
      }
      this.#awaited.delete(response.id);
    }
    (exchange?.deliver ?? this.#deliver)(message);
  }

  #onResult(exchange: Exchange, result: Record<string, unknown>, message: unknown): unknown {
    if (exchange.era === 'modern') this.#modernConfirmed = true;
    if (exchange.initialize && typeof result.protocolVersion === 'string') this.#session.protocolVersion = result.protocolVersion;
    if (!this.#established) {
      this.#established = true;
      this.#options.onEstablished?.(exchange.era === 'modern' ? 'modern' : 'streamable');
    }
    if (exchange.era !== 'modern' || exchange.method !== 'tools/list') return message;
    return this.#tools.filter(message, result, (dropped) =>
      this.onerror?.(
        new LocalError('PROTOCOL_VIOLATION', `Tool ${quoteInput(dropped.name)} dropped from tools/list: ${dropped.reason}`, {
          details: dropped,
        }),
      ),
    );
  }

  /** A notification or response: POSTed, any 2xx accepted. */
  async #oneWay(message: RpcMessage | RpcMessage[], what: string, headersFor: () => Record<string, string>): Promise<void> {
    const controller = new AbortController();
    this.#controllers.add(controller);
    const body = stringifyMessage(message)!;
    try {
      for (;;) {
        const headers = headersFor();
        const session = headers['mcp-session-id'];
        const response = await this.#http.request('POST', this.url, headers, body, controller.signal);
        if (response.ok) return await discard(response);
        if (this.#era !== 'modern' && response.status === 404 && session !== undefined) {
          await discard(response);
          if (await this.#session.expired(session)) continue;
          throw this.#closeReason ?? sessionExpired();
        }
        throw httpError(what, response, rpcErrorFor(await readErrorBody(response)));
      }
    } catch (error) {
      throw controller.signal.aborted ? cancelled(controller.signal) : broken(error, what);
    } finally {
      this.#controllers.delete(controller);
    }
  }

  #freshToolHeaders(exchange: Exchange, sent: Record<string, string>): Promise<boolean> {
    return refreshToolHeaders(this.#internal, this.#tools, exchange.params, sent);
  }

  /** Requests the transport makes on its own (a renewed `initialize`, a fresh `tools/list`); their answers stay here. */
  get #internal(): InternalRequester {
    return {
      request: async (request, era, initialize = false) => {
        let answer: { result?: unknown; error?: unknown } | undefined;
        await this.#post(
          request,
          era,
          (message) => {
            if ((message as { id?: unknown }).id === request.id) answer = message as typeof answer;
            else this.#deliver(message);
          },
          initialize,
        );
        if (answer === undefined || answer.error !== undefined) {
          throw new LocalError('PROTOCOL_VIOLATION', `The server refused ${request.method}`, { details: answer?.error });
        }
        return answer.result;
      },
      nextId: (kind) => `wiremcp-http/${kind}/${++this.#internalIds}`,
    };
  }
}
