import { checkNdjsonText, HEADER_PREFIX } from './encode.js';
import type { Framing } from './framing.js';

// Counting UTF-8 bytes: `TextEncoder.encodeInto` into a reused scratch buffer measured 2-4× faster than a
// charCodeAt loop on Node 20 for 200-character JSON texts (60-105 ns against 380-630 ns), and it agrees with
// what a stream writes for any string (a lone surrogate becomes U+FFFD, 3 bytes). Longer texts are counted
// window by window, so the scratch buffer never grows beyond SCRATCH_BYTES.
const WINDOW_CHARS = 16 * 1024;
const SCRATCH_BYTES = 3 * WINDOW_CHARS;
let encoder: TextEncoder | undefined;
let scratch: Uint8Array | undefined;

/** The number of bytes `text` takes in UTF-8 (what a `Content-Length` header counts). */
export function utf8ByteLength(text: string): number {
  encoder ??= new TextEncoder();
  scratch ??= new Uint8Array(SCRATCH_BYTES);
  if (text.length <= WINDOW_CHARS) return encoder.encodeInto(text, scratch).written;
  let bytes = 0;
  let at = 0;
  while (at < text.length) {
    let end = Math.min(at + WINDOW_CHARS, text.length);
    // Never cut a surrogate pair: both halves on their own would count as two U+FFFD.
    if (end < text.length && (text.charCodeAt(end - 1) & 0xfc00) === 0xd800) end--;
    bytes += encoder.encodeInto(text.substring(at, end), scratch).written;
    at = end;
  }
  return bytes;
}

/**
 * Frames one JSON text as a string, for writers that batch many frames into one string and let the stream
 * encode it once (a Node stream's `write(string)`): NDJSON gives `json + '\n'`; Content-Length gives
 * `Content-Length: <n>\r\n\r\n` + `json`, where `n` counts the UTF-8 bytes of `json`, so the string must be
 * written as UTF-8. Throws a FramingError (`INVALID_PAYLOAD`) for an NDJSON text that would not decode back
 * to itself (a raw newline, a trailing `\r`, blank); `JSON.stringify` output never is one.
 */
export function frameText(json: string, framing: Framing): string {
  if (framing === 'ndjson') {
    checkNdjsonText(json);
    return json + '\n';
  }
  return HEADER_PREFIX + utf8ByteLength(json) + '\r\n\r\n' + json;
}

/**
 * Serialises `value` with `JSON.stringify` and frames it as a string, in one step: the hot path of a writer
 * (see {@link frameText}). Nothing needs checking, since `JSON.stringify` never emits a raw newline and never
 * a blank text; this saves a scan of every message (measured at about 50 ns per message on Node 20).
 * Returns `undefined` when `JSON.stringify` does (for `undefined`, a function, a symbol); throws what it throws
 * (a `TypeError` for a cycle or a BigInt).
 */
export function frameJson(value: unknown, framing: Framing): string | undefined {
  const json = JSON.stringify(value);
  if (json === undefined) return undefined;
  return framing === 'ndjson' ? json + '\n' : HEADER_PREFIX + utf8ByteLength(json) + '\r\n\r\n' + json;
}
