import { ErrorCode, RpcError, type RequestId, type RpcErrorObject } from '@wiremcp/protocol';

/** Receives failures whose text is not sent to the peer (see `PeerOptions.onInternalError`). */
export type InternalErrorReporter = (error: unknown, context: { method?: string; id?: RequestId | null }) => void;

/**
 * The JSON-RPC error object that answers a request whose handler failed with `error`: an {@link RpcError} exactly
 * as thrown; anything else a bare `-32603 Internal error`, its text given to `report` (never to the peer).
 */
export function errorObjectFor(error: unknown, report: InternalErrorReporter, request: { method: string; id: RequestId }): RpcErrorObject {
  if (error instanceof RpcError) return error.toJSON();
  report(error, { method: request.method, id: request.id });
  return { code: ErrorCode.InternalError, message: 'Internal error' };
}
