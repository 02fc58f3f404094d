/**
 * Error codes and the two error classes of wiremcp.
 *
 * `RpcError` is an error that travels on the wire (a JSON-RPC error object). `LocalError` is an error that never
 * does: a timeout, a closed connection, an oversized frame. The spec asks that local SDK errors not be confusable
 * with errors from the peer, so the two classes never share codes: wire codes are numbers, local codes strings.
 */

/** JSON-RPC and MCP error codes, with the revisions that define them noted. */
export const ErrorCode = {
  /** Invalid JSON was received (JSON-RPC). */
  ParseError: -32700,
  /** The JSON is not a valid request object (JSON-RPC). */
  InvalidRequest: -32600,
  /** The method does not exist, or its capability was not advertised (JSON-RPC). */
  MethodNotFound: -32601,
  /** Invalid method parameters; in MCP also unknown tool/prompt, bad cursor, missing `_meta` (JSON-RPC). */
  InvalidParams: -32602,
  /** Internal error (JSON-RPC). The message sent for it never carries internal details. */
  InternalError: -32603,
  /** Resource not found: 2024-11-05 to 2025-11-25. Reserved in 2026-07-28 (which uses -32602); still accepted. */
  ResourceNotFound: -32002,
  /** URL elicitation required, `data.elicitations`: 2025-11-25. */
  UrlElicitationRequired: -32042,
  /** HTTP headers missing, malformed or not matching the body: 2026-07-28 (HTTP 400). */
  HeaderMismatch: -32020,
  /** The request needs a client capability it did not declare, `data.requiredCapabilities`: 2026-07-28. */
  MissingRequiredClientCapability: -32021,
  /** The requested protocol version is not supported, `data: {supported, requested}`: 2026-07-28. */
  UnsupportedProtocolVersion: -32022,
  /**
   * wiremcp's own (no revision defines one): the request was refused by a rate limit, `data.retryAfterMs` and
   * `data.retryAfter` (seconds) say when to try again. Over HTTP it is answered with 429 and `Retry-After`.
   */
  RateLimited: -32029,
} as const;

/** One of the numeric codes in {@link ErrorCode}. */
export type ErrorCodeValue = (typeof ErrorCode)[keyof typeof ErrorCode];

/** The JSON shape of a JSON-RPC error object. */
export interface RpcErrorObject {
  code: number;
  message: string;
  data?: unknown;
}

/**
 * An error that is, or will be, a JSON-RPC error object on the wire. Throw it from a request handler to answer
 * with exactly this code, message and data.
 */
export class RpcError extends Error {
  /** The JSON-RPC error code. */
  readonly code: number;
  /** Optional structured data sent with the error. */
  readonly data: unknown;

  constructor(code: number, message: string, data?: unknown) {
    super(message);
    this.name = 'RpcError';
    this.code = code;
    this.data = data;
  }

  /** The wire form: `{code, message, data?}`. */
  toJSON(): RpcErrorObject {
    return this.data === undefined
      ? { code: this.code, message: this.message }
      : { code: this.code, message: this.message, data: this.data };
  }

  /**
   * Builds an RpcError from a received error object. A malformed object (not an object, no integer code, no
   * string message) still yields an RpcError, with `InternalError` and a message that says what was wrong, so
   * a broken peer cannot make the receiver throw something else.
   */
  static fromJSON(value: unknown): RpcError {
    if (typeof value === 'object' && value !== null) {
      const { code, message, data } = value as Record<string, unknown>;
      if (typeof code === 'number' && Number.isInteger(code) && typeof message === 'string') {
        return new RpcError(code, message, data);
      }
    }
    return new RpcError(ErrorCode.InternalError, 'Malformed error object received from peer', value);
  }
}

/** `-32700`: the bytes were not JSON. */
export function parseError(message = 'Parse error', data?: unknown): RpcError {
  return new RpcError(ErrorCode.ParseError, message, data);
}

/** `-32600`: the value is not a valid JSON-RPC request. */
export function invalidRequest(message = 'Invalid request', data?: unknown): RpcError {
  return new RpcError(ErrorCode.InvalidRequest, message, data);
}

/**
 * The longest piece of peer input an error quotes, in UTF-16 code units. Error messages and `data` that name a
 * method, tool, prompt, URI, version, id or log level the peer sent quote at most this much of it, then `…`, so a
 * 1 MiB method name costs a 1 MiB request, not a 1 MiB answer as well.
 */
export const MAX_QUOTED_INPUT_LENGTH = 128;

/**
 * `text` when it is at most `max` code units long; otherwise its first `max` code units (one less when that would
 * split a surrogate pair) followed by `…`.
 */
