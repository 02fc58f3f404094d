import { ErrorCode, LocalError, RpcError, type RequestId, type RpcErrorObject, type RpcMessage } from '@wiremcp/protocol';
import { receiveBatch } from './batch.js';
import { answerForTransportError, describeInvalid, isBrokenResponse, MessageKind, messageKind } from './classify.js';
import { abortError, DEFAULT_REQUEST_TIMEOUT_MS, PendingRequest, type PendingHost } from './outbound.js';
import { HandlerTable, type UntypedNotificationHandler, type UntypedRequestHandler } from './handler-table.js';
import { InflightRequests } from './inflight-requests.js';
import { PendingRequests } from './pending-requests.js';
import { cancelledByPeer, RequestContext, type BatchCollector, type ContextHost } from './request-context.js';
import { reportInternalError } from './internal-error.js';
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

const CANCELLED = 'notifications/cancelled';
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
> implements PendingHost {
  /** Called once when the connection closes. */
  onclose: (() => void) | undefined;
  /**
   * Called when the transport's input ends (stdin EOF) while output is still open: the last moment to tell the
   * other side something (e.g. end subscription streams) before in-flight requests finish and the peer closes.
   */
  oninputend: (() => void) | undefined;
  /** Called with transport errors and protocol violations by the peer (informational). */
  onerror: ((error: Error) => void) | undefined;
  /** Whether inbound JSON-RPC batches are accepted (2025-03-26 only); the layer above sets it on negotiation. */
  acceptBatches = false;

  readonly #handlers = new HandlerTable();
  readonly #pending = new PendingRequests((pending, error) => this.abandon(pending, error));
  readonly #inflight = new InflightRequests();
  readonly #timeoutMs: number;
  readonly #internalError: NonNullable<PeerOptions['onInternalError']>;
  #transport: Transport | undefined;
  #inputEnded = false;
  #nextId = 0;
  #closing: Promise<void> | undefined;
  readonly #onSendFailure = (error: unknown): void => this.#internalError(error, {});
  /** What request contexts use to talk back: the untyped halves of `request` and `notify`. */
  readonly #host: ContextHost = {
    notify: (method, params, options) => this.#notify(method, params, options),
    request: (method, params, options) => this.#request(method, params, options),
  };

  constructor(options: PeerOptions = {}) {
    this.#timeoutMs = options.requestTimeoutMs ?? DEFAULT_REQUEST_TIMEOUT_MS;
    this.#internalError = options.onInternalError ?? reportInternalError;
  }

  /** The connected transport, if any. */
  get transport(): Transport | undefined {
    return this.#transport;
  }

  /** Outbound requests awaiting a response (for diagnostics and tests). */
  get pendingCount(): number {
    return this.#pending.size;
  }

  /** Inbound requests being handled (for diagnostics and tests). */
  get inflightCount(): number {
    return this.#inflight.size;
  }

  /** Resolves once no inbound request is being handled (immediately when none is). */
  drain(): Promise<void> {
    return this.#inflight.idle();
  }

  /** Attaches a transport and starts it. A peer has one transport at a time; after it closes, connect again. */
  async connect(transport: Transport): Promise<void> {
    if (this.#transport) throw new LocalError('ALREADY_CONNECTED', 'This peer is already connected to a transport');
    this.#transport = transport;
    this.#closing = undefined;
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
    handler: RequestHandler<InRequests[M]['params'], InRequests[M]['result']>,
  ): void {
    this.#handlers.requests.set(method, handler as UntypedRequestHandler);
  }

  /** Removes the handler of `method`; later requests for it get `-32601`. */
  removeRequestHandler(method: string): void {
    this.#handlers.requests.delete(method);
  }

  /** True when a handler is registered for `method`. */
  hasRequestHandler(method: string): boolean {
    return this.#handlers.requests.has(method);
  }

  /** Handles requests for methods with no handler of their own (instead of answering `-32601`). */
  setFallbackRequestHandler(handler: FallbackRequestHandler | undefined): void {
    this.#handlers.fallback = handler;
  }

  /** Registers the handler of inbound notifications for `method`, replacing any previous one. */
  setNotificationHandler<M extends keyof InNotifications & string>(method: M, handler: NotificationHandler<InNotifications[M]>): void {
    this.#handlers.notifications.set(method, handler as UntypedNotificationHandler);
  }

  /** Removes the notification handler of `method`. */
  removeNotificationHandler(method: string): void {
    this.#handlers.notifications.delete(method);
  }

  /** Sends a request and resolves with its result; rejects with an RpcError (peer) or a LocalError (here). */
  request<M extends keyof OutRequests & string>(
    method: M,
    params: OutRequests[M]['params'],
    options?: RequestOptions,
  ): Promise<OutRequests[M]['result']>;
  request(method: string, params: unknown, options?: RequestOptions): Promise<unknown> {
    return this.#request(method, params as Params, options);
  }

  #request(method: string, params: Params, options?: RequestOptions): Promise<unknown> {
    const transport = this.#transport;
    if (!transport || this.#closing) {
      return Promise.reject(new LocalError('NOT_CONNECTED', `Cannot send '${method}': not connected`));
    }
    if (this.#inputEnded)
      return Promise.reject(new LocalError('CONNECTION_CLOSED', `Cannot send '${method}': the peer closed its side of the connection`));
    if (options?.signal?.aborted) return Promise.reject(abortError(options.signal.reason));
    const id = this.#nextId++;
    let outParams = params;
    if (options?.onprogress) {
      const meta = params?._meta as Record<string, unknown> | undefined;
      outParams = { ...params, _meta: { ...meta, progressToken: id } };
    }
    return new Promise((resolve, reject) => {
      const pending = new PendingRequest(this, id, method, options, this.#timeoutMs, resolve, reject);
      this.#pending.add(pending);
      const message: RpcMessage =
        outParams === undefined ? { jsonrpc: '2.0', id, method } : { jsonrpc: '2.0', id, method, params: outParams };
      const relatedRequestId = options?.relatedRequestId;
      transport.send(message, relatedRequestId === undefined ? undefined : { relatedRequestId }).catch((error: unknown) => {
        this.#pending.remove(pending);
        pending.reject(error instanceof LocalError ? error : new LocalError('SEND_FAILED', `Could not send '${method}'`, { cause: error }));
      });
    });
  }

  /** Sends a notification. Rejects with a LocalError when it cannot be sent. */
  notify<M extends keyof OutNotifications & string>(method: M, params?: OutNotifications[M], options?: NotificationOptions): Promise<void>;
  notify(method: string, params?: unknown, options?: NotificationOptions): Promise<void> {
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

  /** @internal PendingHost: gives up on an outbound request (abort or timeout). */
  abandon(pending: PendingRequest, reason: LocalError): void {
    if (pending.settled) return;
    this.#pending.remove(pending);
    pending.reject(reason);
    const transport = this.#transport;
    if (!transport || this.#closing) return;
    transport.cancelRequest?.(pending.id);
    if (pending.sendCancelled) {
      transport
        .send({ jsonrpc: '2.0', method: CANCELLED, params: { requestId: pending.id, reason: reason.message } })
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
    if (kind === MessageKind.Request) this.#dispatch(m.id, m.method, m.params, info, batch);
    else if (kind === MessageKind.Notification) this.#onNotification(m.method, m.params, info);
    else if (kind === MessageKind.Result) this.#onResponse(m.id, m.result, undefined);
    else if (kind === MessageKind.Error) this.#onResponse(m.id, undefined, m.error);
    else this.#onInvalid(message, batch);
  }

  #receiveBatch(messages: unknown[], info: MessageInfo | undefined): void {
    if (!this.acceptBatches) {
      this.#respondError(
        undefined,
        null,
        ErrorCode.InvalidRequest,
        'Invalid request: JSON-RPC batches are not supported by the negotiated protocol version',
      );
      return;
    }
    receiveBatch(messages, info, {
      receiveOne: (message, batchInfo, collector) => this.#receiveOne(message, batchInfo, collector),
      write: (responses) => this.#write(responses, undefined),
    });
  }

  #dispatch(id: RequestId, method: string, params: Params, info: MessageInfo | undefined, batch: BatchCollector | undefined): void {
    if (this.#inflight.has(id)) {
      this.#respondError(
        batch,
        id,
        ErrorCode.InvalidRequest,
        `Invalid request: id ${JSON.stringify(id)} is already in use by a request in progress`,
      );
      return;
    }
    if (!this.#handlers.serves(method)) {
      this.#respondError(batch, id, ErrorCode.MethodNotFound, `Method not found: ${method}`);
      return;
    }
    const context = new RequestContext(this.#host, id, method, params, info, batch);
    this.#inflight.add(context);
    let outcome: unknown;
    try {
      outcome = this.#handlers.run(method, params, context);
    } catch (error) {
      this.#fail(context, error);
      return;
    }
    if (typeof (outcome as PromiseLike<unknown> | undefined)?.then === 'function') {
      (outcome as Promise<unknown>).then(
        (result) => this.#succeed(context, result),
        (error: unknown) => this.#fail(context, error),
      );
    } else {
      this.#succeed(context, outcome);
    }
  }

  #succeed(context: RequestContext, result: unknown): void {
    if (!this.#inflight.finish(context)) return;
    const response = { jsonrpc: '2.0' as const, id: context.id, result: (result ?? {}) as Record<string, unknown> };
    if (context.batch) context.batch.add(response);
    else this.#write(response, context.id);
  }

  #fail(context: RequestContext, error: unknown): void {
    if (!this.#inflight.finish(context)) return;
    let wire: RpcErrorObject;
    if (error instanceof RpcError) {
      wire = error.toJSON();
    } else {
      this.#internalError(error, { method: context.method, id: context.id });
      wire = { code: ErrorCode.InternalError, message: 'Internal error' };
    }
    const response = { jsonrpc: '2.0' as const, id: context.id, error: wire };
    if (context.batch) context.batch.add(response);
    else this.#write(response, context.id);
  }

  #respondError(batch: BatchCollector | undefined, id: RequestId | null, code: number, message: string): void {
    const response = { jsonrpc: '2.0' as const, id, error: { code, message } };
    if (batch) batch.add(response);
    else this.#write(response, id ?? undefined);
  }

  #write(message: RpcMessage | RpcMessage[], relatedRequestId: RequestId | undefined): void {
    const transport = this.#transport;
    if (!transport) return;
    transport.send(message, relatedRequestId === undefined ? undefined : { relatedRequestId }).catch(this.#onSendFailure);
  }

  #onNotification(method: string, params: Params, info: MessageInfo | undefined): void {
    if (method === CANCELLED) {
      const requestId = params?.requestId;
      if (requestId !== undefined && this.#inflight.has(requestId as RequestId)) {
        this.#inflight.cancel(requestId as RequestId, cancelledByPeer(params?.reason));
      }
    } else if (method === PROGRESS) {
      this.#pending.progress(params);
    }
    this.#handlers.notify(method, params, info, (error) => this.#internalError(error, { method }));
  }

  #onResponse(id: RequestId, result: unknown, error: unknown): void {
    if (this.#pending.settle(id, result, error)) return;
    this.onerror?.(
      new LocalError('PROTOCOL_VIOLATION', `Received a response for unknown request id ${JSON.stringify(id)}`, { details: { id } }),
    );
  }

  #onInvalid(message: unknown, batch: BatchCollector | undefined): void {
    if (isBrokenResponse(message)) {
      // Answering a broken response could bounce between two broken peers; report it locally instead.
      this.onerror?.(new LocalError('PROTOCOL_VIOLATION', 'Received a malformed response', { details: message }));
      return;
    }
    const invalid = describeInvalid(message);
    this.#respondError(batch, invalid.id, invalid.code, invalid.message);
  }

  #onTransportError(error: Error): void {
    const answer = error instanceof LocalError ? answerForTransportError(error) : undefined;
    if (answer) this.#respondError(undefined, null, answer.code, answer.message);
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
    void this.#inflight.idle().then(() => this.close());
  }

  #onTransportClose(transport: Transport): void {
    if (this.#transport !== transport) return;
    this.#transport = undefined;
    this.#inputEnded = false;
    const reason = transport.closeReason;
    const closed =
      reason instanceof LocalError
        ? reason
        : new LocalError(
            'CONNECTION_CLOSED',
            reason ? `Connection closed: ${reason.message}` : 'Connection closed',
            reason ? { cause: reason } : undefined,
          );
    this.#pending.rejectAll(closed);
    this.#inflight.cancelAll(closed);
    transport.onmessage = transport.onerror = transport.onclose = transport.onend = undefined;
    this.onclose?.();
  }
}
