import type { RequestContext } from './request-context.js';
import type { MessageInfo } from './transport.js';
import type { FallbackRequestHandler } from './types.js';

type Params = Record<string, unknown> | undefined;
/** A request handler with the params and result types erased (the engine stores them untyped). */
export type UntypedRequestHandler<C = RequestContext> = (params: Params, context: C) => unknown;
/** A notification handler with the types erased. */
export type UntypedNotificationHandler = (params: Params, info: MessageInfo | undefined) => void | Promise<void>;

/**
 * The handlers of one peer: per-method request and notification handlers, and the request fallback (which serves
 * requests for methods without a handler of their own; without it those get `-32601`).
 */
export class HandlerTable<C = RequestContext> {
  // Made on first use: a peer that serves through `fallback` (a server connection, one per HTTP session) keeps
  // no empty tables (an empty Map is ~170 bytes of heap).
  #requests: Map<string, UntypedRequestHandler<C>> | undefined;
  #notifications: Map<string, UntypedNotificationHandler> | undefined;
  fallback: FallbackRequestHandler<C> | undefined;

  /** The request handler of `method`, if one was set. */
  request(method: string): UntypedRequestHandler<C> | undefined {
    return this.#requests?.get(method);
  }

  /** Sets (or, with `undefined`, removes) the request handler of `method`. */
  setRequest(method: string, handler: UntypedRequestHandler<C> | undefined): void {
    if (handler !== undefined) (this.#requests ??= new Map()).set(method, handler);
    else this.#requests?.delete(method);
  }

  /** Sets (or, with `undefined`, removes) the notification handler of `method`. */
  setNotification(method: string, handler: UntypedNotificationHandler | undefined): void {
    if (handler !== undefined) (this.#notifications ??= new Map()).set(method, handler);
    else this.#notifications?.delete(method);
  }

  /**
   * Runs the handler of a notification, if any. Its failures (thrown or rejected) go to `report`: a
   * notification has no response to carry them.
   */
  notify(method: string, params: Params, info: MessageInfo | undefined, report: (error: unknown) => void): void {
    const handler = this.#notifications?.get(method);
    if (!handler) return;
    try {
      const outcome = handler(params, info);
      if (outcome && typeof outcome.then === 'function') outcome.then(undefined, report);
    } catch (error) {
      report(error);
    }
  }
}
