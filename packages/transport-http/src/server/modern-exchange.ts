/**
 * Serving one 2026-07-28 POST: the server's `dispatch`, cancelled when the client goes away, answered as JSON when nothing was
 * streamed, or as a request-scoped SSE stream from the first notification on (a `subscriptions/listen` always
 * streams). Closing that stream is cancellation: the dispatch is aborted and nothing more is sent.
 */
import type { MessageInfo } from '@wiremcp/jsonrpc';
import { LocalError, type RpcNotification, type RpcRequest, type RpcResponse } from '@wiremcp/protocol';
import { encodeSseMessage } from '../sse/encode.js';
import { emptyResponse, jsonResponse, modernStatusFor, retryAfterHeaders, rpcErrorResponse } from './responses.js';
import type { HttpDispatchExchange, HttpServable } from './servable.js';
import type { SseConnection, SsePool } from './sse-connection.js';
import type { HttpReply, HttpRequest } from './adapter-contract.js';

/** What serving a 2026-07-28 request needs from the handler. */
export interface ModernHost {
  readonly server: HttpServable;
  readonly pool: SsePool;
  readonly report: (error: unknown) => void;
}

const CANCELLED = new LocalError('REQUEST_CANCELLED', 'The client closed the request');

/**
 * What one 2026-07-28 request hands to `dispatch`. Cancellation (the client went away, or its stream closed) reaches
 * the server through `cancellable`, which costs nothing per request; a `signal` is made only for a servable that
 * reads it (one that predates `cancellable`). A class, not an object literal with a getter: a literal's accessor is
 * a new closure per request, which keeps the request alive across collections.
 */
class ModernExchange implements HttpDispatchExchange {
  readonly info: MessageInfo;
  readonly notify: (notification: RpcNotification) => void;
  #cancelled = false;
  #cancelRequest: ((reason: unknown) => void) | undefined;
  #controller: AbortController | undefined;

  constructor(info: MessageInfo, notify: (notification: RpcNotification) => void) {
    this.info = info;
    this.notify = notify;
  }

  /** True once the request was cancelled. */
  get cancelled(): boolean {
    return this.#cancelled;
  }

  get signal(): AbortSignal {
    if (this.#controller === undefined) {
      this.#controller = new AbortController();
      if (this.#cancelled) this.#controller.abort(CANCELLED);
    }
    return this.#controller.signal;
  }

  cancellable(cancelRequest: (reason: unknown) => void): void {
    this.#cancelRequest = cancelRequest;
    if (this.#cancelled) cancelRequest(CANCELLED);
  }

  /** Cancels the request (idempotent). */
  cancel(): void {
    if (this.#cancelled) return;
    this.#cancelled = true;
    this.#controller?.abort(CANCELLED);
    this.#cancelRequest?.(CANCELLED);
  }
}

/** Serves a 2026-07-28 notification: dispatched, then 202. */
export async function serveModernNotification(host: ModernHost, message: RpcNotification, info: MessageInfo): Promise<HttpReply> {
  await host.server.dispatch(message, { info, notify: () => {} });
  return emptyResponse(202);
}

/** Serves a 2026-07-28 request; see the module comment. */
export function serveModernRequest(host: ModernHost, message: RpcRequest, info: MessageInfo, request: HttpRequest): Promise<HttpReply> {
  const listen = message.method === 'subscriptions/listen';
  if (listen && !host.pool.hasRoom()) {
    return Promise.resolve(
      rpcErrorResponse(503, message.id, -32603, 'Too many open streams; try again later', undefined, { 'retry-after': '5' }),
    );
  }
  return new Promise<HttpReply>((resolve) => {
    let connection: SseConnection | undefined;
    let settled = false;
    const answer = (response: HttpReply): void => {
      if (settled) return;
      settled = true;
      resolve(response);
    };
    const openStream = (): SseConnection | undefined => {
      if (connection !== undefined) return connection;
      if (settled || !host.pool.hasRoom()) return undefined;
      connection = host.pool.open();
      // Closed by the client (cancellation), or by the handler shutting down: either way the request is over.
      connection.onclosed = () => exchange.cancel();
      answer(connection.response);
      return connection;
    };
    const exchange = new ModernExchange(info, (notification) => {
      // Without room for a stream, request-scoped notifications (progress, logs) are dropped; the answer is JSON.
      openStream()?.write(encodeSseMessage(JSON.stringify(notification)));
    });
    const stopListening = request.onClientGone(() => exchange.cancel());
    if (listen) openStream();
    host.server.dispatch(message, exchange).then(
      (response) => finish(response),
      (error: unknown) => {
        host.report(error);
        finish({ jsonrpc: '2.0', id: message.id, error: { code: -32603, message: 'Internal error' } });
      },
    );

    function finish(response: RpcResponse | undefined): void {
      stopListening();
      if (connection !== undefined) {
        if (response !== undefined && !exchange.cancelled) connection.write(encodeSseMessage(JSON.stringify(response)));
        connection.close();
        return;
      }
      if (response === undefined) {
        // Aborted before anything was sent: the client is gone, the status is never seen.
        answer(emptyResponse(204));
        return;
      }
      if (!('error' in response)) {
        answer(jsonResponse(200, JSON.stringify(response)));
        return;
      }
      answer(jsonResponse(modernStatusFor(response.error.code), JSON.stringify(response), retryAfterHeaders(response.error)));
    }
  });
}
