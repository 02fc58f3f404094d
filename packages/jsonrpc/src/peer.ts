import { LocalError, quoteInput, type RequestId, type RpcMessage } from '@wiremcp/protocol';
import { batchRefused, receiveBatch } from './batch.js';
import { answerForTransportError, describeInvalid, isBrokenResponse, MessageKind, messageKind } from './classify.js';
import type { InternalErrorReporter } from './error-object.js';
import type { UntypedNotificationHandler, UntypedRequestHandler } from './handler-table.js';
import { InboundRequests } from './inbound-requests.js';
import { reportInternalError } from './internal-error.js';
import {
  abortError,
  connectionClosedError,
  DEFAULT_REQUEST_TIMEOUT_MS,
  PendingRequest,
  requestMessage,
  type PendingHost,
} from './outbound.js';
import { PendingRequests } from './pending-requests.js';
import type { BatchCollector, ContextHost, RequestContext } from './request-context.js';
import type { MessageInfo, Transport } from './transport.js';
import type {
  AnyNotifications,
  AnyRequests,
  FallbackRequestHandler,
  NotificationHandler,
  NotificationMap,
  NotificationOptions,
  PeerOptions,
  RequestHandler,
  RequestMap,
  RequestOptions,
} from './types.js';

type Params = Record<string, unknown> | undefined;

/** One promise returned by `Transport.send` for requests, and what became of it. */
interface SendWatch {
  readonly promise: Promise<void>;
  /** The requests sent with it while it is unsettled; `undefined` once it settled. */
  waiting: PendingRequest[] | undefined;
  failed: boolean;
  error: unknown;
}

const PROGRESS = 'notifications/progress';

/**
 * The JSON-RPC peer engine that MCP clients and servers compose: request/response correlation, dispatch of
 * inbound requests and notifications to handlers, cancellation both ways, progress, timeouts, batches.
 *
 * Type parameters name what this side receives (`InRequests`, `InNotifications`) and sends (`OutRequests`,
 * `OutNotifications`); with the untyped defaults any method is accepted.
 *
 * Guarantees: outbound ids are never reused while pending; a cancelled inbound request gets no response; after
 * the transport closes, every pending request is rejected with `CONNECTION_CLOSED`, every handler's signal is
 * aborted, and no timer or listener remains.
 */
export class Peer<
  InRequests extends RequestMap<InRequests> = AnyRequests,
  OutRequests extends RequestMap<OutRequests> = AnyRequests,
  InNotifications extends NotificationMap<InNotifications> = AnyNotifications,
  OutNotifications extends NotificationMap<OutNotifications> = AnyNotifications,
