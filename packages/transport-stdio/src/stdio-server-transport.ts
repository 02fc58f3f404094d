import type { Readable, Writable } from 'node:stream';
import type { Framing } from '@wiremcp/framing';
import type { MessageInfo, SendOptions, Transport } from '@wiremcp/jsonrpc';
import { LocalError, type RpcMessage } from '@wiremcp/protocol';
import { MessageReader } from './message-reader.js';
import { MessageWriter, RESOLVED } from './message-writer.js';
import { swallowLateErrors } from './swallow-errors.js';

/** Options of a {@link StdioServerTransport}. */
export interface StdioServerTransportOptions {
  /** Where client messages come from, e.g. `process.stdin`. */
  input: Readable;
  /** Where messages to the client go, e.g. `process.stdout`. Nothing else is ever written to it. */
  output: Writable;
  /**
   * The framing. Default `'auto'`: detected from the first bytes received (NDJSON or Content-Length)
   * and used for replies too; messages sent before anything was received wait for the detection, except that a
   * request sent first (this side initiates, as a client does) is written as NDJSON at once.
   */
  framing?: Framing | 'auto';
  /** Largest inbound message in bytes (default 16 MiB); a larger one is skipped and answered `-32600`. */
  maxFrameBytes?: number;
  /** Largest Content-Length header block in bytes (default 8 KiB). */
  maxHeaderBytes?: number;
  /**
   * Largest oversized Content-Length body counted through to reach the next frame (default 4 × `maxFrameBytes`,
   * 64 MiB); a frame declared larger is not waited for: the reader looks for the next header instead.
   */
  maxSkipBytes?: number;
  /**
   * End `output` when the transport closes (default false). Leave it false for `process.stdout`; set it
   * for a stream that should tell the client "done", such as a socket.
   */
  endOutputOnClose?: boolean;
  /**
   * Messages sent in one turn (a burst of requests, the answers to a chunk of pipelined requests) are written
   * together. With this set (e.g. 2048), once that many bytes are queued they go out at once, so a peer on another
   * CPU starts on them while the rest are made. Default `Infinity`: one write per turn, whatever its size.
   */
  writeBatchBytes?: number;
}

/**
 * The server side of the stdio transport, over injected streams: reads client messages from `input`,
 * writes to `output`, and touches nothing else (no `process`, no `process.exit`).
 *
 * - Inbound: framing decode, one strict UTF-8 decode and one `JSON.parse` per message, delivered to
 *   `onmessage` in order. Invalid JSON or UTF-8 → `onerror(LocalError('PARSE_ERROR'))`; an oversized frame
 *   → `onerror(LocalError('FRAME_TOO_LARGE'))`; a broken Content-Length frame → `FRAMING_ERROR`. Reading
 *   goes on after each.
 * - Outbound: messages sent in the same turn of the event loop go out in one `output.write`; see
 *   `MessageWriter` for the backpressure policy.
 * - End of input: `onend` is called if set (the engine finishes in-flight requests, then closes);
 *   otherwise the transport closes.
 * - `output` failure (EPIPE: the client went away): closes with `closeReason` =
 *   `LocalError('CONNECTION_CLOSED')` whose `cause` is the stream error. No error event is left unhandled.
 * - `close()`: hands everything queued to `output`, stops reading `input` (pausing it, so a process
 *   whose only handle was stdin can exit), fires `onclose` once. Idempotent.
 */
export class StdioServerTransport implements Transport {
  onmessage: ((message: unknown, info?: MessageInfo) => void) | undefined;
  onerror: ((error: Error) => void) | undefined;
  onclose: (() => void) | undefined;
  onend: (() => void) | undefined;

  readonly #input: Readable;
  readonly #reader: MessageReader;
  readonly #writer: MessageWriter;
  readonly #endOutputOnClose: boolean;
  #state: 'new' | 'open' | 'closed' = 'new';
  #inputEnded = false;
  #closeReason: Error | undefined;
  #resolveClosed!: () => void;
  readonly #closed = new Promise<void>((resolve) => (this.#resolveClosed = resolve));

