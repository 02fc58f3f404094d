import { createDecoder, type FrameDecoder, type Framing, type FramingError } from '@wiremcp/framing';
import { LocalError } from '@wiremcp/protocol';
import { parsePayload } from '@wiremcp/jsonrpc';

/** Where a {@link MessageReader} delivers what it reads (the transport that owns it). */
export interface MessageSink {
  /** One parsed JSON value per frame, in arrival order. */
  deliver(message: unknown): void;
  /** A `PARSE_ERROR`, `FRAME_TOO_LARGE` or `FRAMING_ERROR` LocalError, or an exception thrown by `deliver`. */
  fail(error: Error): void;
}

/** Options of a {@link MessageReader}. */
export interface MessageReaderOptions {
  framing: Framing | 'auto';
  maxFrameBytes?: number | undefined;
  maxHeaderBytes?: number | undefined;
  maxSkipBytes?: number | undefined;
}

const EMPTY = new Uint8Array(0);

/** Turns a FramingError into the LocalError the Transport contract asks for. */
function toLocalError(error: FramingError): LocalError {
  const details = { framing: error.framing, limit: error.limit, size: error.size, header: error.header, framingCode: error.code };
  // FRAME_TOO_LARGE keeps its code so the engine answers -32600; everything else (bad or oversized
  // Content-Length header, truncated frame) is a FRAMING_ERROR the engine reports locally.
  return new LocalError(error.code === 'FRAME_TOO_LARGE' ? 'FRAME_TOO_LARGE' : 'FRAMING_ERROR', error.message, { cause: error, details });
}

/**
 * Bytes in, JSON values out: a framing decoder followed by one strict UTF-8 decode and one `JSON.parse`
 * per frame. Every error is reported to the sink and reading goes on with the next frame, including an
 * exception thrown by the sink itself (so a throwing `onmessage` cannot kill the stream or lose frames).
 */
export class MessageReader {
  readonly #decoder: FrameDecoder;
  readonly #sink: MessageSink;
  #ended = false;

  constructor(options: MessageReaderOptions, sink: MessageSink) {
    this.#sink = sink;
    this.#decoder = createDecoder({
      framing: options.framing,
      maxFrameBytes: options.maxFrameBytes,
      maxHeaderBytes: options.maxHeaderBytes,
      maxSkipBytes: options.maxSkipBytes,
      // Created once per reader: the per-frame path allocates nothing but the parsed value.
      onFrame: (payload) => this.#onFrame(payload),
      onError: (error) => sink.fail(toLocalError(error)),
    });
  }

  /** The framing of the input: the forced one, or the detected one under `'auto'` (undefined until known). */
  get framing(): Framing | undefined {
    return this.#decoder.framing;
  }

  /** Decodes one chunk (a string chunk, from a stream with an encoding set, is taken as UTF-8); ignored after `end()`. */
  push(chunk: Uint8Array | string): void {
    if (this.#ended) return;
    let bytes = typeof chunk === 'string' ? Buffer.from(chunk, 'utf8') : chunk;
    // The decoder saves the undecoded rest of the chunk when a callback throws; pushing an empty chunk
    // resumes right there. The try/catch costs nothing per message when nothing throws.
    for (;;) {
      try {
        this.#decoder.push(bytes);
        return;
      } catch (error) {
        this.#report(error);
        bytes = EMPTY;
      }
    }
  }

  /** Ends the input: delivers a final unterminated NDJSON line, reports a truncated frame. Idempotent. */
  end(): void {
    this.#ended = true;
    for (;;) {
      try {
        this.#decoder.end();
        return;
      } catch (error) {
        this.#report(error);
      }
    }
  }

  #onFrame(payload: Uint8Array): void {
    let message: unknown;
    try {
      message = parsePayload(payload);
    } catch (error) {
      this.#sink.fail(error as LocalError);
      return;
    }
    this.#sink.deliver(message);
  }

  #report(error: unknown): void {
    try {
      this.#sink.fail(error instanceof Error ? error : new Error(String(error)));
    } catch {
      // A sink whose error handler throws too has nowhere left to report; keep reading.
    }
  }
}
