import { LocalError, type RpcMessage } from '@wiremcp/protocol';
import { parsePayload } from './parse-payload.js';
import type { MessageInfo, Transport } from './transport.js';

/**
 * The part of the `MessagePort` API the transport uses. Browsers, workers, Deno, Bun and Node (`MessageChannel`,
 * `worker_threads`) have it; a dedicated `Worker` and a worker's global scope have the same shape, but a port of
 * a `MessageChannel` handed over to the worker is the better choice: closing it ends the channel, not the worker.
 */
export interface MessagePortLike {
  postMessage(message: unknown): void;
  addEventListener(type: 'message', listener: (event: { data: unknown }) => void): void;
  /** Node's ports report the other end closing (`close`); browsers have no such event. */
  addEventListener(type: 'close', listener: () => void): void;
  /** Ports delivering through `addEventListener` wait for `start()`. */
  start?(): void;
  close?(): void;
}

/** Options of {@link MessagePortTransport}. */
export interface MessagePortTransportOptions {
  /** Largest inbound message, in UTF-16 code units of its JSON text (default 4 MiB); larger ones are refused. */
  readonly maxMessageBytes?: number;
  /** Attached to every inbound message. */
  readonly info?: MessageInfo;
}

/** Default of {@link MessagePortTransportOptions.maxMessageBytes}. */
export const DEFAULT_PORT_MAX_MESSAGE_BYTES = 4 * 1024 * 1024;

/** What one side posts when it closes: the only non-text value on the channel. */
const CLOSE = Object.freeze({ mcp: 'close' });

/** A bounded description of a value (never its content). */
function describe(data: unknown): string {
  if (data === null) return 'null';
  if (typeof data !== 'object') return `a ${typeof data}`;
  const name = (data as { constructor?: { name?: unknown } }).constructor?.name;
  return typeof name === 'string' ? `a ${name.slice(0, 40)}` : 'an object';
}

function isClose(data: unknown): boolean {
  return typeof data === 'object' && data !== null && (data as { mcp?: unknown }).mcp === 'close';
}

/**
 * A {@link Transport} over a `MessagePort` (a page and its worker, two frames, two threads): each JSON-RPC message
 * (or batch) is posted as its JSON text, so what crosses is exactly what a wire would carry (no structured-clone
 * surprises, a size cap that means something). Text that is not JSON, and any value that is not text, is reported
 * as `PARSE_ERROR` (the engine answers `-32700`), text over `maxMessageBytes` as `FRAME_TOO_LARGE` (`-32600`); the
 * channel keeps serving. `close()` tells the other end (it closes too) and closes the port.
 *
 * Browser ports do not report a peer that vanished (a terminated worker): nothing arrives any more, and requests in
 * flight end by their timeouts. Close the transport when the host knows the worker is gone (its `error` event).
 */
export class MessagePortTransport implements Transport {
  onmessage?: ((message: unknown, info?: MessageInfo) => void) | undefined;
  onerror?: ((error: Error) => void) | undefined;
  onclose?: (() => void) | undefined;
  readonly #port: MessagePortLike;
  readonly #maxMessage: number;
  readonly #info: MessageInfo | undefined;
  #started = false;
  #closed = false;

  constructor(port: MessagePortLike, options: MessagePortTransportOptions = {}) {
    this.#port = port;
    this.#maxMessage = options.maxMessageBytes ?? DEFAULT_PORT_MAX_MESSAGE_BYTES;
    this.#info = options.info;
  }

  start(): Promise<void> {
    if (this.#started) return Promise.reject(new LocalError('ALREADY_CONNECTED', 'the MessagePort transport was already started'));
    if (this.#closed) return Promise.reject(new LocalError('CONNECTION_CLOSED', 'the MessagePort transport is closed'));
    this.#started = true;
    this.#port.addEventListener('message', (event) => this.#receive(event.data));
    this.#port.addEventListener('close', () => this.#ended());
    this.#port.start?.();
    return Promise.resolve();
  }

  send(message: RpcMessage | RpcMessage[]): Promise<void> {
    if (this.#closed) return Promise.reject(new LocalError('NOT_CONNECTED', 'the MessagePort transport is closed'));
    let text: string;
    try {
      text = JSON.stringify(message);
    } catch (error) {
      return Promise.reject(new LocalError('SEND_FAILED', 'Message is not serializable as JSON', { cause: error }));
    }
    try {
      this.#port.postMessage(text);
    } catch (error) {
      return Promise.reject(new LocalError('SEND_FAILED', `could not post on the port: ${(error as Error).message}`, { cause: error }));
    }
    return Promise.resolve();
  }

  close(): Promise<void> {
    if (this.#closed) return Promise.resolve();
    try {
      this.#port.postMessage(CLOSE);
    } catch {
      // The port is already unusable: closed either way.
    }
    this.#ended();
    return Promise.resolve();
  }

  [Symbol.asyncDispose](): Promise<void> {
    return this.close();
  }

  #receive(data: unknown): void {
    if (this.#closed) return;
    if (typeof data !== 'string') {
      if (isClose(data)) this.#ended();
      else this.onerror?.(new LocalError('PARSE_ERROR', `a MessagePort transport carries JSON text, not ${describe(data)}`));
      return;
    }
    if (data.length > this.#maxMessage) {
      this.onerror?.(new LocalError('FRAME_TOO_LARGE', `message of ${data.length} characters exceeds the limit of ${this.#maxMessage}`));
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

  #ended(): void {
    if (this.#closed) return;
    this.#closed = true;
    this.#port.close?.();
    this.onclose?.();
  }
}
