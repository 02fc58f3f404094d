import { LocalError, type RequestId, type RpcResponse } from '@wiremcp/protocol';
import type { MessageInfo } from './transport.js';
import type { AnyNotifications, AnyRequests, NotificationMap, NotificationOptions, RequestMap, RequestOptions } from './types.js';

/**
 * What a {@link RequestContext} needs from whatever serves the request: a {@link Peer}, or a layer that serves one
 * message without a peer (`McpServer.dispatch`), whose `request` may simply reject.
 */
export interface ContextHost {
  notify(method: string, params: Record<string, unknown> | undefined, options?: NotificationOptions): Promise<void>;
  request(method: string, params: Record<string, unknown> | undefined, options?: RequestOptions): Promise<unknown>;
}

/** Collects the responses of one inbound batch so they go back as one array (`undefined`: a cancelled request). */
export interface BatchCollector {
  add(response: RpcResponse | undefined): void;
}

/**
 * The context of one inbound request, handed to its handler. It is also the engine's in-flight record for the
 * request, so handling a request allocates this one object; the AbortController behind `signal` is created only
 * when a handler asks for the signal (most never do).
 *
 * The type parameters are what the serving side may send back while handling the request (the peer's outbound
 * maps), so `context.request(…)` and `context.notify(…)` are typed like the peer's own methods.
 */
export class RequestContext<
  OutRequests extends RequestMap<OutRequests> = AnyRequests,
  OutNotifications extends NotificationMap<OutNotifications> = AnyNotifications,
> {
  /** The request's JSON-RPC id. */
  readonly id: RequestId;
  /** The request's method. */
  readonly method: string;
  /** The request's params (`undefined` when absent). */
  readonly params: Record<string, unknown> | undefined;
  /** What the transport attached to the message (headers, session, auth). */
  readonly info: MessageInfo | undefined;
  /** @internal the batch this request arrived in, if any. */
  readonly batch: BatchCollector | undefined;
  /** Free slot for the layer above (client/server) to hang per-request state on without a second object. */
  state: unknown;

  #host: ContextHost;
  #controller: AbortController | undefined;
  #cancelled = false;
  #lastProgress = -Infinity;

  constructor(
    host: ContextHost,
    id: RequestId,
    method: string,
    params: Record<string, unknown> | undefined,
    info: MessageInfo | undefined,
    batch: BatchCollector | undefined,
  ) {
    this.#host = host;
    this.id = id;
    this.method = method;
    this.params = params;
    this.info = info;
    this.batch = batch;
  }

  /** `params._meta`, when present and an object. */
  get meta(): Record<string, unknown> | undefined {
    const meta = this.params?._meta;
    return typeof meta === 'object' && meta !== null ? (meta as Record<string, unknown>) : undefined;
  }

  /** Aborts when the peer cancels the request or the connection closes. */
  get signal(): AbortSignal {
    this.#controller ??= new AbortController();
    return this.#controller.signal;
  }

  /** True once the request was cancelled (its response will not be sent). */
  get cancelled(): boolean {
    return this.#cancelled;
  }

  /** The request's progress token, when the caller asked for progress. */
  get progressToken(): string | number | undefined {
    const token = this.meta?.progressToken;
    return typeof token === 'string' || typeof token === 'number' ? token : undefined;
  }

  /**
   * Sends `notifications/progress` for this request. Does nothing when the caller sent no progress token, when
   * the request is cancelled, or when `progress` does not increase (the spec requires it to increase; a
   * repeated value would be a protocol violation, so it is dropped rather than sent). Never rejects.
   */
  async sendProgress(progress: number, total?: number, message?: string): Promise<void> {
    const progressToken = this.progressToken;
    if (progressToken === undefined || this.#cancelled || !(progress > this.#lastProgress)) return;
    this.#lastProgress = progress;
    const params: Record<string, unknown> = { progressToken, progress };
    if (total !== undefined) params.total = total;
    if (message !== undefined) params.message = message;
    try {
      await this.#host.notify('notifications/progress', params, { relatedRequestId: this.id });
    } catch {
      // Progress is advisory: a connection that closed mid-request must not turn a report into a failure.
    }
  }

  /**
   * Sends a notification related to this request (routed onto its stream where the transport has streams). Once
   * the request is cancelled nothing more is sent for it (log messages included), as with progress: the peer has
   * stopped following it, and on transports with a stream per request the stream is gone.
   */
  notify<M extends keyof OutNotifications & string>(method: M, params?: OutNotifications[M]): Promise<void> {
    if (this.#cancelled) return Promise.resolve();
    return this.#host.notify(method, params as Record<string, unknown> | undefined, { relatedRequestId: this.id });
  }

  /** Sends a request to the peer on behalf of this request; aborted with it unless `options.signal` is given. */
  request<M extends keyof OutRequests & string>(
    method: M,
    params: OutRequests[M]['params'],
    options?: RequestOptions,
  ): Promise<OutRequests[M]['result']> {
    return this.#host.request(method, params as Record<string, unknown> | undefined, {
      signal: this.signal,
      ...options,
      relatedRequestId: this.id,
    }) as Promise<OutRequests[M]['result']>;
  }

  /**
   * Marks the request cancelled (its response must not be sent) and aborts its signal with `reason`. Idempotent.
   * The engine calls it for `notifications/cancelled` and when the connection closes; a layer that serves a
   * request without a peer calls it when the request's exchange is abandoned.
   */
  cancel(reason: unknown): void {
    if (this.#cancelled) return;
    this.#cancelled = true;
    if (this.#controller) this.#controller.abort(reason);
    else {
      // A handler that reads `signal` later must still see it aborted.
      this.#controller = new AbortController();
      this.#controller.abort(reason);
    }
  }
}

/** The reason given to handlers whose request was cancelled by the peer. */
export function cancelledByPeer(reason: unknown): LocalError {
  const text = typeof reason === 'string' && reason.length > 0 ? `: ${reason}` : '';
  return new LocalError('REQUEST_CANCELLED', `Request cancelled by the peer${text}`, { details: reason });
}
