/**
 * The responses the handler builds: JSON bodies, JSON-RPC errors with the HTTP status each one takes, empty
 * statuses. They are {@link PlainResponse}s: the node adapter writes them from their fields (no web `Response`,
 * `Headers` or body stream), and the handler makes real responses of them for any other caller ({@link withBody}).
 */
import { ErrorCode, type RequestId } from '@wiremcp/protocol';
import { PlainHeaders, PlainResponse, RAW_BODY } from './plain-response.js';

export { RAW_BODY };

/** Marks the 404 for a path the handler does not serve, so a middleware adapter can pass the request on instead. */
export const NOT_HANDLED: unique symbol = Symbol.for('@wiremcp/transport-http.not-handled') as never;

/** A response that may carry its body text under {@link RAW_BODY}. */
export type RawBodyResponse = Response & { [RAW_BODY]?: string; [NOT_HANDLED]?: true };

/** True for the 404 of a path the handler does not serve. */
export function isNotHandled(response: Response): boolean {
  return (response as RawBodyResponse)[NOT_HANDLED] === true;
}

export const JSON_CONTENT_TYPE = 'application/json';

/**
 * Marks a request whose adapter writes a JSON response's body from its text (the node adapter's request views): the
 * handler then returns the response without a body stream. Shared across module copies.
 */
export const WRITES_RAW_BODY: unique symbol = Symbol.for('@wiremcp/transport-http.writes-raw-body') as never;

/**
 * A response with a JSON body (already serialised): a {@link PlainResponse} carrying the text under
 * {@link RAW_BODY}. The handler gives it a real body ({@link withBody}) before returning it, unless the request comes
 * from an adapter that writes the text itself.
 */
export function jsonResponse(status: number, json: string, headers?: Record<string, string>): Response {
  const list = new PlainHeaders(headers);
  list.record['content-type'] ??= JSON_CONTENT_TYPE;
  return new PlainResponse(status, json, list) as unknown as Response;
}

/** True when `request` comes from an adapter that writes {@link RAW_BODY} texts itself (see {@link WRITES_RAW_BODY}). */
export function writesRawBody(request: Request): boolean {
  return (request as Request & { [WRITES_RAW_BODY]?: boolean })[WRITES_RAW_BODY] === true;
}

/**
 * `response` as a real web `Response` (for any caller of the handler but the node adapter): a
 * {@link PlainResponse} becomes one with the same status, headers and body; any other response is returned as is.
 */
export function withBody(response: Response): Response {
  if (!((response as unknown) instanceof PlainResponse)) return response;
  const plain = response as unknown as PlainResponse;
  const real = plain.realResponse() as RawBodyResponse;
  if (plain[RAW_BODY] !== undefined) real[RAW_BODY] = plain[RAW_BODY];
  if ((response as RawBodyResponse)[NOT_HANDLED]) real[NOT_HANDLED] = true;
  return real;
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

/** A response without a body (a {@link PlainResponse}, as {@link jsonResponse}'s). */
export function emptyResponse(status: number, headers?: Record<string, string>): Response {
  return new PlainResponse(status, undefined, new PlainHeaders(headers)) as unknown as Response;
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
