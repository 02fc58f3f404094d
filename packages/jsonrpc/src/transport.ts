import type { RequestId, RpcMessage } from '@wiremcp/protocol';

/**
 * Per-message context a transport may attach to what it delivers: HTTP headers, the session, the caller's
 * authorization. The engine passes it through to handlers unchanged.
 */
export interface MessageInfo {
  /** Transport-specific request data (e.g. HTTP headers, lower-cased names). */
  readonly headers?: Readonly<Record<string, string | undefined>>;
  /** The legacy session this message belongs to, when the transport has sessions. */
  readonly sessionId?: string;
  /** Authorization information established by the transport (opaque to the engine). */
  readonly auth?: unknown;
  /** True when the message arrived inside a JSON-RPC batch (2025-03-26). */
  readonly inBatch?: boolean;
  /** Anything else a transport wants handlers to see. */
  readonly [key: string]: unknown;
}

/** Options for one {@link Transport.send} call. */
export interface SendOptions {
  /**
   * The inbound request this message belongs to (a notification sent while handling it, or its response).
   * Transports that multiplex streams (Streamable HTTP) route the message onto that request's stream.
   */
  readonly relatedRequestId?: RequestId;
}

/**
 * A bidirectional message channel. Contract:
 * - `start()` begins delivering messages; `onmessage` receives each parsed JSON value in arrival order, with no
 *   validation (the engine validates the envelope). An array is a JSON-RPC batch.
 * - Input that cannot become a JSON value is reported through `onerror` with a `LocalError` of code
 *   `PARSE_ERROR` (bad JSON or bad UTF-8) or `FRAME_TOO_LARGE`; the engine answers it with `-32700` / `-32600`
 *   and `id: null` and keeps serving. Other `onerror` calls are informational unless followed by `onclose`.
 * - `send()` resolves when the message has been handed to the underlying channel (not when the peer got it) and
 *   rejects with a `LocalError` (`NOT_CONNECTED`, `SEND_FAILED`) when it cannot.
 * - `close()` is idempotent, and `onclose` fires exactly once, whoever closed.
 * - Optionally, `onend` reports that input ended while output is still open (see below).
 */
export interface Transport {
  start(): Promise<void>;
  send(message: RpcMessage | RpcMessage[], options?: SendOptions): Promise<void>;
  close(): Promise<void>;
  onmessage?: ((message: unknown, info?: MessageInfo) => void) | undefined;
  onerror?: ((error: Error) => void) | undefined;
  onclose?: (() => void) | undefined;
  /**
   * Optional half-close: the other side will send nothing more (stdin reached EOF), but this side may still
   * write. The engine finishes the requests it is handling, sends their responses, then closes the transport.
   */
  onend?: (() => void) | undefined;
  /**
   * Optional: why the transport closed, when it was not a normal close (e.g. a `LocalError` with code
   * `SERVER_EXITED` naming the exit code and the end of stderr). Pending requests are rejected with it.
   */
  readonly closeReason?: Error | undefined;
  /**
   * Optional: called by the engine when it gives up on an outbound request (cancelled or timed out), so a
   * transport whose cancellation is stream-based (2026-07-28 HTTP: closing the response stream) can act on it.
   */
  cancelRequest?(id: RequestId): void;
  [Symbol.asyncDispose](): Promise<void>;
}
