import { lowerAscii } from './detect-framing.js';
import { MAX_CONTENT_LENGTH } from './limits.js';

/** parseHeaderLine: the empty line that ends a header block. */
export const HEADER_END = -1;
/** parseHeaderLine: a well-formed header other than Content-Length (ignored, e.g. Content-Type). */
export const HEADER_IGNORED = -2;
/** parseHeaderLine: no colon, an empty name, or a byte in the name that an HTTP token cannot hold. */
export const HEADER_MALFORMED = -3;
/** parseHeaderLine: a Content-Length value that is not plain decimal digits. */
export const HEADER_BAD_LENGTH = -4;
/** parseHeaderLine: a Content-Length value above MAX_CONTENT_LENGTH. */
export const HEADER_LENGTH_OUT_OF_RANGE = -5;

const NAME = 'content-length';

// HTTP token characters (RFC 9110 tchar): the only bytes a header name may contain.
const TCHAR = new Uint8Array(128);
for (let c = 0x30; c <= 0x39; c++) TCHAR[c] = 1;
for (let c = 0x41; c <= 0x5a; c++) TCHAR[c] = 1;
for (let c = 0x61; c <= 0x7a; c++) TCHAR[c] = 1;
for (const c of "!#$%&'*+-.^_`|~") TCHAR[c.charCodeAt(0)] = 1;

/**
 * Parses one header line `bytes[start, end)` (without its `\n`; a trailing `\r` is ignored) straight
 * from ASCII bytes. Returns the Content-Length value (>= 0) for a Content-Length header (name in any
 * case, value: optional spaces/tabs around decimal digits, no sign, at most MAX_CONTENT_LENGTH), or
 * one of the negative HEADER_* codes.
 */
export function parseHeaderLine(bytes: Uint8Array, start: number, end: number): number {
  if (end > start && bytes[end - 1] === 0x0d) end--;
  if (end === start) return HEADER_END;
  let colon = start;
  while (colon < end) {
    const b = bytes[colon]!;
    if (b === 0x3a) break;
    if (b >= 128 || TCHAR[b] === 0) return HEADER_MALFORMED;
    colon++;
  }
  if (colon === end || colon === start) return HEADER_MALFORMED;
  if (colon - start !== NAME.length) return HEADER_IGNORED;
  for (let i = 0; i < NAME.length; i++) {
    if (lowerAscii(bytes[start + i]!) !== NAME.charCodeAt(i)) return HEADER_IGNORED;
  }
  let from = colon + 1;
  let to = end;
  while (from < to && (bytes[from] === 0x20 || bytes[from] === 0x09)) from++;
  while (to > from && (bytes[to - 1] === 0x20 || bytes[to - 1] === 0x09)) to--;
  if (from === to) return HEADER_BAD_LENGTH;
  let value = 0;
  for (let i = from; i < to; i++) {
    const digit = bytes[i]! - 0x30;
    if (digit < 0 || digit > 9) return HEADER_BAD_LENGTH;
    value = value * 10 + digit;
    // Checked per digit so a long run of digits cannot lose precision before being refused.
    if (value > MAX_CONTENT_LENGTH) return HEADER_LENGTH_OUT_OF_RANGE;
  }
  return value;
}

/** The header line as printable ASCII for an error message: other bytes become \xNN, cut to 200 characters. */
export function describeHeaderLine(bytes: Uint8Array, start: number, end: number): string {
  if (end > start && bytes[end - 1] === 0x0d) end--;
  let text = '';
  let i = start;
  for (; i < end && text.length < 200; i++) {
    const b = bytes[i]!;
    text += b >= 0x20 && b < 0x7f ? String.fromCharCode(b) : `\\x${b.toString(16).padStart(2, '0')}`;
  }
  return i < end ? `${text}…` : text;
}

/**
 * Where the last `Content-Length:` (any case) in `bytes[start, end)` begins, or -1. Used on a header line that
 * cannot be parsed: a real header glued to garbage without a line break still starts a block there.
 */
export function lastHeaderName(bytes: Uint8Array, start: number, end: number): number {
  for (let at = end - NAME.length - 1; at >= start; at--) {
    if (bytes[at + NAME.length] !== 0x3a) continue;
    let i = 0;
    while (i < NAME.length && lowerAscii(bytes[at + i]!) === NAME.charCodeAt(i)) i++;
    if (i === NAME.length) return at;
  }
  return -1;
}
