/**
 * The author's view of resource subscriptions: `onSubscribe` when a client starts hearing of a URI, `onUnsubscribe`
 * when it stops, whichever way — a legacy `resources/subscribe` / `resources/unsubscribe` or the session's
 * connection closing, a 2026-07-28 listen stream's `resourceSubscriptions` or the stream ending. A server that must
 * do something per subscription (watch a file, poll a feed) needs this; a server that only calls
 * `notifyResourceUpdated` does not.
 */
import { invalidParams, quoteInput, RpcError } from '@wiremcp/protocol';
import type { InternalErrorReporter } from '@wiremcp/jsonrpc';
import type { HandlerContext } from './handler-context.js';

/** The subscription hooks of `ServerOptions`. */
export interface SubscriptionHooks {
  /**
   * A client subscribes to `uri` (once per legacy session and URI; once per listen stream and distinct URI).
   * `context` is the request that subscribes (`resources/subscribe`, or the listen request): its scope, client
   * capabilities and, in a legacy session, `listRoots`. Throw or reject to refuse: a legacy client gets the error
   * (an `RpcError` as it is, any other as `-32602` with its message); a listen stream leaves the URI out of its
   * acknowledgement. The subscription starts once the returned promise resolves. A legacy session restored on this
   * process from a shared session store (`connect(transport, { restore })`) calls it again for each recorded URI,
   * with a synthetic `resources/subscribe` context on the new connection; a refusal there is reported and ends it.
   */
  onSubscribe?: (uri: string, context: HandlerContext) => void | Promise<void>;
  /**
   * A subscription `onSubscribe` accepted has ended: `resources/unsubscribe`, the legacy session's connection
   * closed (this process's copy of a shared session dropped included), or the listen stream ended. Called exactly
   * once per accepted subscription, with the same `context` object `onSubscribe` got (so the two can be paired).
   * Errors are reported as internal errors.
   */
  onUnsubscribe?: (uri: string, context: HandlerContext) => void;
}

/** The error a legacy client gets when `onSubscribe` refused. */
export function refusal(uri: string, error: unknown): RpcError {
  if (error instanceof RpcError) return error;
  const reason = error instanceof Error && error.message.length > 0 ? `: ${error.message}` : '';
  return invalidParams(`Cannot subscribe to ${quoteInput(uri)}${reason}`);
}

/** Runs `onSubscribe`; resolves when accepted, rejects with the refusal. `undefined` when there is no hook. */
export function startSubscription(hooks: SubscriptionHooks, uri: string, context: HandlerContext): Promise<void> | undefined {
  const hook = hooks.onSubscribe;
  if (!hook) return undefined;
  try {
    return Promise.resolve(hook(uri, context));
  } catch (error) {
    return Promise.reject(error as Error);
  }
}

/** Runs `onUnsubscribe`, reporting what it throws. */
export function endSubscription(hooks: SubscriptionHooks, uri: string, context: HandlerContext, report: InternalErrorReporter): void {
  try {
    hooks.onUnsubscribe?.(uri, context);
  } catch (error) {
    report(error, { method: 'onUnsubscribe' });
  }
}
