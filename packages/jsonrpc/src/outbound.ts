import { LocalError, type RequestId, type RpcRequest } from '@wiremcp/protocol';
import type { Progress, RequestOptions } from './types.js';

/** Default time an outbound request may take: one minute, as the spec suggests senders set one. */
export const DEFAULT_REQUEST_TIMEOUT_MS = 60_000;

/** What a pending request needs from the engine when it gives up. */
export interface PendingHost {
  /** Forget the request and tell the peer (and transport) it was abandoned. */
  abandon(pending: PendingRequest, reason: LocalError): void;
}

/**
 * One outbound request awaiting its response. It has no timer of its own: it keeps its `deadline`, and the
 * {@link PendingRequests} it belongs to runs one timer for the earliest deadline of all of them. It removes its
 * abort listener when it settles, so nothing outlives the request.
 */
export class PendingRequest {
  readonly id: RequestId;
  readonly method: string;
  readonly onprogress: ((progress: Progress) => void) | undefined;
  readonly sendCancelled: boolean;
  /** When the request times out (`Date.now()` ms); `Infinity` when it has no timeout. */
  deadline: number;
  #resolve: (value: unknown) => void;
  #reject: (reason: unknown) => void;
  #host: PendingHost;
  #timeoutMs: number;
  #resetOnProgress: boolean;
  #totalDeadline: number;
  #signal: AbortSignal | undefined;
  #onAbort: (() => void) | undefined;
  settled = false;

  constructor(
    host: PendingHost,
    id: RequestId,
    method: string,
    options: RequestOptions | undefined,
    defaultTimeoutMs: number,
    resolve: (value: unknown) => void,
    reject: (reason: unknown) => void,
  ) {
    this.#host = host;
    this.id = id;
    this.method = method;
    this.#resolve = resolve;
    this.#reject = reject;
    this.onprogress = options?.onprogress;
    this.sendCancelled = options?.sendCancelledNotification !== false;
    this.#timeoutMs = options?.timeoutMs ?? defaultTimeoutMs;
    this.#resetOnProgress = options?.resetTimeoutOnProgress === true;
    const hasTimeout = this.#timeoutMs > 0 && Number.isFinite(this.#timeoutMs);
    const maxTotal = options?.maxTotalTimeoutMs;
    const now = hasTimeout ? Date.now() : 0;
    this.#totalDeadline = hasTimeout && maxTotal !== undefined && maxTotal > 0 ? now + maxTotal : Infinity;
    this.deadline = hasTimeout ? Math.min(now + this.#timeoutMs, this.#totalDeadline) : Infinity;
    const signal = options?.signal;
    if (signal) {
      this.#signal = signal;
      this.#onAbort = () => this.#host.abandon(this, abortError(signal.reason));
      signal.addEventListener('abort', this.#onAbort, { once: true });
    }
  }

  /** The error of a request whose deadline has passed at `now`. */
  timeoutError(now: number): LocalError {
    const total = this.#totalDeadline !== Infinity && now >= this.#totalDeadline;
    return new LocalError(
      'REQUEST_TIMEOUT',
      total ? `Request '${this.method}' exceeded its maximum total time` : `Request '${this.method}' timed out after ${this.#timeoutMs} ms`,
      { details: { method: this.method, timeoutMs: this.#timeoutMs } },
    );
  }

  /** Delivers progress; pushes the deadline back when asked to (never past the total deadline). */
  progress(progress: Progress): void {
    if (this.settled) return;
    if (this.#resetOnProgress && this.deadline !== Infinity) {
      this.deadline = Math.min(Date.now() + this.#timeoutMs, this.#totalDeadline);
    }
    this.onprogress?.(progress);
  }

  resolve(value: unknown): void {
    if (this.#settle()) this.#resolve(value);
  }

  reject(reason: unknown): void {
    if (this.#settle()) this.#reject(reason);
  }

  #settle(): boolean {
    if (this.settled) return false;
    this.settled = true;
    if (this.#signal && this.#onAbort) this.#signal.removeEventListener('abort', this.#onAbort);
    this.#signal = undefined;
    this.#onAbort = undefined;
    return true;
  }
}

/** The LocalError a caller sees when its AbortSignal cancels a request. */
export function abortError(reason: unknown): LocalError {
  if (reason instanceof LocalError) return reason;
  const text = reason instanceof Error ? reason.message : typeof reason === 'string' ? reason : 'aborted';
  return new LocalError('REQUEST_CANCELLED', `Request cancelled: ${text}`, { cause: reason });
}

/** The request message for `method`; with `onprogress`, `params._meta.progressToken` is the request's id. */
export function requestMessage(
  id: RequestId,
  method: string,
  params: Record<string, unknown> | undefined,
  options: RequestOptions | undefined,
): RpcRequest {
  let outParams = params;
  if (options?.onprogress) {
    const meta = params?._meta as Record<string, unknown> | undefined;
    outParams = { ...params, _meta: { ...meta, progressToken: id } };
  }
  return outParams === undefined ? { jsonrpc: '2.0', id, method } : { jsonrpc: '2.0', id, method, params: outParams };
}

/**
 * The error pending requests fail with when the connection closed: the transport's `closeReason` when it is a
 * LocalError (`SERVER_EXITED`…), otherwise `CONNECTION_CLOSED` naming it.
 */
export function connectionClosedError(reason: Error | undefined): LocalError {
  if (reason instanceof LocalError) return reason;
  return new LocalError(
    'CONNECTION_CLOSED',
    reason ? `Connection closed: ${reason.message}` : 'Connection closed',
    reason ? { cause: reason } : undefined,
  );
}
