/**
 * 2026-07-28 `subscriptions/listen` streams on the client side.
 *
 * A stream is one long-lived request. The server first sends `notifications/subscriptions/acknowledged` (the subset
 * of the filter it honours), then notifications tagged with `_meta.subscriptionId` = the request's id. It ends when
 * the server answers the request (graceful end), when the server sends `notifications/cancelled` for the request id
 * (the spec has both signals; clients handle both), when the client cancels it (`notifications/cancelled`, stdio),
 * or when the connection closes.
 */
import { isLocalError, LocalError, RpcError, type RequestId } from '@wiremcp/protocol';
import type { ServerNotification } from './notification-hub.js';
import type { SubscriptionFilter } from './types.js';

/** Why a listen stream ended. */
export type ListenEndReason = 'server-response' | 'server-cancelled' | 'client-cancelled' | 'connection-closed' | 'error';

/** How a listen stream ended. */
export interface ListenEnd {
  readonly reason: ListenEndReason;
  /** The error answer or local failure, for `error` and `connection-closed`. */
  readonly error?: RpcError | LocalError;
}

/** Options of `client.listen`. */
export interface ListenOptions {
  /** Receives every notification of the stream (not the acknowledgement). */
  onNotification?: (notification: ServerNotification) => void;
  /** Aborting ends the stream (the client sends `notifications/cancelled`). */
  signal?: AbortSignal;
}

/** An open listen stream. */
export interface ListenSubscription {
  /** The JSON-RPC id of the listen request, which is also the subscription id. */
  readonly id: RequestId;
  /** What the server agreed to send (the acknowledged subset of the filter). */
  readonly acknowledged: SubscriptionFilter;
  /** Resolves (never rejects) when the stream has ended. */
  readonly done: Promise<ListenEnd>;
  /** Ends the stream from the client side; resolves once it has ended. Idempotent. */
  close(): Promise<ListenEnd>;
}

/** What a stream needs from the client. */
export interface ListenHost {
  /** Sends the listen request; must not time out; aborts locally (without notifying) on `signal`. */
  send(filter: SubscriptionFilter, signal: AbortSignal): { id: RequestId; response: Promise<unknown> };
  /** Sends `notifications/cancelled` for `id`. */
  cancel(id: RequestId): Promise<void>;
  /** Forgets a stream (it ended). */
  release(id: RequestId): void;
  report(error: unknown): void;
}

/** The client-side state of one listen stream. */
export class ListenStream implements ListenSubscription {
  readonly id: RequestId;
  acknowledged: SubscriptionFilter = {};
  readonly done: Promise<ListenEnd>;
  readonly ready: Promise<ListenSubscription>;
  #ended: ListenEnd | undefined;
  #resolveDone!: (end: ListenEnd) => void;
  #resolveReady!: (stream: ListenSubscription) => void;
  #rejectReady!: (error: unknown) => void;
  #isAcknowledged = false;
  readonly #abort = new AbortController();
  readonly #host: ListenHost;
  readonly #onNotification: ((notification: ServerNotification) => void) | undefined;
  readonly #signal: AbortSignal | undefined;
  readonly #onUserAbort = (): void => void this.close();

  constructor(host: ListenHost, filter: SubscriptionFilter, options: ListenOptions) {
    this.#host = host;
    this.#onNotification = options.onNotification;
    this.done = new Promise((resolve) => (this.#resolveDone = resolve));
    this.ready = new Promise((resolve, reject) => {
      this.#resolveReady = resolve;
      this.#rejectReady = reject;
    });
    this.ready.catch(() => {});
    const { id, response } = host.send(filter, this.#abort.signal);
    this.id = id;
    response.then(
      () => this.#end({ reason: 'server-response' }),
      (error: unknown) => {
        if (this.#abort.signal.aborted) return; // ended locally; #end already ran
        if (error instanceof RpcError) this.#end({ reason: 'error', error });
        else if (isLocalError(error, 'CONNECTION_CLOSED') || isLocalError(error, 'SERVER_EXITED') || isLocalError(error, 'NOT_CONNECTED')) {
          this.#end({ reason: 'connection-closed', error });
        } else
          this.#end({
            reason: 'error',
            error: error instanceof LocalError ? error : new LocalError('PROTOCOL_VIOLATION', String(error), { cause: error }),
          });
      },
    );
    this.#signal = options.signal;
    if (options.signal?.aborted) void this.close();
    else options.signal?.addEventListener('abort', this.#onUserAbort, { once: true });
  }

  /** True once the stream has ended. */
  get ended(): boolean {
    return this.#ended !== undefined;
  }

  /** The server acknowledged the stream. */
  acknowledge(notifications: unknown): void {
    if (this.#isAcknowledged || this.#ended) return;
    this.#isAcknowledged = true;
    this.acknowledged = typeof notifications === 'object' && notifications !== null ? (notifications as SubscriptionFilter) : {};
    this.#resolveReady(this);
  }

  /** A notification tagged with this stream's id. */
  deliver(method: string, params: Record<string, unknown> | undefined): void {
    if (this.#ended || !this.#onNotification) return;
    try {
      this.#onNotification({ method, params });
    } catch (error) {
      this.#host.report(error);
    }
  }

  /** The server sent `notifications/cancelled` for this stream. */
  cancelledByServer(): void {
    this.#end({ reason: 'server-cancelled' });
  }

  /** The connection closed. */
  connectionClosed(error: LocalError): void {
    this.#end({ reason: 'connection-closed', error });
  }

  close(): Promise<ListenEnd> {
    if (!this.#ended) {
      // Tell the server first (stdio: cancellation ends the stream), then stop waiting for the response.
      this.#host.cancel(this.id).catch(() => {});
      this.#end({ reason: 'client-cancelled' });
    }
    return this.done;
  }

  #end(end: ListenEnd): void {
    if (this.#ended) return;
    this.#ended = end;
    this.#signal?.removeEventListener('abort', this.#onUserAbort);
    if (!this.#abort.signal.aborted) this.#abort.abort(new LocalError('REQUEST_CANCELLED', `Listen stream ended: ${end.reason}`));
    this.#host.release(this.id);
    if (!this.#isAcknowledged) {
      this.#rejectReady(
        end.error ??
          new LocalError(
            // The server must acknowledge before anything else; ending first breaks that rule.
            end.reason === 'client-cancelled' ? 'REQUEST_CANCELLED' : 'PROTOCOL_VIOLATION',
            `The listen stream ended before it was acknowledged (${end.reason})`,
          ),
      );
    }
    this.#resolveDone(end);
  }
}
