import type { RequestId } from '@wiremcp/protocol';
import type { MessageInfo } from './transport.js';
import type { RequestContext } from './request-context.js';

/**
 * A map from request method names to their params and result types. Any interface whose properties are
 * `{ params; result }` fits (no index signature needed).
 */
export type RequestMap<T> = { [K in keyof T]: { params: unknown; result: unknown } };

/** A map from notification method names to their params types. */
export type NotificationMap<T> = { [K in keyof T]: unknown };

/** The untyped map: any method, any params, any result. */
export interface AnyRequests {
  [method: string]: { params: Record<string, unknown> | undefined; result: unknown };
}

/** The untyped notification map. */
export interface AnyNotifications {
  [method: string]: Record<string, unknown> | undefined;
}

/**
 * Handles one inbound request; its return value (or resolved value) is the result sent back. `C` is the context
 * type, typed by what the serving side may send back.
 */
export type RequestHandler<P = Record<string, unknown> | undefined, R = unknown, C = RequestContext> = (
  params: P,
  context: C,
) => R | Promise<R>;

/** Handles an inbound request for any method that has no handler of its own. */
export type FallbackRequestHandler<C = RequestContext> = (
  method: string,
  params: Record<string, unknown> | undefined,
  context: C,
) => unknown;

/** Handles one inbound notification. Exceptions are reported through `onInternalError`, never sent. */
export type NotificationHandler<P = Record<string, unknown> | undefined> = (
  params: P,
  info: MessageInfo | undefined,
) => void | Promise<void>;

/** Progress reported for an outbound request. */
export interface Progress {
  progress: number;
  total?: number;
  message?: string;
}

/** Options of one outbound request. */
export interface RequestOptions {
  /** Aborting it cancels the request: `notifications/cancelled` is sent and the promise rejects. */
  signal?: AbortSignal;
  /** Milliseconds before the request fails with `REQUEST_TIMEOUT` (and is cancelled). `0` disables. */
  timeoutMs?: number;
  /** Restart the timeout whenever progress arrives for this request. */
  resetTimeoutOnProgress?: boolean;
  /** With `resetTimeoutOnProgress`, the hard limit from the start of the request. */
  maxTotalTimeoutMs?: number;
  /** Receives `notifications/progress` for this request; setting it adds a progress token to `params._meta`. */
  onprogress?: (progress: Progress) => void;
  /** The inbound request this one is made on behalf of (routes it onto that request's stream where relevant). */
  relatedRequestId?: RequestId;
  /** Whether giving up on the request (abort, timeout) sends `notifications/cancelled`. Default true. */
  sendCancelledNotification?: boolean;
}

/** Options of one outbound notification. */
export interface NotificationOptions {
  relatedRequestId?: RequestId;
}

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
