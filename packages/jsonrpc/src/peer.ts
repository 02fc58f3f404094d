import {
  ErrorCode,
  LocalError,
  RpcError,
  type RequestId,
  type RpcErrorObject,
  type RpcMessage,
} from '@wiremcp/protocol';
import { receiveBatch } from './batch.js';
import { describeInvalid, MessageKind, messageKind } from './classify.js';
import { abortError, DEFAULT_REQUEST_TIMEOUT_MS, PendingRequest, type PendingHost } from './outbound.js';
import { cancelledByPeer, RequestContext, type BatchCollector, type ContextHost } from './request-context.js';
import type { MessageInfo, Transport } from './transport.js';
import type {
  AnyNotifications,
  AnyRequests,
  FallbackRequestHandler,
  NotificationHandler,
  NotificationMap,
  NotificationOptions,
  RequestHandler,
  RequestMap,
  RequestOptions,
} from './types.js';

/** Options of a {@link Peer}. */
export interface PeerOptions {
  /** Default timeout of outbound requests in ms (default 60 000; `0` disables). */
  requestTimeoutMs?: number;
  /**
   * Receives failures that are not sent to the peer in full: handler exceptions (the peer gets a bare
   * `-32603 Internal error`), send failures, unexpected responses. Defaults to `console.error` (stderr in Node).
   */
  onInternalError?: (error: unknown, context: { method?: string; id?: RequestId | null }) => void;
}

type Params = Record<string, unknown> | undefined;
type Untyped = (params: Params, context: RequestContext) => unknown;
type UntypedNotification = (params: Params, info: MessageInfo | undefined) => void | Promise<void>;

const CANCELLED = 'notifications/cancelled';
const PROGRESS = 'notifications/progress';

