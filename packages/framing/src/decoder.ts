import type { Framing } from './framing.js';
import type { FramingError } from './framing-error.js';

/** Options of {@link createDecoder}. */
export interface DecoderOptions {
  /**
   * The framing of the incoming stream. Default `'auto'`: decided once, from the first
   * non-whitespace bytes (see `detectFraming`), and then fixed for the life of the decoder.
   */
  framing?: Framing | 'auto';
  /** Largest payload accepted, in bytes. Default `DEFAULT_MAX_FRAME_BYTES` (16 MiB). */
  maxFrameBytes?: number;
  /** Largest Content-Length header block, in bytes. Default `DEFAULT_MAX_HEADER_BYTES` (8 KiB). */
  maxHeaderBytes?: number;
  /**
   * Largest oversized Content-Length body the decoder counts through to reach the next frame, in bytes.
   * A frame declared above `maxFrameBytes` but at most this is skipped by counting; one declared above it
   * is not waited for: the decoder scans for the next `Content-Length:` header instead (as after a
   * malformed header), so a lying header cannot make it discard gigabytes, and the frames that follow it.
   * Either way the frame is reported once as `FRAME_TOO_LARGE`. Default 4 × `maxFrameBytes` (64 MiB);
   * 0 never counts through. Not used by NDJSON, whose frames end at the next newline whatever their size.
   */
  maxSkipBytes?: number;
  /**
   * Receives each payload, synchronously from `push()`/`end()`, in arrival order. The payload may be a
   * view into a pushed chunk (zero copy) or a fresh array when the frame spanned chunks; either way the
   * decoder never writes to it again. Called as a plain function.
   */
  onFrame(payload: Uint8Array): void;
  /**
   * Optional, for consumers that read the bytes of a chunk themselves (to decode the text of all its frames in
   * one go, say): a frame that lies whole within the chunk being decoded arrives here as that chunk and the
   * frame's range, `chunk.subarray(start, end)` being the payload, instead of through `onFrame`, so no view is
   * allocated per frame. `chunk` is the array given to `push()`, a view of its end, or a copy joining it with
   * bytes held from earlier pushes (auto-detection, a throwing callback); the decoder never writes to it and keeps no reference
   * to it once `push()` returns. Called as a plain function. Frames assembled from several chunks still go to
   * `onFrame`; frames and errors arrive in the stream's order either way.
   */
  onFrameInChunk?(chunk: Uint8Array, start: number, end: number): void;
  /**
   * Receives each framing error in order with the frames around it; decoding goes on where the
   * framing allows. Default: the error is thrown from `push()`/`end()` (the decoder stays usable).
   */
  onError?(error: FramingError): void;
}

/**
 * A streaming decoder: bytes in through `push()`, payloads out through `onFrame`. It accepts any
 * chunking. It never keeps a reference to a chunk after `push()` returns, and never mutates one.
 *
 * If `onFrame`/`onError` throws, the exception propagates out of `push()`/`end()` after the decoder has
 * saved (copied) the not-yet-decoded rest of the chunk; the next `push()` or `end()` resumes from there,
 * so no byte is lost or decoded twice.
 */
export interface FrameDecoder {
  /** Decodes a chunk. Throws a `FramingError` (`DECODER_ENDED`) after `end()`. */
  push(chunk: Uint8Array): void;
  /**
   * Ends the stream: delivers a final NDJSON line that has no newline, reports `TRUNCATED_FRAME` for an
   * unfinished Content-Length frame. Idempotent.
   */
  end(): void;
  /** The framing in use; `undefined` until auto-detection has seen enough bytes. */
  readonly framing: Framing | undefined;
  /** Bytes currently held for unfinished frames; never more than the configured limits (plus a saved chunk rest after a throwing callback). */
  readonly bufferedBytes: number;
}

/** The per-framing engine behind a FrameDecoder (internal). */
export interface FramingEngine {
  readonly framing: Framing;
  /** Bytes held for an unfinished frame. */
  readonly bufferedBytes: number;
  /**
   * Index into the chunk being fed: everything before it is fully decoded. Updated before every
   * callback so that a throwing callback leaves a precise resume point.
   */
  cursor: number;
  feed(chunk: Uint8Array): void;
  finish(): void;
}

/** Callbacks as the engines call them (internal). */
export type FrameCallback = (payload: Uint8Array) => void;
/** `onFrameInChunk` as the engines call it (internal); undefined: in-chunk frames go to the FrameCallback as views. */
export type FrameRangeCallback = ((chunk: Uint8Array, start: number, end: number) => void) | undefined;
/** Error callback as the engines call it (internal). */
export type ErrorCallback = (error: FramingError) => void;
