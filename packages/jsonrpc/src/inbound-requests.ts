import {
  ErrorCode,
  methodNotFound,
  quoteInput,
  type JsonObject,
  type RequestId,
  type RpcMessage,
  type RpcResponse,
} from '@wiremcp/protocol';
import { errorObjectFor, type InternalErrorReporter } from './error-object.js';
import { HandlerTable } from './handler-table.js';
import { InflightRequests } from './inflight-requests.js';
import { cancelledByPeer, RequestContext, type BatchCollector, type ContextHost } from './request-context.js';
import type { MessageInfo } from './transport.js';
import type { AnyNotifications, AnyRequests, NotificationMap, RequestMap } from './types.js';

type Params = Record<string, unknown> | undefined;

/** What the inbound side of a peer needs from it. */
export interface InboundHost {
  /** Hands an answer to the transport. */
  write(message: RpcMessage | RpcMessage[], relatedRequestId: RequestId | undefined): void;
  /** What request contexts use to talk back. */
  readonly contextHost: ContextHost;
  readonly report: InternalErrorReporter;
}

/**
 * The inbound half of a peer: the handlers, the requests in flight, and answering each request exactly once —
 * with its result, the error it threw, or nothing when it was cancelled. A handler that returns a plain value is
 * answered synchronously.
 */
export class InboundRequests<
  OutRequests extends RequestMap<OutRequests> = AnyRequests,
  OutNotifications extends NotificationMap<OutNotifications> = AnyNotifications,
> {
  readonly handlers = new HandlerTable<RequestContext<OutRequests, OutNotifications>>();
  readonly inflight = new InflightRequests();
  readonly #host: InboundHost;

  constructor(host: InboundHost) {
    this.#host = host;
  }

  /** Serves one request: refuses a duplicate id or an unknown method, otherwise runs its handler. */
  dispatch(id: RequestId, method: string, params: Params, info: MessageInfo | undefined, batch: BatchCollector | undefined): void {
    const inflight = this.inflight;
    if (inflight.has(id)) {
      const message = `Invalid request: id ${quoteInput(id)} is already in use by a request in progress`;
      this.respondError(batch, id, ErrorCode.InvalidRequest, message);
      return;
    }
    // One lookup: a server routes everything through the fallback and registers no per-method handler.
    const handlers = this.handlers;
    const handler = handlers.request(method);
    const fallback = handlers.fallback;
    if (handler === undefined && fallback === undefined) {
      this.respondError(batch, id, ErrorCode.MethodNotFound, methodNotFound(method).message);
      return;
    }
    const context = new RequestContext<OutRequests, OutNotifications>(this.#host.contextHost, id, method, params, info, batch);
    inflight.begin(context);
    let outcome: unknown;
    try {
      outcome = handler !== undefined ? handler(params, context) : fallback!(method, params, context);
    } catch (error) {
      this.#fail(context, error);
      return;
    }
    if (typeof (outcome as PromiseLike<unknown> | undefined)?.then === 'function') {
      inflight.suspend(context);
      (outcome as Promise<unknown>).then(
        (result) => this.#succeed(context, result),
        (error: unknown) => this.#fail(context, error),
      );
    } else {
      this.#succeed(context, outcome);
    }
  }

  /** Delivers a notification to its handler; `notifications/cancelled` first cancels the request it names. */
  notify(method: string, params: Params, info: MessageInfo | undefined): void {
    if (method === 'notifications/cancelled') {
      const requestId = params?.requestId;
      if (requestId !== undefined && this.inflight.has(requestId as RequestId)) {
        this.inflight.cancel(requestId as RequestId, cancelledByPeer(params?.reason));
      }
    }
    this.handlers.notify(method, params, info, (error) => this.#host.report(error, { method }));
  }

  /** Answers with an error object built here (not by a handler). */
  respondError(batch: BatchCollector | undefined, id: RequestId | null, code: number, message: string): void {
    const response: RpcResponse = { jsonrpc: '2.0', id, error: { code, message } };
    if (batch) batch.add(response);
    else this.#host.write(response, id ?? undefined);
  }

  #succeed(context: RequestContext<OutRequests, OutNotifications>, result: unknown): void {
    if (this.inflight.finish(context)) this.#answer(context, { jsonrpc: '2.0', id: context.id, result: (result ?? {}) as JsonObject });
  }

  #fail(context: RequestContext<OutRequests, OutNotifications>, error: unknown): void {
    if (!this.inflight.finish(context)) return;
    this.#answer(context, { jsonrpc: '2.0', id: context.id, error: errorObjectFor(error, this.#host.report, context) });
  }

  #answer(context: RequestContext<OutRequests, OutNotifications>, response: RpcResponse): void {
    if (context.batch) context.batch.add(response);
    else this.#host.write(response, context.id);
  }
}
