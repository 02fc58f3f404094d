import type { Writable } from 'node:stream';
import { frameText, type Framing } from '@wiremcp/framing';
import { stringifyMessage } from '@wiremcp/jsonrpc';
import { LocalError } from '@wiremcp/protocol';
import { swallowLateErrors } from './swallow-errors.js';

/** The promise `send()` returns whenever the message was handed over: one object, not one per message. */
export const RESOLVED: Promise<void> = Promise.resolve();

/** Options of a {@link MessageWriter}. */
export interface MessageWriterOptions {
  /**
   * How much framed text (in UTF-16 code units, about bytes) one coalesced write holds at most before it goes out
   * without waiting for the end of the turn. Default `Infinity`: each turn's messages in one write, whatever their
   * size.
   */
  readonly batchBytes?: number;
}

/** Checks a `writeBatchBytes` option: a positive number (`Infinity`, the default, allowed). */
export function checkBatchBytes(value: number | undefined): number {
  if (value === undefined) return Infinity;
  if (typeof value !== 'number' || !(value > 0)) {
    throw new LocalError('INVALID_ARGUMENT', `writeBatchBytes must be a positive number (or Infinity), got ${String(value)}`);
  }
  return value;
}

/**
 * Serialises messages with `stringifyMessage` of `@wiremcp/jsonrpc` and frames them (a string per message, so a whole batch
 * stays one string that the stream encodes once), and writes them to a Node Writable, coalescing: the first
 * message queued schedules a flush as a microtask, so every message sent by the current callback, and by
 * the promise reactions already queued behind it (the responses of a whole input chunk's requests), goes
 * out in ONE `output.write` of one string. A microtask rather than `setImmediate`: measured on a child echo server,
 * `setImmediate` cost 35-45% of the round trips with one request in flight (it waits for the next loop
 * phase) and about 8% with 64 in flight, while coalescing no better for handlers of equal depth.
 *
 * Bounded batches (opt-in): with `batchBytes` set (e.g. 2048), once that much is queued it is written at once, from
 * `send()`, instead of at the end of the turn. A turn that answers a whole chunk of pipelined requests (or sends a
 * burst of them) then hands the first answers to the peer while it still makes the rest, so two processes on two
 * CPUs work at the same time instead of passing one large batch back and forth: ~1.75x the calls per second of a
 * pipelined stdio pair with 64 calls in flight. On one shared CPU nothing can overlap and the extra writes cost
 * up to 5% of the throughput, hence not the default (see the package README).
 *
 * Backpressure: when `write` returns false, nothing more is written until `'drain'`; messages keep
 * queuing in memory (never dropped) and their `send()` promises resolve when the queue is written after
 * the drain, so a producer that awaits `send()` slows down to the reader's pace. Outside backpressure
 * `send()` returns one shared resolved promise.
 *
 * Failure: the first `'error'` or `'close'` of the output is reported once through `onFailure`; from
 * then on `send()` rejects. A no-op `'error'` listener stays on the stream after {@link finish}.
 */
export class MessageWriter {
  readonly #output: Writable;
  readonly #onFailure: (error: Error) => void;
  readonly #batchBytes: number;
  /** True while `send()` writes a full batch itself: a failure is then reported after it returns, not inside it. */
  #inSend = false;
  #framing: Framing | undefined;
  /** Framed text waiting for the next flush. */
  #queued = '';
  /** JSON texts sent before the framing was known (auto-detection, nothing received yet). */
  #held: string[] | undefined;
  #scheduled = false;
  #blocked = false;
  #drain: { promise: Promise<void>; resolve: () => void; reject: (error: Error) => void } | undefined;
  #failure: Error | undefined;
  #finished = false;
  readonly #flush = (): void => this.#write();
  readonly #onDrain = (): void => this.#drained();
  readonly #onError = (error: Error): void => this.#fail(error);
  readonly #onClose = (): void => this.#fail(new Error('the output stream was closed'));

