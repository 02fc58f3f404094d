import type { Framing } from './framing.js';

// Lower-case ASCII of the two header names LSP defines; a stream that starts with either is framed
// with Content-Length. Both share "content-" and fit in 15 bytes.
const CONTENT_LENGTH = asciiBytes('content-length:');
const CONTENT_TYPE = asciiBytes('content-type:');

/** Bytes detection needs at most after leading whitespace (`content-length:`). */
export const DETECT_PREFIX_BYTES = CONTENT_LENGTH.length;

function asciiBytes(text: string): Uint8Array {
  const bytes = new Uint8Array(text.length);
  for (let i = 0; i < text.length; i++) bytes[i] = text.charCodeAt(i);
  return bytes;
}

/** True for the JSON whitespace bytes: space, tab, LF, CR. */
export function isJsonWhitespace(byte: number): boolean {
  return byte === 0x20 || byte === 0x0a || byte === 0x0d || byte === 0x09;
}

/** ASCII lower-casing of one byte; other bytes unchanged (so CR never aliases '-'). */
export function lowerAscii(byte: number): number {
  return byte >= 0x41 && byte <= 0x5a ? byte + 0x20 : byte;
}

/**
 * Classifies the significant bytes `bytes[start, end)` (leading whitespace already removed).
 * Returns undefined while they are a proper prefix of a known header name.
 */
export function classifyPrefix(bytes: Uint8Array, start: number, end: number): Framing | undefined {
  if (end <= start) return undefined;
  let length = true;
  let type = true;
  for (let i = 0; start + i < end; i++) {
    const b = lowerAscii(bytes[start + i]!);
    if (length && b !== CONTENT_LENGTH[i]) length = false;
    if (type && b !== CONTENT_TYPE[i]) type = false;
    if (length && i === CONTENT_LENGTH.length - 1) return 'content-length';
    if (type && i === CONTENT_TYPE.length - 1) return 'content-length';
    if (!length && !type) return 'ndjson';
  }
  return undefined;
}

/**
 * Guesses the framing of a stream from its first bytes. Leading JSON whitespace is ignored. A stream
 * that starts with the header name `Content-Length:` or `Content-Type:` (any case) is
 * `'content-length'`; anything else is `'ndjson'`, the MCP stdio default (so a stray non-JSON line
 * surfaces one layer up as a JSON parse error instead of stalling the stream). Returns `undefined`
 * when the bytes are empty, all whitespace, or a proper prefix of one of those header names: not
 * enough bytes yet.
 */
export function detectFraming(bytes: Uint8Array): Framing | undefined {
  let start = 0;
  while (start < bytes.length && isJsonWhitespace(bytes[start]!)) start++;
  return classifyPrefix(bytes, start, Math.min(bytes.length, start + DETECT_PREFIX_BYTES));
}
