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
 * One 2026-07-28 request being served: what it hands to `dispatch` (the exchange: its info, its notifications, its
 * cancellation) and the state of its reply, in one object. Its steps are methods, not closures made per request:
 * the only functions made per request are the reply promise's executor, the client-gone callback the adapter
 * contract takes, and the two continuations of the dispatch. Cancellation (the client went away, or its stream
 * closed) reaches the server through `cancellable`; a `signal` is made only for a servable that reads it (one that
 * predates `cancellable`). A class, not an object literal with a getter: a literal's accessor is a new closure per
 * request, which keeps the request alive across collections.
 */
class ModernRequest implements HttpDispatchExchange {
  readonly info: MessageInfo;
  /** The reply: JSON once the answer is in, or the SSE stream from the first notification on. */
  readonly reply: Promise<HttpReply>;
  readonly #host: ModernHost;
  #resolve!: (reply: HttpReply) => void;
  #settled = false;
  #connection: SseConnection | undefined;
  #stopListening: (() => void) | undefined;
  #cancelled = false;
  #cancelRequest: ((reason: unknown) => void) | undefined;
  #controller: AbortController | undefined;

  constructor(host: ModernHost, info: MessageInfo) {
    this.#host = host;
    this.info = info;
    this.reply = new Promise<HttpReply>((resolve) => {
      this.#resolve = resolve;
    });
  }

  /** Dispatches `message`, cancelled when the client goes away; a listen stream opens at once. */
  start(message: RpcRequest, request: HttpRequest, listen: boolean): void {
    this.#stopListening = request.onClientGone(() => this.cancel());
    if (listen) this.#openStream();
    this.#host.server.dispatch(message, this).then(
      (response) => this.#finish(response),
      (error: unknown) => {
        this.#host.report(error);
        this.#finish({ jsonrpc: '2.0', id: message.id, error: { code: -32603, message: 'Internal error' } });
      },
    );
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

  /** A request-scoped notification (progress, logs): the reply becomes a stream; without room for one it is dropped. */
  notify(notification: RpcNotification): void {
    this.#openStream()?.write(encodeSseMessage(JSON.stringify(notification)));
  }

  #answer(reply: HttpReply): void {
    if (this.#settled) return;
    this.#settled = true;
    this.#resolve(reply);
  }

  #openStream(): SseConnection | undefined {
    if (this.#connection !== undefined) return this.#connection;
    if (this.#settled || !this.#host.pool.hasRoom()) return undefined;
    const connection = (this.#connection = this.#host.pool.open());
    // Closed by the client (cancellation), or by the handler shutting down: either way the request is over.
    connection.onclosed = () => this.cancel();
    this.#answer(connection.response);
    return connection;
  }

  #finish(response: RpcResponse | undefined): void {
    this.#stopListening?.();
    const connection = this.#connection;
    if (connection !== undefined) {
      if (response !== undefined && !this.#cancelled) connection.write(encodeSseMessage(JSON.stringify(response)));
      connection.close();
      return;
    }
    if (response === undefined) {
      // Aborted before anything was sent: the client is gone, the status is never seen.
      this.#answer(emptyResponse(204));
      return;
    }
    if (!('error' in response)) {
      this.#answer(jsonResponse(200, JSON.stringify(response)));
      return;
    }
    this.#answer(jsonResponse(modernStatusFor(response.error.code), JSON.stringify(response), retryAfterHeaders(response.error)));
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
  const served = new ModernRequest(host, info);
  served.start(message, request, listen);
  return served.reply;
}
