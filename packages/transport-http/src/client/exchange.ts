/**
 * What the Streamable HTTP client transport knows about one request's exchange, and which refusals it hands to the
 * engine as the request's JSON-RPC error rather than as a local failure.
 */
import { isModernRefusal } from './errors.js';
import type { RequestId, RpcErrorObject, RpcMessage } from '@wiremcp/protocol';

/** The notification that completes a legacy handshake. */
export const INITIALIZED: RpcMessage = { jsonrpc: '2.0', method: 'notifications/initialized' };
/** The headers of every POST. */
export const POST_HEADERS: Readonly<Record<string, string>> = {
  'content-type': 'application/json',
  accept: 'application/json, text/event-stream',
};

/** `modern`: a 2026-07-28 request; `legacy`: a request of a session (or before one). */
export type Era = 'modern' | 'legacy';

/** One request's exchange, as the response handling sees it. */
export interface Exchange {
  /** The request's id (a batch: its first request's). */
  readonly id: RequestId;
  /** Every request id the exchange owes a response for (more than one only in a 2025-03-26 batch). */
  readonly ids: readonly RequestId[];
  readonly method: string;
  readonly params: Record<string, unknown> | undefined;
  readonly era: Era;
  readonly initialize: boolean;
  readonly what: string;
  /** Where messages read for this exchange go (the engine, or an internal request). */
  readonly deliver: (message: unknown) => void;
}

/**
 * Whether the JSON-RPC `error` of a non-2xx answer is the request's response. Modern: only refusals a modern
 * server alone gives, until the server has shown it is modern (`confirmed`), then any. Legacy: any, except for
 * `initialize` (whose HTTP status decides the fallback to HTTP+SSE).
 */
export function isErrorResponse(exchange: Exchange, status: number, error: RpcErrorObject, confirmed: boolean): boolean {
  if (exchange.era === 'legacy') return !exchange.initialize;
  return confirmed || isModernRefusal(status, error.code);
}
