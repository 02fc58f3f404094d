/**
 * The values of the 2026-07-28 mirrored headers (`Mcp-Name`, `Mcp-Param-*`), both ways: plain visible ASCII, or the
 * sentinel form `=?base64?<Base64 of the UTF-8 bytes>?=` for anything else. A client writes values with
 * {@link encodeHeaderValue} and {@link headerText}; a server reads them with {@link decodeHeaderValue} and compares
 * them with the body through {@link headerMatches}. Anything that decides from a header value (the body check, the
 * scopes a challenge names) decodes it here, the one way. Decoding is strict (canonical padding, the standard
 * alphabet, valid UTF-8): a lenient decoder would let two different headers stand for one body value.
 */

const SENTINEL_PREFIX = '=?base64?';
const SENTINEL_SUFFIX = '?=';
const BASE64 = /^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$/;

let utf8Encoder: TextEncoder | undefined;
let utf8Decoder: TextDecoder | undefined;

function isSentinel(value: string): boolean {
  return (
    value.startsWith(SENTINEL_PREFIX) && value.endsWith(SENTINEL_SUFFIX) && value.length >= SENTINEL_PREFIX.length + SENTINEL_SUFFIX.length
  );
}

/** True when a client may send `value` as it is: visible ASCII and inner spaces, no space at an end, no sentinel look. */
function sendsPlain(value: string): boolean {
  const length = value.length;
  if (length === 0) return true;
  if (value.charCodeAt(0) === 0x20 || value.charCodeAt(length - 1) === 0x20) return false;
  for (let i = 0; i < length; i++) {
    const code = value.charCodeAt(i);
    if (code < 0x20 || code > 0x7e) return false;
  }
  return !isSentinel(value);
}

/** True when every character is one a received plain value may hold (RFC 9110 field-vchar, space, tab). */
function receivedPlain(value: string): boolean {
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

/**
 * The header form of a value: the value itself when it is visible ASCII and spaces with no space at either end
 * (and does not look like the sentinel), else `=?base64?<Base64 of its UTF-8>?=`.
 */
export function encodeHeaderValue(value: string): string {
  if (sendsPlain(value)) return value;
  const bytes = (utf8Encoder ??= new TextEncoder()).encode(value);
  let binary = '';
  for (let i = 0; i < bytes.length; i += 0x8000) binary += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
  return `${SENTINEL_PREFIX}${btoa(binary)}${SENTINEL_SUFFIX}`;
}

/**
 * The value a received mirrored header carries: the text itself, or the decoded text of a sentinel-encoded value;
 * `undefined` when the header is malformed (bad Base64, bad UTF-8, or characters a plain value must not have).
 * Surrounding spaces and tabs are not part of a value (HTTP strips them; the sentinel form carries them).
 */
export function decodeHeaderValue(raw: string): string | undefined {
  const value = trimmed(raw);
  if (isSentinel(value)) {
    const encoded = value.slice(SENTINEL_PREFIX.length, value.length - SENTINEL_SUFFIX.length);
    if (!BASE64.test(encoded)) return undefined;
    const binary = atob(encoded);
    const bytes = new Uint8Array(binary.length);
    for (let i = 0; i < binary.length; i++) bytes[i] = binary.charCodeAt(i);
    utf8Decoder ??= new TextDecoder('utf-8', { fatal: true });
    try {
      return utf8Decoder.decode(bytes);
    } catch {
      return undefined;
    }
  }
  return receivedPlain(value) ? value : undefined;
}

/** The JSON types an `x-mcp-header` annotation may mirror. */
export type MirroredType = 'string' | 'integer' | 'boolean';

/** The header text of an argument value: strings encoded as above, integers in decimal, booleans `true`/`false`. */
export function headerText(value: unknown): string | undefined {
  if (typeof value === 'string') return encodeHeaderValue(value);
  if (typeof value === 'boolean') return value ? 'true' : 'false';
  if (typeof value === 'number' && Number.isFinite(value)) return String(value);
  return undefined;
}

/** True when a decoded header value stands for the body value of a mirrored argument of `type`. */
export function headerMatches(decoded: string, value: unknown, type: MirroredType): boolean {
  if (type === 'integer' && typeof value === 'number') {
    return /^[+-]?\d+(\.\d+)?$/.test(decoded) && Number(decoded) === value;
  }
  if (type === 'boolean' && typeof value === 'boolean') return decoded === (value ? 'true' : 'false');
  if (typeof value === 'string') return decoded === value;
  return typeof value === 'number' || typeof value === 'boolean' ? decoded === String(value) : false;
}
