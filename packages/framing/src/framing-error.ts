import type { Framing } from './framing.js';

/**
 * Why a {@link FramingError} was raised:
 * - `FRAME_TOO_LARGE`: a payload exceeds `maxFrameBytes`; the frame is skipped without being buffered.
 * - `HEADER_TOO_LARGE`: a Content-Length header block exceeds `maxHeaderBytes`.
 * - `INVALID_HEADER`: a Content-Length header block is malformed (bad syntax, missing, non-numeric,
 *   out-of-range or conflicting `Content-Length`).
 * - `TRUNCATED_FRAME`: the stream ended in the middle of a Content-Length frame.
 * - `INVALID_PAYLOAD`: an encoder was given a payload the framing cannot carry (NDJSON: a raw newline).
 * - `DECODER_ENDED`: `push()` was called after `end()`.
 */
export type FramingErrorCode =
  'FRAME_TOO_LARGE' | 'HEADER_TOO_LARGE' | 'INVALID_HEADER' | 'TRUNCATED_FRAME' | 'INVALID_PAYLOAD' | 'DECODER_ENDED';

/** Optional facts attached to a {@link FramingError}; every field is informational. */
export interface FramingErrorDetails {
  /** The framing in use, or `undefined` when it was not detected yet. */
  framing?: Framing | undefined;
  /** The limit that was exceeded, in bytes (`FRAME_TOO_LARGE`, `HEADER_TOO_LARGE`). */
  limit?: number | undefined;
  /**
   * A size in bytes: the declared `Content-Length`, the NDJSON line length (a lower bound when the line
   * spans chunks: the bytes seen when the limit was crossed), the header bytes seen, or for
   * `TRUNCATED_FRAME` the bytes received of the unfinished frame.
   */
  size?: number | undefined;
  /** The offending header line as printable ASCII (`INVALID_HEADER`), cut to 200 characters. */
  header?: string | undefined;
}

/**
 * The local error of `@wiremcp/framing`. It never travels on the wire: a decoder hands it to
 * `onError` (or throws it when no `onError` is given) and the encoders throw it. `code` is stable
 * and meant for programs; `message` is meant for people and may change.
 */
export class FramingError extends Error {
  override readonly name = 'FramingError';
  /** Stable machine-readable reason. */
  readonly code: FramingErrorCode;
  /** See {@link FramingErrorDetails.framing}. */
  readonly framing: Framing | undefined;
  /** See {@link FramingErrorDetails.limit}. */
  readonly limit: number | undefined;
  /** See {@link FramingErrorDetails.size}. */
  readonly size: number | undefined;
  /** See {@link FramingErrorDetails.header}. */
  readonly header: string | undefined;

  constructor(code: FramingErrorCode, message: string, details: FramingErrorDetails = {}) {
    super(message);
    this.code = code;
    this.framing = details.framing;
    this.limit = details.limit;
    this.size = details.size;
    this.header = details.header;
  }
}