  readonly #onData = (chunk: Uint8Array | string): void => {
    this.#reader.push(chunk);
    // Under auto-detection, replies use the client's framing as soon as it is known.
    if (this.#writer.framing === undefined) {
      const framing = this.#reader.framing;
      if (framing !== undefined) this.#writer.setFraming(framing);
    }
  };
  readonly #onInputEnd = (): void => this.#endOfInput();
  readonly #onInputError = (error: Error): void => {
    this.onerror?.(new LocalError('CONNECTION_CLOSED', `Reading the input failed: ${error.message}`, { cause: error }));
    this.#endOfInput();
  };

  constructor(options: StdioServerTransportOptions) {
    const framing = options.framing ?? 'auto';
    if (framing !== 'auto' && framing !== 'ndjson' && framing !== 'content-length') {
      throw new LocalError('INVALID_ARGUMENT', `framing must be 'auto', 'ndjson' or 'content-length', got ${String(framing)}`);
    }
    this.#input = options.input;
    this.#endOutputOnClose = options.endOutputOnClose ?? false;
    this.#reader = new MessageReader(
      { framing, maxFrameBytes: options.maxFrameBytes, maxHeaderBytes: options.maxHeaderBytes, maxSkipBytes: options.maxSkipBytes },
      {
        deliver: (message) => this.onmessage?.(message),
        fail: (error) => this.onerror?.(error),
      },
    );
    this.#writer = new MessageWriter(options.output, framing === 'auto' ? undefined : framing, (error) => this.#outputFailed(error), {
      batchBytes: options.writeBatchBytes,
    });
  }

  /** Why the transport closed, when it was not a normal close (the output failed). */
  get closeReason(): Error | undefined {
    return this.#closeReason;
  }

  /**
   * Resolves once the transport has closed, right after `onclose` (whoever closed it: the engine at the end of
   * input, `close()`, a broken output); `closeReason` then tells an abnormal end. Lets whoever runs the process
   * learn that the connection is over without taking `onclose` from the engine.
   */
  get closed(): Promise<void> {
    return this.#closed;
  }

  /** The framing in use for replies; `undefined` under `'auto'` until the first bytes arrive. */
  get framing(): Framing | undefined {
    return this.#writer.framing;
  }

  /** Starts reading `input`. Rejects with `ALREADY_CONNECTED` when called twice, `CONNECTION_CLOSED` after close. */
  start(): Promise<void> {
    if (this.#state === 'open') return Promise.reject(new LocalError('ALREADY_CONNECTED', 'StdioServerTransport already started'));
    if (this.#state === 'closed') return Promise.reject(new LocalError('CONNECTION_CLOSED', 'StdioServerTransport is closed'));
    this.#state = 'open';
    const input = this.#input;
    input.on('data', this.#onData);
    input.on('end', this.#onInputEnd);
    // 'close' without 'end' (the stream was destroyed) ends the input as well; the guard makes it once.
    input.on('close', this.#onInputEnd);
    input.on('error', this.#onInputError);
    if (input.readableEnded) queueMicrotask(this.#onInputEnd);
    else input.resume();
    return RESOLVED;
  }

  /**
   * Queues a message; see `MessageWriter` for when it resolves. Rejects with `NOT_CONNECTED` before
   * `start()` or after close, `SEND_FAILED` when it cannot be serialised or the output failed.
   */
  send(message: RpcMessage | RpcMessage[], _options?: SendOptions): Promise<void> {
    if (this.#state !== 'open') return Promise.reject(new LocalError('NOT_CONNECTED', 'StdioServerTransport is not open'));
    // Under auto-detection with nothing heard yet, the initiator (its first message is a request) writes NDJSON at
    // once: held until the peer speaks, it would wait forever for a peer that also waits (two ends of a plain socket).
    if (this.#writer.framing === undefined && isRequest(message)) this.#writer.setFraming('ndjson');
    return this.#writer.send(message);
  }

  /** Flushes what is queued, stops reading, fires `onclose` once. Idempotent; resolves at once. */
  close(): Promise<void> {
    if (this.#state === 'closed') return RESOLVED;
    const wasOpen = this.#state === 'open';
    this.#state = 'closed';
    if (wasOpen) this.#detachInput();
    this.#writer.finish(this.#endOutputOnClose);
    const onclose = this.onclose;
    try {
      onclose?.();
    } finally {
      this.#resolveClosed();
    }
    return RESOLVED;
  }

  [Symbol.asyncDispose](): Promise<void> {
    return this.close();
  }

  #endOfInput(): void {
    if (this.#inputEnded || this.#state !== 'open') return;
    this.#inputEnded = true;
    // A last NDJSON line without a newline is still a message; a cut Content-Length frame is reported.
    this.#reader.end();
    if (this.#state !== 'open') return;
    if (this.onend) this.onend();
    else void this.close();
  }

  #detachInput(): void {
    const input = this.#input;
    input.removeListener('data', this.#onData);
    input.removeListener('end', this.#onInputEnd);
    input.removeListener('close', this.#onInputEnd);
    swallowLateErrors(input);
    input.removeListener('error', this.#onInputError);
    // Stop the flow: a flowing stdin keeps its handle active, and so the process alive. Someone else's
    // 'data' listener keeps it flowing for them.
    if (input.listenerCount('data') === 0) input.pause();
  }

  #outputFailed(error: Error): void {
    if (this.#state === 'closed') return;
    const code = (error as NodeJS.ErrnoException).code;
    this.#closeReason = new LocalError(
      'CONNECTION_CLOSED',
      code === 'EPIPE' ? 'The client closed the output pipe (EPIPE)' : `Writing to the output failed: ${error.message}`,
      { cause: error },
    );
    this.onerror?.(this.#closeReason);
    void this.close();
  }
}

/** True for a request (or a batch starting with one): a message that makes its sender the initiator. */
function isRequest(message: RpcMessage | RpcMessage[]): boolean {
  const first = Array.isArray(message) ? message[0] : message;
  return first !== undefined && 'method' in first && 'id' in first;
}