export function truncateInput(text: string, max: number = MAX_QUOTED_INPUT_LENGTH): string {
  if (text.length <= max) return text;
  let end = max;
  const last = text.charCodeAt(end - 1);
  if (last >= 0xd800 && last <= 0xdbff) end -= 1;
  return `${text.slice(0, end)}…`;
}

/**
 * A value the peer sent, as an error message quotes it: its JSON form (strings in double quotes), truncated by
 * {@link truncateInput}. Strings are cut before they are encoded, so a huge one is never copied whole.
 */
export function quoteInput(value: unknown, max: number = MAX_QUOTED_INPUT_LENGTH): string {
  if (typeof value === 'string') {
    const cut = truncateInput(value, max);
    return cut === value ? JSON.stringify(value) : `${JSON.stringify(cut.slice(0, -1))}…`;
  }
  let text: string | undefined;
  try {
    text = JSON.stringify(value);
  } catch {
    text = undefined;
  }
  return truncateInput(text ?? String(value), max);
}

/** `-32601` for `method` (quoted up to {@link MAX_QUOTED_INPUT_LENGTH} code units). */
export function methodNotFound(method: string, data?: unknown): RpcError {
  return new RpcError(ErrorCode.MethodNotFound, `Method not found: ${truncateInput(method)}`, data);
}

/** `-32602` with a message that says what is wrong with the parameters. */
export function invalidParams(message: string, data?: unknown): RpcError {
  return new RpcError(ErrorCode.InvalidParams, message, data);
}

/** `-32603` with the fixed, non-revealing message sent for every internal failure. */
export function internalError(data?: unknown): RpcError {
  return new RpcError(ErrorCode.InternalError, 'Internal error', data);
}

/** String codes of {@link LocalError}: failures that happen on this side and are never sent to the peer. */
export type LocalErrorCode =
  /** The transport closed (or was never connected) before the request completed. */
  | 'CONNECTION_CLOSED'
  /** The request did not complete within its timeout. */
  | 'REQUEST_TIMEOUT'
  /** The request was cancelled through its AbortSignal. */
  | 'REQUEST_CANCELLED'
  /** Received bytes were not valid JSON (or not valid UTF-8). */
  | 'PARSE_ERROR'
  /** A received frame exceeded the configured maximum size. */
  | 'FRAME_TOO_LARGE'
  /** A received frame could not be decoded (bad header, truncated frame). */
  | 'FRAMING_ERROR'
  /** The peer sent something the protocol does not allow (unknown response id, wrong era…). */
  | 'PROTOCOL_VIOLATION'
  /** A message could not be written to the transport. */
  | 'SEND_FAILED'
  /** The operation needs a connected transport. */
  | 'NOT_CONNECTED'
  /** `connect` was called on something already connected. */
  | 'ALREADY_CONNECTED'
  /** The server process exited or could not be started. */
  | 'SERVER_EXITED'
  /** No protocol version is shared with the peer. */
  | 'UNSUPPORTED_PROTOCOL_VERSION'
  /** The peer lacks a capability this operation needs. */
  | 'CAPABILITY_NOT_SUPPORTED'
  /** A result did not match its declared schema (e.g. structuredContent vs outputSchema). */
  | 'INVALID_RESULT'
  /** Bad arguments passed to a wiremcp API by the caller. */
  | 'INVALID_ARGUMENT'
  /** An HTTP exchange failed with a status the protocol does not turn into a JSON-RPC answer (`details.status`). */
  | 'HTTP_ERROR'
  /** The server no longer knows the HTTP session (404 on a request carrying `Mcp-Session-Id`). */
  | 'SESSION_EXPIRED'
  /** An HTTP response had a `Content-Type` the transport cannot read. */
  | 'UNSUPPORTED_CONTENT_TYPE'
  /** The authorization hook could not obtain credentials the server accepts (the hook's error is the `cause`). */
  | 'AUTHORIZATION_FAILED';

/** An error raised on this side of the connection; never sent on the wire. */
export class LocalError extends Error {
  /** What went wrong, as a stable string code. */
  readonly code: LocalErrorCode;
  /** Optional details (the limit that was hit, the exit code…). */
  readonly details: unknown;

  constructor(code: LocalErrorCode, message: string, options?: { cause?: unknown; details?: unknown }) {
    super(message, options?.cause === undefined ? undefined : { cause: options.cause });
    this.name = 'LocalError';
    this.code = code;
    this.details = options?.details;
  }
}

/** True when `error` is a {@link LocalError}, optionally with the given code. */
export function isLocalError(error: unknown, code?: LocalErrorCode): error is LocalError {
  return error instanceof LocalError && (code === undefined || error.code === code);
}
