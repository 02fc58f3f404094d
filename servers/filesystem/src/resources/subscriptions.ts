/**
 * Resource subscriptions: `McpServer` calls `onSubscribe` when a client starts hearing of a `file:` URI (a legacy
 * `resources/subscribe`, or a 2026-07-28 listen stream's `resourceSubscriptions`) and `onUnsubscribe` when it stops
 * (unsubscribed, session closed, stream ended). A URI outside what the request may reach is refused — a legacy
 * client gets the error, a listen stream leaves it out of its acknowledgement — and an accepted one is watched by
 * the hub for as long as someone subscribes to it.
 */
import { RpcError } from '@wiremcp/protocol';
import type { HandlerContext, SubscriptionHooks } from '@wiremcp/server';
import { FsError } from '../sandbox/errors.js';
import type { ToolServices } from '../tools/tool-runtime.js';
import { uriToPath } from './file-uri.js';
import type { WatchHub } from './watch-hub.js';

/** Refuses `uri` unless it names a place the request may reach (checked lexically: nothing on disk is touched). */
export async function checkSubscription(
  services: Pick<ToolServices, 'sandbox' | 'roots'>,
  uri: string,
  ctx: HandlerContext,
): Promise<void> {
  const path = uriToPath(uri);
  if (path === undefined) throw new RpcError(-32602, 'Invalid params: not a local file: URI (no host, no encoded "/", no NUL)', { uri });
  const view = await services.roots.viewForSideRequest(ctx);
  try {
    services.sandbox.target(view, path);
  } catch (error) {
    if (error instanceof FsError) throw new RpcError(-32602, error.message, { code: error.code });
    throw error;
  }
}

/** The hooks that keep `hub` watching what clients subscribe to; `hub()` is read when a subscription starts. */
export function subscriptionHooks(services: Pick<ToolServices, 'sandbox' | 'roots'>, hub: () => WatchHub): SubscriptionHooks {
  return {
    onSubscribe: async (uri, ctx) => {
      await checkSubscription(services, uri, ctx);
      hub().add(uri);
    },
    onUnsubscribe: (uri) => hub().remove(uri),
  };
}
