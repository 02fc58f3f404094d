/**
 * Values of the 2026-07-28 mirrored headers (`Mcp-Name`, `Mcp-Param-*`): plain visible ASCII, or the sentinel form
 * `=?base64?<Base64 of the UTF-8 bytes>?=` for anything else. Decoding is strict — canonical padding, the standard
 * alphabet only, valid UTF-8 — because a lenient decoder would let two different headers match one body value.
 */

const SENTINEL_PREFIX = '=?base64?';
const SENTINEL_SUFFIX = '?=';
const BASE64 = /^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$/;
/** What a plain header value may hold (RFC 9110 field-vchar, space, tab). */
const PLAIN = /^[\x20-\x7e\t]*$/;

let utf8: TextDecoder | undefined;

/**
 * The value a mirrored header carries: the text itself, or the decoded text of a sentinel-encoded value;
 * `undefined` when the header is malformed (bad Base64, bad UTF-8, or characters a plain value must not have).
 * Surrounding spaces and tabs are not part of a value (HTTP strips them; the sentinel form carries them).
 */
export function decodeHeaderValue(raw: string): string | undefined {
  const value = raw.replace(/^[ \t]+|[ \t]+$/g, '');
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
  return PLAIN.test(value) ? value : undefined;
}
