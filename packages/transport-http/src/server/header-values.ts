/**
 * Values of the 2026-07-28 mirrored headers (`Mcp-Name`, `Mcp-Param-*`): plain visible ASCII, or the sentinel form
 * `=?base64?<Base64 of the UTF-8 bytes>?=` for anything else. Decoding is strict — canonical padding, the standard
 * alphabet only, valid UTF-8 — because a lenient decoder would let two different headers match one body value.
 */

const SENTINEL_PREFIX = '=?base64?';
const SENTINEL_SUFFIX = '?=';
const BASE64 = /^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$/;

/** True when `text` from `from` on holds only ASCII digits (true for none: callers that need one check the length). */
export function allDigits(text: string, from = 0): boolean {
  for (let i = from; i < text.length; i++) {
    const code = text.charCodeAt(i);
    if (code < 48 || code > 57) return false;
  }
  return true;
}

/** True when every character is one a plain header value may hold (RFC 9110 field-vchar, space, tab). */
function isPlain(value: string): boolean {
  for (let i = 0; i < value.length; i++) {
    const code = value.charCodeAt(i);
    if ((code < 0x20 || code > 0x7e) && code !== 0x09) return false;
  }
  return true;
}

/** `raw` without surrounding spaces and tabs (the value itself when it has none: no new string, no pattern). */
function trimmed(raw: string): string {
  let start = 0;
  let end = raw.length;
  while (start < end && (raw.charCodeAt(start) === 0x20 || raw.charCodeAt(start) === 0x09)) start++;
  while (end > start && (raw.charCodeAt(end - 1) === 0x20 || raw.charCodeAt(end - 1) === 0x09)) end--;
  return start === 0 && end === raw.length ? raw : raw.slice(start, end);
}

let utf8: TextDecoder | undefined;

/**
 * The value a mirrored header carries: the text itself, or the decoded text of a sentinel-encoded value;
 * `undefined` when the header is malformed (bad Base64, bad UTF-8, or characters a plain value must not have).
 * Surrounding spaces and tabs are not part of a value (HTTP strips them; the sentinel form carries them).
 */
export function decodeHeaderValue(raw: string): string | undefined {
  const value = trimmed(raw);
  if (
    value.startsWith(SENTINEL_PREFIX) &&
    value.endsWith(SENTINEL_SUFFIX) &&
    value.length >= SENTINEL_PREFIX.length + SENTINEL_SUFFIX.length
  ) {
    const encoded = value.slice(SENTINEL_PREFIX.length, value.length - SENTINEL_SUFFIX.length);
    if (!BASE64.test(encoded)) return undefined;
    const binary = atob(encoded);
    const bytes = new Uint8Array(binary.length);
    for (let i = 0; i < binary.length; i++) bytes[i] = binary.charCodeAt(i);
    utf8 ??= new TextDecoder('utf-8', { fatal: true });
    try {
      return utf8.decode(bytes);
    } catch {
      return undefined;
    }
  }
  return isPlain(value) ? value : undefined;
}