function defaultInternalError(error: unknown, context: { method?: string; id?: RequestId | null }): void {
  const where = context.method ? ` (${context.method}${context.id !== undefined ? ` #${String(context.id)}` : ''})` : '';
  console.error(`[wiremcp] internal error${where}:`, error);
}

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
  /** Called with transport errors and protocol violations by the peer (informational). */
  onerror: ((error: Error) => void) | undefined;
  /** Whether inbound JSON-RPC batches are accepted (2025-03-26 only); the layer above sets it on negotiation. */
  acceptBatches = false;

  readonly #requestHandlers = new Map<string, Untyped>();
  readonly #notificationHandlers = new Map<string, UntypedNotification>();
  #fallback: FallbackRequestHandler | undefined;
  readonly #pending = new Map<RequestId, PendingRequest>();
  readonly #inflight = new Map<RequestId, RequestContext>();
  readonly #timeoutMs: number;
  readonly #internalError: NonNullable<PeerOptions['onInternalError']>;
  #transport: Transport | undefined;
  #inputEnded = false;
  #drainWaiters: Array<() => void> = [];
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
    this.#internalError = options.onInternalError ?? defaultInternalError;
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
    if (this.#inflight.size === 0) return Promise.resolve();
    return new Promise((resolve) => this.#drainWaiters.push(resolve));
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
    this.#requestHandlers.set(method, handler as Untyped);
  }

  /** Removes the handler of `method`; later requests for it get `-32601`. */
  removeRequestHandler(method: string): void {
    this.#requestHandlers.delete(method);
  }

  /** True when a handler is registered for `method`. */
  hasRequestHandler(method: string): boolean {
    return this.#requestHandlers.has(method);
  }

  /** Handles requests for methods with no handler of their own (instead of answering `-32601`). */
  setFallbackRequestHandler(handler: FallbackRequestHandler | undefined): void {
    this.#fallback = handler;
  }

  /** Registers the handler of inbound notifications for `method`, replacing any previous one. */
  setNotificationHandler<M extends keyof InNotifications & string>(
    method: M,
    handler: NotificationHandler<InNotifications[M]>,
  ): void {
    this.#notificationHandlers.set(method, handler as UntypedNotification);
  }

  /** Removes the notification handler of `method`. */
  removeNotificationHandler(method: string): void {
    this.#notificationHandlers.delete(method);
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
    if (this.#inputEnded) return Promise.reject(new LocalError('CONNECTION_CLOSED', `Cannot send '${method}': the peer closed its side of the connection`));
    if (options?.signal?.aborted) return Promise.reject(abortError(options.signal.reason));
    const id = this.#nextId++;
    let outParams = params;
    if (options?.onprogress) {
      const meta = params?._meta as Record<string, unknown> | undefined;
      outParams = { ...params, _meta: { ...meta, progressToken: id } };
    }
    return new Promise((resolve, reject) => {
      const pending = new PendingRequest(this, id, method, options, this.#timeoutMs, resolve, reject);
      this.#pending.set(id, pending);
      const message: RpcMessage =
        outParams === undefined ? { jsonrpc: '2.0', id, method } : { jsonrpc: '2.0', id, method, params: outParams };
      const relatedRequestId = options?.relatedRequestId;
      transport.send(message, relatedRequestId === undefined ? undefined : { relatedRequestId }).catch((error: unknown) => {
        if (this.#pending.get(id) === pending) this.#pending.delete(id);
        pending.reject(
          error instanceof LocalError ? error : new LocalError('SEND_FAILED', `Could not send '${method}'`, { cause: error }),
        );
      });
    });
  }

  /** Sends a notification. Rejects with a LocalError when it cannot be sent. */
  notify<M extends keyof OutNotifications & string>(
    method: M,
    params?: OutNotifications[M],
    options?: NotificationOptions,
  ): Promise<void>;
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
    if (this.#pending.get(pending.id) === pending) this.#pending.delete(pending.id);
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
    switch (kind) {
      case MessageKind.Request:
        this.#dispatch(m.id, m.method, m.params, info, batch);
        return;
      case MessageKind.Notification:
        this.#onNotification(m.method, m.params, info);
        return;
      case MessageKind.Result:
        this.#onResponse(m.id, m.result, undefined);
        return;
      case MessageKind.Error:
        this.#onResponse(m.id, undefined, m.error);
        return;
      default:
        this.#onInvalid(message, batch);
    }
  }

  #receiveBatch(messages: unknown[], info: MessageInfo | undefined): void {
    if (!this.acceptBatches) {
      this.#sendError(null, ErrorCode.InvalidRequest, 'Invalid request: JSON-RPC batches are not supported by the negotiated protocol version', undefined);
      return;
    }
    receiveBatch(messages, info, {
      receiveOne: (message, batchInfo, collector) => this.#receiveOne(message, batchInfo, collector),
      write: (responses) => this.#write(responses, undefined),
    });
  }

  #dispatch(id: RequestId, method: string, params: Params, info: MessageInfo | undefined, batch: BatchCollector | undefined): void {
    if (this.#inflight.has(id)) {
      this.#respondError(batch, id, ErrorCode.InvalidRequest, `Invalid request: id ${JSON.stringify(id)} is already in use by a request in progress`);
      return;
    }
    const context = new RequestContext(this.#host, id, method, params, info, batch);
    const handler = this.#requestHandlers.get(method);
    if (handler === undefined && this.#fallback === undefined) {
      this.#respondError(batch, id, ErrorCode.MethodNotFound, `Method not found: ${method}`);
      return;
    }
    this.#inflight.set(id, context);
    let outcome: unknown;
    try {
      outcome = handler !== undefined ? handler(params, context) : this.#fallback!(method, params, context);
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
    if (!this.#finish(context)) return;
    const response = { jsonrpc: '2.0' as const, id: context.id, result: (result ?? {}) as Record<string, unknown> };
    if (context.batch) context.batch.add(response);
    else this.#write(response, context.id);
  }

  #fail(context: RequestContext, error: unknown): void {
    if (!this.#finish(context)) return;
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

  /** Ends an in-flight request; false when its response must not be sent (cancelled, or connection gone). */
  #finish(context: RequestContext): boolean {
    if (this.#inflight.get(context.id) === context) this.#inflight.delete(context.id);
    if (this.#inflight.size === 0) {
      if (this.#drainWaiters.length > 0) {
        const waiters = this.#drainWaiters;
        this.#drainWaiters = [];
        // After the response below has been handed to the transport.
        queueMicrotask(() => waiters.forEach((resolve) => resolve()));
      }
      if (this.#inputEnded) queueMicrotask(() => void this.close());
    }
    if (context.cancelled) {
      context.batch?.add(undefined);
      return false;
    }
    return true;
  }

  #respondError(batch: BatchCollector | undefined, id: RequestId | null, code: number, message: string): void {
    const response = { jsonrpc: '2.0' as const, id, error: { code, message } };
    if (batch) batch.add(response);
    else this.#write(response, id ?? undefined);
  }

  #sendError(id: RequestId | null, code: number, message: string, data: unknown): void {
    const error: RpcErrorObject = data === undefined ? { code, message } : { code, message, data };
    this.#write({ jsonrpc: '2.0', id, error }, undefined);
  }

  #write(message: RpcMessage | RpcMessage[], relatedRequestId: RequestId | undefined): void {
    const transport = this.#transport;
    if (!transport) return;
    transport.send(message, relatedRequestId === undefined ? undefined : { relatedRequestId }).catch(this.#onSendFailure);
  }

  #onNotification(method: string, params: Params, info: MessageInfo | undefined): void {
    if (method === CANCELLED) {
      const requestId = params?.requestId;
      if (requestId !== undefined) {
        const context = this.#inflight.get(requestId as RequestId);
        if (context) {
          // The entry stays until the handler settles, so #finish can account for it (and its batch) once.
          context.cancel(cancelledByPeer(params?.reason));
        }
      }
    } else if (method === PROGRESS) {
      const token = params?.progressToken;
      const pending = token === undefined ? undefined : this.#pending.get(token as RequestId);
      if (pending?.onprogress && typeof params?.progress === 'number') {
        pending.progress({
          progress: params.progress,
          ...(typeof params.total === 'number' ? { total: params.total } : {}),
          ...(typeof params.message === 'string' ? { message: params.message } : {}),
        });
      }
    }
    const handler = this.#notificationHandlers.get(method);
    if (!handler) return;
    try {
      const outcome = handler(params, info);
      if (outcome && typeof outcome.then === 'function') {
        outcome.then(undefined, (error: unknown) => this.#internalError(error, { method }));
      }
    } catch (error) {
      this.#internalError(error, { method });
    }
  }

  #onResponse(id: RequestId, result: unknown, error: unknown): void {
    const pending = this.#pending.get(id);
    if (!pending) {
      this.onerror?.(
        new LocalError('PROTOCOL_VIOLATION', `Received a response for unknown request id ${JSON.stringify(id)}`, {
          details: { id },
        }),
      );
      return;
    }
    this.#pending.delete(id);
    if (error !== undefined) pending.reject(RpcError.fromJSON(error));
    else if (typeof result !== 'object' || result === null || Array.isArray(result)) {
      pending.reject(new LocalError('INVALID_RESULT', `The result of '${pending.method}' is not an object`, { details: result }));
    } else pending.resolve(result);
  }

  #onInvalid(message: unknown, batch: BatchCollector | undefined): void {
    const looksLikeResponse =
      typeof message === 'object' && message !== null && ('result' in message || 'error' in message) && !('method' in message);
    if (looksLikeResponse) {
      // Answering a broken response could bounce between two broken peers; report it locally instead.
      this.onerror?.(new LocalError('PROTOCOL_VIOLATION', 'Received a malformed response', { details: message }));
      return;
    }
    const invalid = describeInvalid(message);
    this.#respondError(batch, invalid.id, invalid.code, invalid.message);
  }

  #onTransportError(error: Error): void {
    if (error instanceof LocalError) {
      if (error.code === 'PARSE_ERROR') {
        this.#sendError(null, ErrorCode.ParseError, `Parse error: ${error.message}`, undefined);
      } else if (error.code === 'FRAME_TOO_LARGE') {
        this.#sendError(null, ErrorCode.InvalidRequest, `Invalid request: ${error.message}`, undefined);
      }
    }
    this.onerror?.(error);
  }

  /** Input ended: nothing more will arrive, so answers to our requests never will; finish the rest, then close. */
  #onInputEnd(transport: Transport): void {
    if (this.#transport !== transport || this.#inputEnded) return;
    this.#inputEnded = true;
    const ended = new LocalError('CONNECTION_CLOSED', 'The peer closed its side of the connection');
    const pending = [...this.#pending.values()];
    this.#pending.clear();
    for (const request of pending) request.reject(ended);
    if (this.#inflight.size === 0) void this.close();
  }

  #onTransportClose(transport: Transport): void {
    if (this.#transport !== transport) return;
    this.#transport = undefined;
    this.#inputEnded = false;
    const reason = transport.closeReason;
    const closed = reason instanceof LocalError ? reason : new LocalError('CONNECTION_CLOSED', reason ? `Connection closed: ${reason.message}` : 'Connection closed', reason ? { cause: reason } : undefined);
    const pending = [...this.#pending.values()];
    this.#pending.clear();
    for (const request of pending) request.reject(closed);
    const inflight = [...this.#inflight.values()];
    this.#inflight.clear();
    for (const context of inflight) context.cancel(closed);
    const waiters = this.#drainWaiters;
    this.#drainWaiters = [];
    for (const resolve of waiters) resolve();
    transport.onmessage = undefined;
    transport.onerror = undefined;
    transport.onclose = undefined;
    transport.onend = undefined;
    this.onclose?.();
  }
}
