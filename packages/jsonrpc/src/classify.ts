import { ErrorCode, type RequestId } from '@wiremcp/protocol';

/** Kinds returned by {@link messageKind}. Numbers, so that classifying a message allocates nothing. */
export const MessageKind = {
  Invalid: 0,
  Request: 1,
  Notification: 2,
  Result: 3,
  Error: 4,
} as const;

/** One of the values of {@link MessageKind}. */
export type MessageKindValue = (typeof MessageKind)[keyof typeof MessageKind];

/** Why a value is not a valid message, and the id to answer with. */
export interface InvalidMessage {
  readonly id: RequestId | null;
  readonly code: number;
  readonly message: string;
}

function isId(value: unknown): value is RequestId {
  return typeof value === 'string' || (typeof value === 'number' && Number.isFinite(value));
}

function isParams(value: unknown): boolean {
  return value === undefined || (typeof value === 'object' && value !== null && !Array.isArray(value));
}

/**
 * Classifies one (non-array) JSON value by cheap structural checks: the wire needs no more than this to route a
 * message, and per-method validation happens only where a handler asks for it. Never throws, never allocates.
 *
 * - requests and notifications need `jsonrpc: "2.0"`, a string `method`, and `params` absent or an object;
 * - a request id is a string or a finite number;
 * - responses need an id and exactly one of `result` and `error`.
 *
 * For `Invalid`, {@link describeInvalid} says why.
 */
export function messageKind(value: unknown): MessageKindValue {
  if (typeof value !== 'object' || value === null) return MessageKind.Invalid;
  const message = value as Record<string, unknown>;
  if (message.jsonrpc !== '2.0') return MessageKind.Invalid;
  const method = message.method;
  if (method !== undefined) {
    if (typeof method !== 'string' || !isParams(message.params)) return MessageKind.Invalid;
    const id = message.id;
    if (id === undefined) return MessageKind.Notification;
    return isId(id) ? MessageKind.Request : MessageKind.Invalid;
  }
  if (!isId(message.id)) return MessageKind.Invalid;
  const hasResult = message.result !== undefined;
  const hasError = message.error !== undefined;
  if (hasResult === hasError) return MessageKind.Invalid;
  return hasResult ? MessageKind.Result : MessageKind.Error;
}

/**
 * The error answer for a value {@link messageKind} rejected: `-32600` for a broken envelope, `-32602` for
 * array `params` (valid JSON-RPC, never valid MCP). The id is echoed when it was usable, otherwise `null`.
 */
export function describeInvalid(value: unknown): InvalidMessage {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    return { id: null, code: ErrorCode.InvalidRequest, message: 'Invalid request: a JSON-RPC message must be an object' };
  }
  const message = value as Record<string, unknown>;
  const id = isId(message.id) ? message.id : null;
  if (message.jsonrpc !== '2.0') {
    return { id, code: ErrorCode.InvalidRequest, message: 'Invalid request: "jsonrpc" must be "2.0"' };
  }
  if (message.method !== undefined) {
    if (typeof message.method !== 'string') {
      return { id, code: ErrorCode.InvalidRequest, message: 'Invalid request: "method" must be a string' };
    }
    if (Array.isArray(message.params)) {
      return { id, code: ErrorCode.InvalidParams, message: 'Invalid params: MCP parameters must be an object, not an array' };
    }
    if (!isParams(message.params)) {
      return { id, code: ErrorCode.InvalidRequest, message: 'Invalid request: "params" must be an object' };
    }
    return { id: null, code: ErrorCode.InvalidRequest, message: 'Invalid request: "id" must be a string or a number' };
  }
  return { id, code: ErrorCode.InvalidRequest, message: 'Invalid request: not a request, notification or response' };
}

/** True when an invalid value is a broken response (no method, a result or an error): never answered. */
export function isBrokenResponse(value: unknown): boolean {
  return typeof value === 'object' && value !== null && ('result' in value || 'error' in value) && !('method' in value);
}

/**
 * The error answer (`id: null`) for input a transport could not turn into a message: `-32700` for bad JSON or
 * UTF-8 (`PARSE_ERROR`), `-32600` for an oversized frame (`FRAME_TOO_LARGE`); `undefined` for anything else.
 */
export function answerForTransportError(error: Error): { code: number; message: string } | undefined {
  const code = (error as { code?: unknown }).code;
  if (code === 'PARSE_ERROR') return { code: ErrorCode.ParseError, message: `Parse error: ${error.message}` };
  if (code === 'FRAME_TOO_LARGE') return { code: ErrorCode.InvalidRequest, message: `Invalid request: ${error.message}` };
  return undefined;
}