> {
  /** Called once when the connection closes. */
  onclose: (() => void) | undefined;
  /**
   * Called when the transport's input ends (stdin EOF) while output is still open: the last moment to tell the
   * other side something (e.g. end subscription streams) before in-flight requests finish and the peer closes.
   */
  oninputend: (() => void) | undefined;
  /** Called with transport errors and protocol violations by the peer (informational). */
  onerror: ((error: Error) => void) | undefined;
  /** Sees every inbound notification before its handler (instrumentation); it must not throw. */
  onnotification: ((method: string, params: Params, info: MessageInfo | undefined) => void) | undefined;
  /** Whether inbound JSON-RPC batches are accepted (2025-03-26 only); the layer above sets it on negotiation. */
  acceptBatches = false;

  /** What pending requests call when they give up (abort, timeout); not part of the public surface. */
  readonly #pendingHost: PendingHost = { abandon: (pending, reason) => this.#abandon(pending, reason) };
  readonly #pending = new PendingRequests((pending, error) => this.#abandon(pending, error));
  readonly #timeoutMs: number;
  readonly #internalError: InternalErrorReporter;
  #transport: Transport | undefined;
  #closeReason: Error | undefined;
  #inputEnded = false;
  #nextId = 0;
  #closing: Promise<void> | undefined;
  readonly #onSendFailure = (error: unknown): void => this.#internalError(error, {});
  /** The last promise a send of a request returned, and the requests waiting on it (see `#watchRequestSend`). */
  #sendWatch: SendWatch | undefined;
  /** The last promise a send of a response returned, already watched for failure (see `#write`). */
  #watchedSend: Promise<void> | undefined;
  /** What request contexts use to talk back: the untyped halves of `request` and `notify`. */
  readonly #host: ContextHost = {
    notify: (method, params, options) => this.#notify(method, params, options),
    request: (method, params, options) => this.#request(method, params, options, this.#nextId++),
  };

  readonly #inbound: InboundRequests<OutRequests, OutNotifications>;

  constructor(options: PeerOptions = {}) {
    this.#timeoutMs = options.requestTimeoutMs ?? DEFAULT_REQUEST_TIMEOUT_MS;
    const report = (this.#internalError = options.onInternalError ?? reportInternalError);
    this.#inbound = new InboundRequests({ write: (message, id) => this.#write(message, id), contextHost: this.#host, report });
  }

  /** The connected transport, if any. */
  get transport(): Transport | undefined {
    return this.#transport;
  }

  /**
   * Why the last transport closed, when it said (its `closeReason`, e.g. `SERVER_EXITED`); `undefined` after a
   * normal close and while connected. Kept after `onclose`, for the layer above to report.
   */
  get closeReason(): Error | undefined {
    return this.#closeReason;
  }

  /** Outbound requests awaiting a response (for diagnostics and tests). */
  get pendingCount(): number {
    return this.#pending.size;
  }

  /** Inbound requests being handled (for diagnostics and tests). */
  get inflightCount(): number {
    return this.#inbound.inflight.size;
  }

  /** Resolves once no inbound request is being handled (immediately when none is). */
  drain(): Promise<void> {
    return this.#inbound.inflight.idle();
  }

  /** Attaches a transport and starts it. A peer has one transport at a time; after it closes, connect again. */
  async connect(transport: Transport): Promise<void> {
    if (this.#transport) throw new LocalError('ALREADY_CONNECTED', 'This peer is already connected to a transport');
    this.#transport = transport;
    this.#closing = undefined;
    this.#closeReason = undefined;
    transport.onmessage = (message, info) => this.receive(message, info);
    transport.onerror = (error) => this.#onTransportError(error);
    transport.onclose = () => this.#onTransportClose(transport);
    transport.onend = () => this.#onInputEnd(transport);
    try {
      await transport.start();
    } catch (error) {
      // A transport that failed to start is not connected: let the caller connect another one.
      if (this.#transport === transport) {
        this.#transport = undefined;
        transport.onmessage = transport.onerror = transport.onclose = transport.onend = undefined;
      }
      throw error;
    }
  }

  /** Closes the transport; resolves once it is closed. Idempotent. */
  close(): Promise<void> {
    const transport = this.#transport;
    if (!transport) return Promise.resolve();
    this.#closing ??= transport.close();
    return this.#closing;
  }

  /** Registers the handler of inbound requests for `method`, replacing any previous one. */
  setRequestHandler<M extends keyof InRequests & string>(
    method: M,
    handler: RequestHandler<InRequests[M]['params'], InRequests[M]['result'], RequestContext<OutRequests, OutNotifications>>,
  ): void {
    this.#inbound.handlers.setRequest(method, handler as UntypedRequestHandler<RequestContext<OutRequests, OutNotifications>>);
  }

  /** Removes the handler of `method`; later requests for it get `-32601`. */
  removeRequestHandler(method: string): void {
    this.#inbound.handlers.setRequest(method, undefined);
  }

  /** True when a handler is registered for `method`. */
  hasRequestHandler(method: string): boolean {
    return this.#inbound.handlers.request(method) !== undefined;
  }

  /** Handles requests for methods with no handler of their own (instead of answering `-32601`). */
  setFallbackRequestHandler(handler: FallbackRequestHandler<RequestContext<OutRequests, OutNotifications>> | undefined): void {
    this.#inbound.handlers.fallback = handler;
  }

  /** Registers the handler of inbound notifications for `method`, replacing any previous one. */
  setNotificationHandler<M extends keyof InNotifications & string>(method: M, handler: NotificationHandler<InNotifications[M]>): void {
    this.#inbound.handlers.setNotification(method, handler as UntypedNotificationHandler);
  }

  /** Removes the notification handler of `method`. */
  removeNotificationHandler(method: string): void {
    this.#inbound.handlers.setNotification(method, undefined);
  }

  /** Sends a request and resolves with its result; rejects with an RpcError (peer) or a LocalError (here). */
  request<M extends keyof OutRequests & string>(
    method: M,
    params: OutRequests[M]['params'],
    options?: RequestOptions,
  ): Promise<OutRequests[M]['result']> {
    return this.#request(method, params as Params, options, this.#nextId++) as Promise<OutRequests[M]['result']>;
  }

  /**
   * {@link request}, also telling the id the request is sent with: what identifies a long-lived request to the
   * protocol (a `subscriptions/listen` stream is named by its request id, and cancelled by it).
   */
  startRequest<M extends keyof OutRequests & string>(
    method: M,
    params: OutRequests[M]['params'],
    options?: RequestOptions,
  ): { readonly id: RequestId; readonly result: Promise<OutRequests[M]['result']> } {
    const id = this.#nextId++;
    return { id, result: this.#request(method, params as Params, options, id) as Promise<OutRequests[M]['result']> };
  }

  #request(method: string, params: Params, options: RequestOptions | undefined, id: number): Promise<unknown> {
    const transport = this.#transport;
    if (!transport || this.#closing) {
      return Promise.reject(new LocalError('NOT_CONNECTED', `Cannot send '${method}': not connected`));
    }
    if (this.#inputEnded)
      return Promise.reject(new LocalError('CONNECTION_CLOSED', `Cannot send '${method}': the peer closed its side of the connection`));
    if (options?.signal?.aborted) return Promise.reject(abortError(options.signal.reason));
    return new Promise((resolve, reject) => {
      const pending = new PendingRequest(this.#pendingHost, id, method, options, this.#timeoutMs, resolve, reject);
      this.#pending.add(pending);
      const message = requestMessage(id, method, params, options);
      const relatedRequestId = options?.relatedRequestId;
      this.#watchRequestSend(transport.send(message, relatedRequestId === undefined ? undefined : { relatedRequestId }), pending);
    });
  }

  /**
   * Fails `pending` if its send fails. A transport may hand back one shared promise for every message it accepted
   * at once (the stdio writer returns the same resolved promise outside backpressure): the requests that got the
   * same promise share one handler, instead of a `.catch` (a promise, a closure and a microtask) per request,
   * about 4% of a pipelined stdio client's CPU per call.
   */
  #watchRequestSend(sent: Promise<void>, pending: PendingRequest): void {
    let watch = this.#sendWatch;
    if (watch === undefined || watch.promise !== sent) {
      const fresh: SendWatch = { promise: sent, waiting: [], failed: false, error: undefined };
      this.#sendWatch = watch = fresh;
      sent.then(
        () => {
          fresh.waiting = undefined;
        },
        (error: unknown) => {
          const waiting = fresh.waiting ?? [];
          fresh.waiting = undefined;
          fresh.failed = true;
          fresh.error = error;
          for (const each of waiting) this.#requestSendFailed(each, error);
        },
      );
    }
    if (watch.waiting !== undefined) watch.waiting.push(pending);
    else if (watch.failed) this.#requestSendFailed(pending, watch.error);
  }

  #requestSendFailed(pending: PendingRequest, error: unknown): void {
    this.#pending.remove(pending);
    pending.reject(
      error instanceof LocalError ? error : new LocalError('SEND_FAILED', `Could not send '${pending.method}'`, { cause: error }),
    );
  }

  /** Sends a notification. Rejects with a LocalError when it cannot be sent. */
  notify<M extends keyof OutNotifications & string>(method: M, params?: OutNotifications[M], options?: NotificationOptions): Promise<void> {
    return this.#notify(method, params as Params, options);
  }

  #notify(method: string, params: Params, options?: NotificationOptions): Promise<void> {
    const transport = this.#transport;
    if (!transport || this.#closing) {
      return Promise.reject(new LocalError('NOT_CONNECTED', `Cannot send '${method}': not connected`));
    }
    const message: RpcMessage = params === undefined ? { jsonrpc: '2.0', method } : { jsonrpc: '2.0', method, params };
    return transport.send(message, options?.relatedRequestId === undefined ? undefined : options);
  }

  /** Gives up on an outbound request (abort or timeout). */
  #abandon(pending: PendingRequest, reason: LocalError): void {
    if (pending.settled) return;
    this.#pending.remove(pending);
    pending.reject(reason);
    const transport = this.#transport;
    if (!transport || this.#closing) return;
    transport.cancelRequest?.(pending.id);
    if (pending.sendCancelled) {
      transport
        .send({ jsonrpc: '2.0', method: 'notifications/cancelled', params: { requestId: pending.id, reason: reason.message } })
        .catch(this.#onSendFailure);
    }
  }

  /**
   * Processes one value delivered by the transport. Public so that a layer above can feed messages that did
   * not come through `onmessage` (e.g. an HTTP handler); transports call it through `onmessage`.
   */
  receive(message: unknown, info?: MessageInfo): void {
    if (Array.isArray(message)) {
      this.#receiveBatch(message, info);
      return;
    }
    this.#receiveOne(message, info, undefined);
  }

  #receiveOne(message: unknown, info: MessageInfo | undefined, batch: BatchCollector | undefined): void {
    const kind = messageKind(message);
    const m = message as { id: RequestId; method: string; params: Params; result: unknown; error: unknown };
    if (kind === MessageKind.Request) this.#inbound.dispatch(m.id, m.method, m.params, info, batch);
    else if (kind === MessageKind.Notification) this.#onNotification(m.method, m.params, info);
    else if (kind === MessageKind.Result) this.#onResponse(m.id, m.result, undefined);
    else if (kind === MessageKind.Error) this.#onResponse(m.id, undefined, m.error);
    else this.#onInvalid(message, batch);
  }

  #receiveBatch(messages: unknown[], info: MessageInfo | undefined): void {
    if (!this.acceptBatches) {
      this.#write(batchRefused(), undefined);
      return;
    }
    receiveBatch(messages, info, {
      receiveOne: (message, batchInfo, collector) => this.#receiveOne(message, batchInfo, collector),
      write: (responses) => this.#write(responses, undefined),
    });
  }

  #write(message: RpcMessage | RpcMessage[], relatedRequestId: RequestId | undefined): void {
    const transport = this.#transport;
    if (!transport) return;
    const sent = transport.send(message, relatedRequestId === undefined ? undefined : { relatedRequestId });
    // A transport may hand back one shared promise for every message it accepted at once (the stdio writer
    // does): the handler attached to it the first time covers it. Attaching another per response would cost a
    // promise reaction and a microtask each, about 3% of a stdio server's CPU per call.
    if (sent === this.#watchedSend) return;
    this.#watchedSend = sent;
    sent.catch(this.#onSendFailure);
  }

  #onNotification(method: string, params: Params, info: MessageInfo | undefined): void {
    if (method === PROGRESS) this.#pending.progress(params);
    this.onnotification?.(method, params, info);
    this.#inbound.notify(method, params, info);
  }

  #onResponse(id: RequestId, result: unknown, error: unknown): void {
    if (this.#pending.settle(id, result, error)) return;
    this.onerror?.(
      new LocalError('PROTOCOL_VIOLATION', `Received a response for unknown request id ${quoteInput(id)}`, { details: { id } }),
    );
  }

  #onInvalid(message: unknown, batch: BatchCollector | undefined): void {
    if (isBrokenResponse(message)) {
      // Answering a broken response could bounce between two broken peers; report it locally instead.
      this.onerror?.(new LocalError('PROTOCOL_VIOLATION', 'Received a malformed response', { details: message }));
      return;
    }
    const invalid = describeInvalid(message);
    this.#inbound.respondError(batch, invalid.id, invalid.code, invalid.message);
  }

  #onTransportError(error: Error): void {
    const answer = error instanceof LocalError ? answerForTransportError(error) : undefined;
    if (answer) this.#inbound.respondError(undefined, null, answer.code, answer.message);
    this.onerror?.(error);
  }

  /** Input ended: nothing more will arrive, so answers to our requests never will; finish the rest, then close. */
  #onInputEnd(transport: Transport): void {
    if (this.#transport !== transport || this.#inputEnded) return;
    this.#inputEnded = true;
    const ended = new LocalError('CONNECTION_CLOSED', 'The peer closed its side of the connection');
    this.#pending.rejectAll(ended);
    try {
      this.oninputend?.();
    } catch (error) {
      this.#internalError(error, {});
    }
    void this.#inbound.inflight.idle().then(() => this.close());
  }

  #onTransportClose(transport: Transport): void {
    if (this.#transport !== transport) return;
    this.#transport = undefined;
    this.#inputEnded = false;
    const reason = transport.closeReason;
    this.#closeReason = reason;
    const closed = connectionClosedError(reason);
    this.#pending.rejectAll(closed);
    this.#inbound.inflight.cancelAll(closed);
    transport.onmessage = transport.onerror = transport.onclose = transport.onend = undefined;
    this.onclose?.();
  }
}