  constructor(output: Writable, framing: Framing | undefined, onFailure: (error: Error) => void, options: MessageWriterOptions = {}) {
    this.#output = output;
    this.#framing = framing;
    this.#onFailure = onFailure;
    this.#batchBytes = checkBatchBytes(options.batchBytes);
    output.on('error', this.#onError);
    output.on('close', this.#onClose);
  }

  /** The framing written; `undefined` while it waits for auto-detection. */
  get framing(): Framing | undefined {
    return this.#framing;
  }

  /** The error that broke the output, if any. */
  get failure(): Error | undefined {
    return this.#failure;
  }

  /** Sets the framing once it is known, and frames what was held until then. */
  setFraming(framing: Framing): void {
    if (this.#framing !== undefined) return;
    this.#framing = framing;
    const held = this.#held;
    this.#held = undefined;
    if (held === undefined) return;
    for (const json of held) this.#queued += frameText(json, framing);
    this.#schedule();
  }

  /**
   * Queues one message (or batch). Resolves when it has been handed to the output stream (at once, with
   * a shared promise, unless the output is applying backpressure); rejects with `SEND_FAILED` for a value
   * `JSON.stringify` cannot serialise or once the output has failed, `NOT_CONNECTED` after {@link finish}.
   */
  send(message: unknown): Promise<void> {
    if (this.#finished || this.#failure !== undefined) return this.#rejection();
    const framing = this.#framing;
    let json: string | undefined;
    try {
      // Serialised now, whatever the framing: a caller may change the value once send() returns.
      json = stringifyMessage(message);
    } catch (error) {
      return Promise.reject(new LocalError('SEND_FAILED', 'Message is not serializable as JSON', { cause: error }));
    }
    if (typeof json !== 'string') return Promise.reject(new LocalError('SEND_FAILED', 'Message is not serializable as JSON'));
    if (framing === undefined) {
      (this.#held ??= []).push(json);
      return RESOLVED;
    }
    // JSON.stringify output never holds a raw newline nor is blank: NDJSON needs no check (as in `frameJson`).
    this.#queued += framing === 'ndjson' ? json + '\n' : frameText(json, framing);
    if (this.#blocked) return this.#drainPromise();
    if (this.#queued.length >= this.#batchBytes) return this.#writeFullBatch();
    this.#schedule();
    return RESOLVED;
  }

  /**
   * Hands everything queued or held to the output now (held messages as NDJSON, the MCP default),
   * ignoring backpressure (the stream buffers it; nothing is lost), optionally ends the output, and stops
   * accepting messages. Idempotent. Does not wait for the bytes to leave the process: Node keeps the
   * process alive until a pending write completes or fails.
   */
  finish(endOutput: boolean): void {
    if (this.#finished) return;
    this.#finished = true;
    if (this.#held !== undefined) this.setFraming(this.#framing ?? 'ndjson');
    const output = this.#output;
    output.removeListener('drain', this.#onDrain);
    output.removeListener('close', this.#onClose);
    if (this.#failure === undefined) {
      const data = this.#queued;
      this.#queued = '';
      try {
        if (data !== '') output.write(data);
        if (endOutput) output.end();
      } catch {
        // A stream that throws instead of emitting 'error' (already destroyed): nothing left to flush to.
      }
    }
    this.#queued = '';
    this.#settleDrain(undefined);
    swallowLateErrors(output);
    output.removeListener('error', this.#onError);
  }

  /** Writes a full batch from inside `send()`; what is queued after it waits for the turn's flush as usual. */
  #writeFullBatch(): Promise<void> {
    this.#inSend = true;
    try {
      this.#writeQueued();
    } finally {
      this.#inSend = false;
    }
    // Handed to the stream, as a flushed message is (a `false` from write() holds back the later ones).
    return this.#failure === undefined ? RESOLVED : this.#rejection();
  }

  #schedule(): void {
    if (this.#scheduled || this.#blocked) return;
    this.#scheduled = true;
    queueMicrotask(this.#flush);
  }

  #write(): void {
    this.#scheduled = false;
    this.#writeQueued();
  }

  #writeQueued(): void {
    if (this.#blocked || this.#finished || this.#failure !== undefined || this.#queued === '') return;
    const data = this.#queued;
    this.#queued = '';
    let ok: boolean;
    try {
      ok = this.#output.write(data);
    } catch (error) {
      this.#fail(error instanceof Error ? error : new Error(String(error)));
      return;
    }
    if (!ok) {
      this.#blocked = true;
      this.#output.once('drain', this.#onDrain);
    }
  }

  #drained(): void {
    this.#blocked = false;
    const drain = this.#drain;
    this.#drain = undefined;
    // Write what queued up during backpressure right away: those senders are waiting for it.
    this.#write();
    drain?.resolve();
  }

  #drainPromise(): Promise<void> {
    if (this.#drain === undefined) {
      let resolve!: () => void;
      let reject!: (error: Error) => void;
      const promise = new Promise<void>((res, rej) => {
        resolve = res;
        reject = rej;
      });
      this.#drain = { promise, resolve, reject };
    }
    return this.#drain.promise;
  }

  #settleDrain(error: Error | undefined): void {
    const drain = this.#drain;
    this.#drain = undefined;
    if (drain === undefined) return;
    if (error === undefined) drain.resolve();
    else drain.reject(error);
  }

  #fail(error: Error): void {
    if (this.#failure !== undefined || this.#finished) return;
    this.#failure = error;
    this.#queued = '';
    this.#held = undefined;
    this.#settleDrain(new LocalError('SEND_FAILED', `Could not write to the output: ${error.message}`, { cause: error }));
    // Not from inside send(): the transport's failure handling (closing, rejecting pending requests) must not run
    // in the middle of the caller's own send.
    if (this.#inSend) queueMicrotask(() => this.#onFailure(error));
    else this.#onFailure(error);
  }

  #rejection(): Promise<void> {
    const failure = this.#failure;
    return Promise.reject(
      failure !== undefined
        ? new LocalError('SEND_FAILED', `Could not write to the output: ${failure.message}`, { cause: failure })
        : new LocalError('NOT_CONNECTED', 'The transport is closed'),
    );
  }
}
