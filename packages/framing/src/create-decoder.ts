import { ContentLengthEngine } from './content-length-engine.js';
import type { DecoderOptions, ErrorCallback, FrameCallback, FrameDecoder, FrameRangeCallback, FramingEngine } from './decoder.js';
import { DETECT_PREFIX_BYTES, classifyPrefix, isJsonWhitespace } from './detect-framing.js';
import type { Framing } from './framing.js';
import { FramingError } from './framing-error.js';
import { DEFAULT_MAX_FRAME_BYTES, DEFAULT_MAX_HEADER_BYTES, checkLimit, checkSkipLimit } from './limits.js';
import { NdjsonEngine } from './ndjson-engine.js';

function throwError(error: FramingError): void {
  throw error;
}

function concat(a: Uint8Array, b: Uint8Array): Uint8Array {
  const out = new Uint8Array(a.length + b.length);
  out.set(a, 0);
  out.set(b, a.length);
  return out;
}

class StreamDecoder implements FrameDecoder {
  private engine: FramingEngine | undefined;
  // Auto-detection: the significant bytes seen so far (at most DETECT_PREFIX_BYTES). Leading
  // whitespace is dropped: it is insignificant in both framings.
  private probe: Uint8Array | null = null;
  private probeLength = 0;
  // The undecoded rest of a chunk whose callback threw; decoded first by the next push() or end().
  private saved: Uint8Array | null = null;
  private ended = false;

  constructor(
    framing: Framing | 'auto',
    private readonly maxFrameBytes: number,
    private readonly maxHeaderBytes: number,
    private readonly maxSkipBytes: number,
    private readonly onFrame: FrameCallback,
    private readonly onError: ErrorCallback,
    private readonly onFrameInChunk: FrameRangeCallback,
  ) {
    if (framing !== 'auto') this.engine = this.createEngine(framing);
  }

  get framing(): Framing | undefined {
    return this.engine?.framing;
  }

  get bufferedBytes(): number {
    return this.probeLength + (this.engine?.bufferedBytes ?? 0) + (this.saved?.length ?? 0);
  }

  push(chunk: Uint8Array): void {
    if (this.ended) {
      throw new FramingError('DECODER_ENDED', 'push() called after end(); create a new decoder for a new stream', {
        framing: this.framing,
      });
    }
    let bytes = chunk;
    if (this.saved !== null) {
      bytes = concat(this.saved, chunk);
      this.saved = null;
    }
    if (this.engine !== undefined) this.feed(this.engine, bytes);
    else this.detect(bytes);
  }

  end(): void {
    if (this.ended) return;
    if (this.saved !== null) {
      const saved = this.saved;
      this.saved = null;
      if (this.engine !== undefined) this.feed(this.engine, saved);
    }
    this.ended = true;
    const engine = this.engine;
    if (engine !== undefined) {
      engine.finish();
    } else if (this.probeLength > 0) {
      this.probe = null;
      this.probeLength = 0;
      const onError = this.onError;
      onError(
        new FramingError('TRUNCATED_FRAME', 'stream ended before its framing could be detected (it began like a Content-Length header)', {
          framing: undefined,
        }),
      );
    }
  }

  private feed(engine: FramingEngine, bytes: Uint8Array): void {
    try {
      engine.feed(bytes);
    } catch (error) {
      if (engine.cursor < bytes.length) this.saved = bytes.slice(engine.cursor);
      throw error;
    }
  }

  /** Accumulates significant bytes until the framing is known; then feeds the new engine the probe and the rest of `bytes`. */
  private detect(bytes: Uint8Array): void {
    let start = 0;
    if (this.probeLength === 0) {
      while (start < bytes.length && isJsonWhitespace(bytes[start]!)) start++;
      if (start === bytes.length) return;
    }
    const probe = (this.probe ??= new Uint8Array(DETECT_PREFIX_BYTES));
    const carried = this.probeLength;
    const take = Math.min(DETECT_PREFIX_BYTES - carried, bytes.length - start);
    probe.set(bytes.subarray(start, start + take), carried);
    this.probeLength = carried + take;
    const framing = classifyPrefix(probe, 0, this.probeLength);
    if (framing === undefined) return;
    const engine = (this.engine = this.createEngine(framing));
    this.probe = null;
    this.probeLength = 0;
    // Only the first chunk of a stream pays for this copy, and only when detection spanned chunks.
    this.feed(engine, carried === 0 ? bytes.subarray(start) : concat(probe.subarray(0, carried), bytes.subarray(start)));
  }

  private createEngine(framing: Framing): FramingEngine {
    return framing === 'ndjson'
      ? new NdjsonEngine(this.maxFrameBytes, this.onFrame, this.onError, this.onFrameInChunk)
      : new ContentLengthEngine(
          this.maxFrameBytes,
          this.maxHeaderBytes,
          this.maxSkipBytes,
          this.onFrame,
          this.onError,
          this.onFrameInChunk,
        );
  }
}

/**
 * Creates a streaming decoder. Defaults: `framing: 'auto'`, `maxFrameBytes: DEFAULT_MAX_FRAME_BYTES`
 * (16 MiB), `maxHeaderBytes: DEFAULT_MAX_HEADER_BYTES` (8 KiB), `maxSkipBytes`: 4 × `maxFrameBytes`,
 * `onError`: throw. Throws a RangeError for a limit that is not an integer in [1, 2^32 - 1] (`maxSkipBytes`:
 * [0, 2^32 - 1]), a TypeError for a missing `onFrame`, a callback that is not a function or an unknown framing.
 */
export function createDecoder(options: DecoderOptions): FrameDecoder {
  const framing = options.framing ?? 'auto';
  if (framing !== 'auto' && framing !== 'ndjson' && framing !== 'content-length') {
    throw new TypeError(`framing must be 'ndjson', 'content-length' or 'auto', got ${String(framing)}`);
  }
  if (typeof options.onFrame !== 'function') throw new TypeError('onFrame must be a function');
  if (options.onError !== undefined && typeof options.onError !== 'function') throw new TypeError('onError must be a function');
  if (options.onFrameInChunk !== undefined && typeof options.onFrameInChunk !== 'function') {
    throw new TypeError('onFrameInChunk must be a function');
  }
  const maxFrameBytes = checkLimit('maxFrameBytes', options.maxFrameBytes, DEFAULT_MAX_FRAME_BYTES);
  return new StreamDecoder(
    framing,
    maxFrameBytes,
    checkLimit('maxHeaderBytes', options.maxHeaderBytes, DEFAULT_MAX_HEADER_BYTES),
    checkSkipLimit(options.maxSkipBytes, maxFrameBytes),
    options.onFrame,
    options.onError ?? throwError,
    options.onFrameInChunk,
  );
}
