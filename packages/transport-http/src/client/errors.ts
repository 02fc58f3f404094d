/**
 * The local errors of the HTTP client transports, and the reading of JSON-RPC error bodies that came with an
 * HTTP refusal.
 */
import { ErrorCode, LocalError, quoteInput, type RequestId, type RpcErrorObject } from '@wiremcp/protocol';

/** `details` of an `HTTP_ERROR`. */
export interface HttpErrorDetails {
  /** The HTTP status. */
  readonly status: number;
  /** The JSON-RPC error the body carried, if any. */
  readonly error?: RpcErrorObject;
  /** The `WWW-Authenticate` challenge of a 401/403, if any. */
  readonly wwwAuthenticate?: string;
}

/** The `HTTP_ERROR` for a refused exchange: the status, and what the body said when it was a JSON-RPC error. */
export function httpError(what: string, response: Response, error: RpcErrorObject | undefined): LocalError {
  const challenge = response.headers.get('www-authenticate') ?? undefined;
  const said = error === undefined ? '' : `: ${error.code} ${quoteInput(error.message)}`;
  const details: HttpErrorDetails = {
    status: response.status,
    ...(error === undefined ? {} : { error }),
    ...(challenge === undefined ? {} : { wwwAuthenticate: challenge.slice(0, 1024) }),
  };
  return new LocalError('HTTP_ERROR', `${what} failed with HTTP ${response.status}${said}`, { details });
}

/** The HTTP status of an `HTTP_ERROR` (or of an error caused by one), if `error` is one. */
export function httpStatusOf(error: unknown): number | undefined {
  if (error instanceof LocalError && error.code === 'HTTP_ERROR') return (error.details as HttpErrorDetails | undefined)?.status;
  return undefined;
}

/** The `SESSION_EXPIRED` error. */
export function sessionExpired(): LocalError {
  return new LocalError(
    'SESSION_EXPIRED',
    'The server no longer knows this session (HTTP 404); connect again to start a new one (or use onSessionExpired: "reinitialize")',
  );
}

/** The `UNSUPPORTED_CONTENT_TYPE` error for a response to `what`. */
export function unsupportedContentType(what: string, response: Response): LocalError {
  const type = response.headers.get('content-type') ?? 'none';
  return new LocalError(
    'UNSUPPORTED_CONTENT_TYPE',
    `${what} answered with Content-Type ${quoteInput(type, 64)}, expected JSON or an SSE stream`,
    {
      details: { status: response.status, contentType: type.slice(0, 256) },
    },
  );
}

/** The error of a stream that ended before the responses it owed. */
export function streamEnded(what: string): LocalError {
  return new LocalError('CONNECTION_CLOSED', `The response stream of ${what} ended before its response`);
}

/**
 * The error object of a JSON-RPC error response `body` for the request `id` (the body's id equal to it, absent or
 * null; only absent or null without `id`); `undefined` when the body is something else.
 */
export function rpcErrorFor(body: unknown, id?: RequestId): RpcErrorObject | undefined {
  if (typeof body !== 'object' || body === null || Array.isArray(body)) return undefined;
  const { error, id: bodyId } = body as { error?: unknown; id?: unknown };
  if (bodyId !== undefined && bodyId !== null && bodyId !== id) return undefined;
  if (typeof error !== 'object' || error === null) return undefined;
  const { code, message, data } = error as { code?: unknown; message?: unknown; data?: unknown };
  if (typeof code !== 'number' || !Number.isInteger(code) || typeof message !== 'string') return undefined;
  return data === undefined ? { code, message } : { code, message, data };
}

/**
 * True for the refusals only a 2026-07-28 server gives (the era detection rule): 400 with HeaderMismatch,
 * MissingRequiredClientCapability or UnsupportedProtocolVersion, and 404 with MethodNotFound.
 */
export function isModernRefusal(status: number, code: number): boolean {
  if (status === 400) {
    return (
      code === ErrorCode.HeaderMismatch ||
      code === ErrorCode.MissingRequiredClientCapability ||
      code === ErrorCode.UnsupportedProtocolVersion
    );
  }
  return status === 404 && code === ErrorCode.MethodNotFound;
}

/** A failure as the engine should see it: a `LocalError` as it is, anything else (a broken connection) as `CONNECTION_CLOSED`. */
export function broken(error: unknown, what: string): LocalError {
  if (error instanceof LocalError) return error;
  const text = error instanceof Error ? error.message : String(error);
  return new LocalError('CONNECTION_CLOSED', `The connection broke during ${what}: ${text}`, { cause: error });
}
