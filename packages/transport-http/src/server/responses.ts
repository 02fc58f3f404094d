/**
 * The responses the handler builds: JSON bodies, JSON-RPC errors with the HTTP status each one takes, empty
 * statuses. A JSON response also carries its body text under a symbol, so the node adapter can write it without
 * reading the body stream back (a `Response` read through its stream costs more than the rest of a small call).
 */
import { ErrorCode, type RequestId } from '@wiremcp/protocol';

/** Where a response built here keeps its body text (shared with the node adapter, across module copies). */
export const RAW_BODY: unique symbol = Symbol.for('@wiremcp/transport-http.raw-body') as never;

/** Marks the 404 for a path the handler does not serve, so a middleware adapter can pass the request on instead. */
export const NOT_HANDLED: unique symbol = Symbol.for('@wiremcp/transport-http.not-handled') as never;

/** A response that may carry its body text under {@link RAW_BODY}. */
export type RawBodyResponse = Response & { [RAW_BODY]?: string; [NOT_HANDLED]?: true };

/** True for the 404 of a path the handler does not serve. */
export function isNotHandled(response: Response): boolean {
  return (response as RawBodyResponse)[NOT_HANDLED] === true;
}

export const JSON_CONTENT_TYPE = 'application/json';

/** A `Response` with a JSON body (already serialised). */
export function jsonResponse(status: number, json: string, headers?: Record<string, string>): Response {
  const response = new Response(json, {
    status,
    headers: headers === undefined ? { 'content-type': JSON_CONTENT_TYPE } : { 'content-type': JSON_CONTENT_TYPE, ...headers },
  }) as RawBodyResponse;
  response[RAW_BODY] = json;
  return response;
}

/** The body text of a response built by {@link jsonResponse}, when it is one. */
export function rawBodyOf(response: Response): string | undefined {
  return (response as RawBodyResponse)[RAW_BODY];
}

/** A JSON-RPC error response with the given HTTP status; `id` is `null` when the request's id is unknown. */
export function rpcErrorResponse(
  status: number,
  id: RequestId | null,
  code: number,
  message: string,
  data?: unknown,
  headers?: Record<string, string>,
): Response {
  const error = data === undefined ? { code, message } : { code, message, data };
  return jsonResponse(status, JSON.stringify({ jsonrpc: '2.0', id, error }), headers);
}

/** A response without a body. */
export function emptyResponse(status: number, headers?: Record<string, string>): Response {
  return new Response(null, { status, headers });
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
    default:
      return 200;
  }
}
