import { LocalError, type RequestId } from '@wiremcp/protocol';
import type { Progress, RequestOptions } from './types.js';

/** Default time an outbound request may take: one minute, as the spec suggests senders set one. */
export const DEFAULT_REQUEST_TIMEOUT_MS = 60_000;

/** What a pending request needs from the engine when it gives up. */
export interface PendingHost {
  /** Forget the request and tell the peer (and transport) it was abandoned. */
  abandon(pending: PendingRequest, reason: LocalError): void;
}

/**
 * One outbound request awaiting its response. Owns the request's timer and its abort listener and removes both
 * when it settles, so nothing outlives the request.
 */
export class PendingRequest {
  readonly id: RequestId;
  readonly method: string;
  readonly onprogress: ((progress: Progress) => void) | undefined;
  readonly sendCancelled: boolean;
  #resolve: (value: unknown) => void;
  #reject: (reason: unknown) => void;
  #host: PendingHost;
  #timer: ReturnType<typeof setTimeout> | undefined;
  #timeoutMs: number;
  #resetOnProgress: boolean;
  #deadline: number;
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
    const maxTotal = options?.maxTotalTimeoutMs;
    this.#deadline = maxTotal !== undefined && maxTotal > 0 ? Date.now() + maxTotal : Infinity;
    if (this.#timeoutMs > 0 && Number.isFinite(this.#timeoutMs)) this.#arm(this.#timeoutMs);
    const signal = options?.signal;
    if (signal) {
      this.#signal = signal;
      this.#onAbort = () => this.#host.abandon(this, abortError(signal.reason));
      signal.addEventListener('abort', this.#onAbort, { once: true });
    }
  }

  #arm(ms: number): void {
    const remaining = Math.min(ms, this.#deadline - Date.now());
    this.#timer = setTimeout(() => {
      this.#timer = undefined;
      const total = this.#deadline !== Infinity && Date.now() >= this.#deadline;
      this.#host.abandon(
        this,
        new LocalError(
          'REQUEST_TIMEOUT',
          total
            ? `Request '${this.method}' exceeded its maximum total time`
            : `Request '${this.method}' timed out after ${this.#timeoutMs} ms`,
          { details: { method: this.method, timeoutMs: this.#timeoutMs } },
        ),
      );
    }, Math.max(0, remaining));
  }

  /** Delivers progress; restarts the timer when asked to. */
  progress(progress: Progress): void {
    if (this.settled) return;
    if (this.#resetOnProgress && this.#timer !== undefined) {
      clearTimeout(this.#timer);
      this.#arm(this.#timeoutMs);
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
    if (this.#timer !== undefined) clearTimeout(this.#timer);
    this.#timer = undefined;
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
