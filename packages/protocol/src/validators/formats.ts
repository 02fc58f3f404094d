/**
 * The JSON Schema `format` checks the MCP schemas use (`uri`, `uri-template`, `byte`), in the shape Ajv's
 * standalone code calls (`formats[name].validate(value)`).
 *
 * They are deliberately lenient where the spec's own examples and real servers are: they catch values of the
 * wrong kind (a bare path where a URI is expected, base64 with stray characters), not every RFC detail. All are
 * linear scans without backtracking, so a multi-megabyte base64 blob cannot exhaust the regex stack.
 */

/** A string format check as the generated validators use it. */
export interface FormatCheck {
  readonly type: 'string';
  validate(value: string): boolean;
}

const SCHEME = /^[A-Za-z][A-Za-z0-9+.-]*:/;
// Whitespace and control characters never appear in a URI (RFC 3986 §2); non-ASCII is tolerated (IRIs are common).
const NO_SPACE_OR_CONTROL = /^[^\s\u0000-\u001f\u007f]*$/;
const BASE64 = /^[A-Za-z0-9+/]*={0,2}$/;

/**
 * `uri`: an absolute URI, i.e. a scheme (`file:`, `https:`, `data:`, `test:` …) followed by characters that are
 * neither whitespace nor control characters. Percent-encoding and the ASCII-only rule of RFC 3986 are not enforced.
 */
export function isUri(value: string): boolean {
  return SCHEME.test(value) && NO_SPACE_OR_CONTROL.test(value);
}

/**
 * `uri-template` (RFC 6570): no whitespace or control characters, and `{…}` expressions that are non-empty,
 * closed and not nested. Operators and variable names inside an expression are not checked.
 */
export function isUriTemplate(value: string): boolean {
  let open = -1;
  for (let i = 0; i < value.length; i++) {
    const c = value.charCodeAt(i);
    if (c <= 0x20 || c === 0x7f) return false;
    if (c === 0x7b) {
      if (open >= 0) return false;
      open = i;
    } else if (c === 0x7d) {
      if (open < 0 || i === open + 1) return false;
      open = -1;
    }
  }
  return open < 0;
}

/** `byte`: standard base64 (RFC 4648 §4) with padding; no whitespace, no base64url alphabet. */
export function isBase64(value: string): boolean {
  return value.length % 4 === 0 && BASE64.test(value);
}

/** Every format the generated validators reference, by JSON Schema format name. */
export const formats: Readonly<Record<string, FormatCheck>> = {
  uri: { type: 'string', validate: isUri },
  'uri-template': { type: 'string', validate: isUriTemplate },
  byte: { type: 'string', validate: isBase64 },
};
