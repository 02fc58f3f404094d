/**
 * Default largest payload a decoder accepts: 16 MiB (16,777,216 bytes). Large enough for any
 * reasonable tool result, small enough that a hostile or broken peer cannot exhaust memory.
 */
export const DEFAULT_MAX_FRAME_BYTES: number = 16 * 1024 * 1024;

/**
 * Default largest Content-Length header block: 8 KiB (8,192 bytes), counted from the first header byte
 * through the empty line that ends the block. Real blocks are 20 to 100 bytes.
 */
export const DEFAULT_MAX_HEADER_BYTES: number = 8 * 1024;

/**
 * By default a decoder counts through the body of an oversized Content-Length frame if it declares at most
 * this many times `maxFrameBytes` (64 MiB with the default 16 MiB cap); a larger declaration is not
 * counted through but scanned for the next header, so a lying header cannot swallow the frames after it.
 */
export const DEFAULT_SKIP_FACTOR = 4;

/**
 * The largest `Content-Length` value the parser accepts as a number (2^32 - 1, beyond what a
 * Uint8Array can hold in current engines). A larger value is not a plausible frame, it is a corrupt
 * header, so it is reported as `INVALID_HEADER` instead of being skipped byte by byte.
 */
export const MAX_CONTENT_LENGTH = 0xffff_ffff;

/** Returns `value`, or `fallback` when undefined; throws a RangeError for a non-integer or out-of-range limit. */
export function checkLimit(name: string, value: number | undefined, fallback: number): number {
  if (value === undefined) return fallback;
  if (!Number.isSafeInteger(value) || value < 1 || value > MAX_CONTENT_LENGTH) {
    throw new RangeError(`${name} must be an integer between 1 and ${MAX_CONTENT_LENGTH}, got ${String(value)}`);
  }
  return value;
}

/**
 * `maxSkipBytes`, or its default (`DEFAULT_SKIP_FACTOR` × `maxFrameBytes`, at most MAX_CONTENT_LENGTH); throws a
 * RangeError for a value that is not an integer from 0 (never count through an oversized body) to MAX_CONTENT_LENGTH.
 */
export function checkSkipLimit(value: number | undefined, maxFrameBytes: number): number {
  if (value === undefined) return Math.min(DEFAULT_SKIP_FACTOR * maxFrameBytes, MAX_CONTENT_LENGTH);
  if (!Number.isSafeInteger(value) || value < 0 || value > MAX_CONTENT_LENGTH) {
    throw new RangeError(`maxSkipBytes must be an integer between 0 and ${MAX_CONTENT_LENGTH}, got ${String(value)}`);
  }
  return value;
}
