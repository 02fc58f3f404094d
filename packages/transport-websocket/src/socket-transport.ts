/**
 * A `Transport` over one open WebSocket, web-standard (the browser `WebSocket` API, which `ws` also offers): one
 * JSON-RPC message (or batch) per text frame. Binary frames are refused (close code 1003), a text frame over
 * `maxMessageBytes` closes the connection (1009), bad JSON is reported as `PARSE_ERROR` (the engine answers
 * `-32700` and keeps serving), and a peer that does not read is cut off once `maxQueuedBytes` wait unsent (1008),
 * instead of holding an unbounded queue.
 */
import type { MessageInfo, Transport } from '@wiremcp/jsonrpc';
import { parsePayload } from '@wiremcp/jsonrpc';
import { LocalError, type RpcMessage } from '@wiremcp/protocol';

/** The part of the WebSocket API the transport uses (browsers, Deno, Bun, Node ≥ 22 and `ws` all have it). */
export interface WebSocketLike {
  readonly readyState: number;
  readonly bufferedAmount: number;
  readonly protocol: string;
  send(data: string): void;
  close(code?: number, reason?: string): void;
  addEventListener(type: 'message', listener: (event: { data: unknown }) => void): void;
  addEventListener(type: 'close', listener: (event: { code: number; reason: string }) => void): void;
  addEventListener(type: 'error', listener: (event: unknown) => void): void;
}

/** Limits of one connection. */
export interface SocketLimits {
  /** Largest inbound message, in UTF-16 code units of its text (default 4 MiB). */
  readonly maxMessageBytes?: number;
  /** Most bytes waiting unsent before the connection is closed as a slow reader (default 16 MiB). */
  readonly maxQueuedBytes?: number;
}

/** The subprotocol of MCP over WebSocket. */
export const MCP_SUBPROTOCOL = 'mcp';
/** Default of {@link SocketLimits.maxMessageBytes}. */
export const DEFAULT_MAX_MESSAGE_BYTES = 4 * 1024 * 1024;
/** Default of {@link SocketLimits.maxQueuedBytes}. */
export const DEFAULT_MAX_QUEUED_BYTES = 16 * 1024 * 1024;

const OPEN = 1;
/** Close codes of a normal end (RFC 6455: normal, going away, no status). */
const NORMAL_CLOSES = new Set([1000, 1001, 1005]);

/** A transport over an already open WebSocket; see the module comment. */
export class SocketTransport implements Transport {
  onmessage?: ((message: unknown, info?: MessageInfo) => void) | undefined;
  onerror?: ((error: Error) => void) | undefined;
  onclose?: (() => void) | undefined;
  #socket: WebSocketLike;
  #info: MessageInfo | undefined;
  #maxMessage: number;
  #maxQueued: number;
  #started = false;
  #closed = false;
  #closeReason: Error | undefined;

  /** `info` is attached to every inbound message (the upgrade's headers and authorization, on a server). */
  constructor(socket: WebSocketLike, limits: SocketLimits = {}, info?: MessageInfo) {
    this.#socket = socket;
    this.#info = info;
    this.#maxMessage = limits.maxMessageBytes ?? DEFAULT_MAX_MESSAGE_BYTES;
    this.#maxQueued = limits.maxQueuedBytes ?? DEFAULT_MAX_QUEUED_BYTES;
    socket.addEventListener('message', (event) => this.#receive(event.data));
    socket.addEventListener('close', (event) => this.#ended(event.code, event.reason));
    socket.addEventListener('error', () => {});
  }

  /** Why the connection ended, when it was not a normal close. */
  get closeReason(): Error | undefined {
    return this.#closeReason;
  }

  start(): Promise<void> {
    if (this.#started) return Promise.reject(new LocalError('ALREADY_CONNECTED', 'the WebSocket transport was already started'));
    this.#started = true;
    if (this.#socket.readyState !== OPEN) this.#ended(1006, 'the WebSocket is not open');
    return Promise.resolve();
  }

  send(message: RpcMessage | RpcMessage[]): Promise<void> {
    if (this.#closed || this.#socket.readyState !== OPEN) {
      return Promise.reject(new LocalError('NOT_CONNECTED', 'the WebSocket connection is closed'));
    }
    const text = JSON.stringify(message);
    if (this.#socket.bufferedAmount + text.length > this.#maxQueued) {
      this.#socket.close(1008, 'send queue full: the peer does not read');
      this.#ended(1008, 'send queue full: the peer does not read');
      return Promise.reject(new LocalError('SEND_FAILED', `more than ${this.#maxQueued} bytes wait unsent: the peer does not read`));
    }
    try {
      this.#socket.send(text);
    } catch (error) {
      return Promise.reject(
        new LocalError('SEND_FAILED', `could not send on the WebSocket: ${(error as Error).message}`, { cause: error }),
      );
    }
    return Promise.resolve();
  }

  close(): Promise<void> {
    if (!this.#closed) {
      try {
        this.#socket.close(1000);
      } catch {
        // Closing a socket that never opened throws in some runtimes: it is closed either way.
      }
      this.#ended(1000, '');
    }
    return Promise.resolve();
  }

  [Symbol.asyncDispose](): Promise<void> {
    return this.close();
  }

  #receive(data: unknown): void {
    if (this.#closed) return;
    if (typeof data !== 'string') {
      this.#refuse(1003, 'binary frames are not MCP messages: send JSON-RPC as text');
      return;
    }
    if (data.length > this.#maxMessage) {
      this.#refuse(1009, `message of ${data.length} characters exceeds the limit of ${this.#maxMessage}`);
      return;
    }
    let value: unknown;
    try {
      value = parsePayload(data);
    } catch (error) {
      this.onerror?.(error as Error);
      return;
    }
    this.onmessage?.(value, this.#info);
  }

  #refuse(code: number, reason: string): void {
    this.onerror?.(new LocalError(code === 1009 ? 'FRAME_TOO_LARGE' : 'PROTOCOL_VIOLATION', reason));
    this.#socket.close(code, reason);
    this.#ended(code, reason);
  }

  #ended(code: number, reason: string): void {
    if (this.#closed) return;
    this.#closed = true;
    if (!NORMAL_CLOSES.has(code)) {
      this.#closeReason = new LocalError(
        'CONNECTION_CLOSED',
        `the WebSocket closed with code ${code}${reason ? `: ${reason.slice(0, 123)}` : ''}`,
        {
          details: { code },
        },
      );
    }
    this.onclose?.();
  }
}
