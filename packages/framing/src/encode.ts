import type { Framing } from './framing.js';
import { FramingError } from './framing-error.js';

/** The start of every Content-Length header this package writes. */
export const HEADER_PREFIX = 'Content-Length: ';
// "Content-Length: " + at most 16 digits + "\r\n\r\n": room reserved in front of a text body so the
// header can be written after the body's byte length is known, without a second copy.
const MAX_HEADER_LENGTH = HEADER_PREFIX.length + 16 + 4;

let encoder: TextEncoder | undefined;

/** Writes `Content-Length: <length>\r\n\r\n` as ASCII ending just before `end`; returns where it starts. */
function writeHeaderBefore(target: Uint8Array, end: number, length: number): number {
  let at = end;
  target[--at] = 0x0a;
  target[--at] = 0x0d;
  target[--at] = 0x0a;
  target[--at] = 0x0d;
  let n = length;
  do {
    target[--at] = 0x30 + (n % 10);
    n = Math.floor(n / 10);
  } while (n > 0);
  for (let i = HEADER_PREFIX.length - 1; i >= 0; i--) target[--at] = HEADER_PREFIX.charCodeAt(i);
  return at;
}

function headerLength(length: number): number {
  return HEADER_PREFIX.length + String(length).length + 4;
}

function invalid(message: string): FramingError {
  return new FramingError('INVALID_PAYLOAD', message, { framing: 'ndjson' });
}

/**
 * Throws INVALID_PAYLOAD unless `payload` survives an NDJSON round trip unchanged: no raw newline
 * (it would split the frame), no trailing `\r` (decoders strip it), not empty or whitespace-only
 * (decoders skip blank lines).
 */
function checkNdjsonBytes(payload: Uint8Array): void {
  const length = payload.length;
  if (payload.indexOf(0x0a) !== -1) {
    throw invalid(
      `NDJSON payload contains a raw newline at byte ${payload.indexOf(0x0a)}; it would split the frame (JSON.stringify output never does)`,
    );
  }
  if (length > 0 && payload[length - 1] === 0x0d)
    throw invalid('NDJSON payload ends with \\r, which decoders strip as part of a CRLF line ending');
  for (let i = 0; i < length; i++) {
    const b = payload[i]!;
    if (b !== 0x20 && b !== 0x09 && b !== 0x0d) return;
  }
  throw invalid('NDJSON payload is empty or whitespace-only; decoders skip blank lines');
}

/** {@link checkNdjsonBytes} for a JavaScript string (shared with the text encoders). */
export function checkNdjsonText(json: string): void {
  const newline = json.indexOf('\n');
  if (newline !== -1)
    throw invalid(`NDJSON payload contains a raw newline at index ${newline}; it would split the frame (JSON.stringify output never does)`);
  const length = json.length;
  if (length > 0 && json.charCodeAt(length - 1) === 0x0d)
    throw invalid('NDJSON payload ends with \\r, which decoders strip as part of a CRLF line ending');
  for (let i = 0; i < length; i++) {
    const c = json.charCodeAt(i);
    if (c !== 0x20 && c !== 0x09 && c !== 0x0d) return;
  }
  throw invalid('NDJSON payload is empty or whitespace-only; decoders skip blank lines');
}

/**
 * Frames one payload: NDJSON appends `\n`; Content-Length prepends `Content-Length: <bytes>\r\n\r\n`.
 * Always returns a new array; `payload` is not retained. Throws a FramingError (`INVALID_PAYLOAD`) for
 * an NDJSON payload that would not decode back to itself: one containing a raw newline (0x0A), ending
 * with `\r`, or empty/whitespace-only. Content-Length carries any bytes.
 */
export function encodeFrame(payload: Uint8Array, framing: Framing): Uint8Array {
  const length = payload.length;
  if (framing === 'ndjson') {
    checkNdjsonBytes(payload);
    const out = new Uint8Array(length + 1);
    out.set(payload, 0);
    out[length] = 0x0a;
    return out;
  }
  const header = headerLength(length);
  const out = new Uint8Array(header + length);
  writeHeaderBefore(out, header, length);
  out.set(payload, header);
  return out;
}

/**
 * Frames one JSON text, the fast path for writers. NDJSON returns the string `json + '\n'` (stream
 * writers take strings without an extra copy); Content-Length returns bytes whose header counts the
 * UTF-8 bytes of `json` exactly. Throws a FramingError (`INVALID_PAYLOAD`) under the same NDJSON
 * rules as {@link encodeFrame}.
 */
export function encodeTextFrame(json: string, framing: 'ndjson'): string;
export function encodeTextFrame(json: string, framing: 'content-length'): Uint8Array;
export function encodeTextFrame(json: string, framing: Framing): string | Uint8Array;
export function encodeTextFrame(json: string, framing: Framing): string | Uint8Array {
  if (framing === 'ndjson') {
    checkNdjsonText(json);
    return json + '\n';
  }
  encoder ??= new TextEncoder();
  // Optimistic: ASCII text needs exactly json.length bytes, so encode once into a right-sized buffer
  // and write the header in the room left in front of it.
  const buffer = new Uint8Array(MAX_HEADER_LENGTH + json.length);
  const { read, written } = encoder.encodeInto(json, buffer.subarray(MAX_HEADER_LENGTH));
  if (read === json.length) {
    const start = writeHeaderBefore(buffer, MAX_HEADER_LENGTH, written);
    return buffer.subarray(start, MAX_HEADER_LENGTH + written);
  }
  return encodeFrame(encoder.encode(json), 'content-length');
}
