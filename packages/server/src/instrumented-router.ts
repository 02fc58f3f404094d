/**
 * The router seen through an {@link Instrumentation}: every request a server serves — over a connection or a
 * `dispatch` exchange — is observed from the moment routing starts until its outcome settles. Installed only
 * when the server has an instrumentation, so an uninstrumented server routes exactly as before.
 */
import { MetaKey, type JsonObject } from '@wiremcp/protocol';
import { observeOutcome, startOperation, type Instrumentation, type InternalErrorReporter, type McpOperation } from '@wiremcp/jsonrpc';
import type { RequestOrigin } from './method-table.js';
import type { Outcome, ServerRequestContext, WireParams } from './server-peer.js';

/** What serves requests: the router, or the router observed. */
export interface RequestServer {
  serve(method: string, params: WireParams, rpc: ServerRequestContext, origin: RequestOrigin): Outcome<JsonObject>;
}

/** The revision a request is spoken in: its 2026-07-28 `_meta`, else the legacy session's. */
function protocolVersionOf(params: WireParams, origin: RequestOrigin): string | undefined {
  const meta = params?._meta as Record<string, unknown> | undefined;
  const modern = meta?.[MetaKey.protocolVersion];
  if (typeof modern === 'string') return modern;
  return origin.session?.protocolVersion;
}

/** Wraps `router` so that `instrumentation` observes every request; its failures are reported, never answered. */
export function instrumentRouter(router: RequestServer, instrumentation: Instrumentation, report: InternalErrorReporter): RequestServer {
  const reportOne = (error: unknown): void => report(error, {});
  return {
    serve(method, params, rpc, origin) {
      const info = rpc.info;
      const operation: McpOperation = {
        side: 'server',
        kind: 'request',
        method,
        id: rpc.id,
        params,
        protocolVersion: protocolVersionOf(params, origin),
        sessionId: info?.sessionId,
        info,
      };
      const observer = startOperation(instrumentation, operation, reportOne);
      if (observer === undefined) return router.serve(method, params, rpc, origin);
      return observeOutcome(observer, () => router.serve(method, params, rpc, origin), reportOne);
    },
  };
}
