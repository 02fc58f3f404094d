/**
 * The replies the handler builds: JSON bodies, JSON-RPC errors with the HTTP status each one takes, empty statuses
 * ({@link HttpReply}s of the adapter contract; each adapter writes them its own way).
 */
import { ErrorCode, type RequestId } from '@wiremcp/protocol';
import { HttpReply, ReplyHeaders } from './adapter-contract.js';

export const JSON_CONTENT_TYPE = 'application/json';

/** A reply with a JSON body (already serialised). */
export function jsonResponse(status: number, json: string, headers?: Record<string, string>): HttpReply {
  const list = new ReplyHeaders(headers);
  list.record['content-type'] ??= JSON_CONTENT_TYPE;
  return new HttpReply(status, json, list);
}

/** A JSON-RPC error response with the given HTTP status; `id` is `null` when the request's id is unknown. */
export function rpcErrorResponse(
  status: number,
  id: RequestId | null,
  code: number,
  message: string,
  data?: unknown,
  headers?: Record<string, string>,
): HttpReply {
  const error = data === undefined ? { code, message } : { code, message, data };
  return jsonResponse(status, JSON.stringify({ jsonrpc: '2.0', id, error }), headers);
}

/** A reply without a body. */
export function emptyResponse(status: number, headers?: Record<string, string>): HttpReply {
  return new HttpReply(status, undefined, new ReplyHeaders(headers));
}

/**
 * The HTTP status of a 2026-07-28 JSON-RPC error answered as JSON (§Server Validation and the error table):
 * `-32601` is 404; the header, capability and version errors and a broken envelope are 400; anything else (a
 * method's own error) is 200. Envelope `-32602` errors are answered by the handler itself with 400 before dispatch,
 * so a `-32602` that dispatch returns is a method's (an unknown tool, a bad argument) and stays 200.
 */
export function modernStatusFor(code: number): number {
  switch (code) {
    case ErrorCode.MethodNotFound:
      return 404;
    case ErrorCode.HeaderMismatch:
    case ErrorCode.MissingRequiredClientCapability:
    case ErrorCode.UnsupportedProtocolVersion:
    case ErrorCode.InvalidRequest:
    case ErrorCode.ParseError:
      return 400;
    case ErrorCode.RateLimited:
      return 429;
    default:
      return 200;
  }
}

/**
 * The `Retry-After` header of a rate-limited error (`-32029`, answered with 429 in both eras when it is the only
 * response of a POST): whole seconds from `data.retryAfterMs`, at least 1; `undefined` for any other error.
 */
export function retryAfterHeaders(
  error: { readonly code: number; readonly data?: unknown } | undefined,
): Record<string, string> | undefined {
  if (error?.code !== ErrorCode.RateLimited) return undefined;
  const ms = (error.data as { retryAfterMs?: unknown } | undefined)?.retryAfterMs;
  const seconds = typeof ms === 'number' && Number.isFinite(ms) && ms > 0 ? Math.min(86_400, Math.ceil(ms / 1000)) : 1;
  return { 'retry-after': String(Math.max(1, seconds)) };
}
