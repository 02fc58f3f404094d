/**
 * The JSON-RPC 2.0 envelope as MCP uses it, independent of revision. The per-revision schemas describe the same
 * envelopes with revision-specific names (`JSONRPCError` became `JSONRPCErrorResponse` in 2025-11-25); the engine
 * works with these era-neutral shapes.
 */
import type { RpcErrorObject } from './errors.js';

/** A JSON-RPC request id. MCP forbids `null`. */
export type RequestId = string | number;

/** A JSON object with unknown values: the shape of every `params` and `result`. */
export type JsonObject = { [key: string]: unknown };

/** A request: expects exactly one response with the same id. */
export interface RpcRequest {
  jsonrpc: '2.0';
  id: RequestId;
  method: string;
  params?: JsonObject;
}

/** A notification: no id, no response. */
export interface RpcNotification {
  jsonrpc: '2.0';
  method: string;
  params?: JsonObject;
}

/** A successful response. */
export interface RpcResultResponse {
  jsonrpc: '2.0';
  id: RequestId;
  result: JsonObject;
}

/** An error response. `id` is `null` when the request's id could not be determined (unparsable input). */
export interface RpcErrorResponse {
  jsonrpc: '2.0';
  id: RequestId | null;
  error: RpcErrorObject;
}

/** Either kind of response. */
export type RpcResponse = RpcResultResponse | RpcErrorResponse;

/** Any single JSON-RPC message. */
export type RpcMessage = RpcRequest | RpcNotification | RpcResponse;

/** A single message or, in 2025-03-26 only, a batch. */
export type RpcPayload = RpcMessage | RpcMessage[];

/** True when `value` is a valid MCP request id (a string, or a finite number). */
export function isRequestId(value: unknown): value is RequestId {
  return typeof value === 'string' || (typeof value === 'number' && Number.isFinite(value));
}
