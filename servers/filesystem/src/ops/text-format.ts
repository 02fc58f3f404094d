/**
 * What a file's bytes are as text: binary detection (git's rule: a NUL in the first 8000 bytes; UTF-16 and UTF-32
 * byte-order marks are reported as such), the UTF-8 BOM, the line-ending style, and UTF-8 boundaries for cutting.
 */

/** Bytes inspected for binary detection. */
export const SNIFF_BYTES = 8000;

const UTF8_BOM = [0xef, 0xbb, 0xbf] as const;

/** Why bytes are not UTF-8 text, or undefined when they look like it. */
export function binaryReason(head: Uint8Array): string | undefined {
  if (head.length >= 2 && ((head[0] === 0xff && head[1] === 0xfe) || (head[0] === 0xfe && head[1] === 0xff))) {
    return 'it is UTF-16 or UTF-32 text (byte-order mark), not UTF-8';
  }
  const end = Math.min(head.length, SNIFF_BYTES);
  for (let i = 0; i < end; i++) if (head[i] === 0) return 'it contains NUL bytes (binary data)';
  return undefined;
}

/** True when `bytes` starts with the UTF-8 byte-order mark. */
export function hasBom(bytes: Uint8Array): boolean {
  return bytes.length >= 3 && bytes[0] === UTF8_BOM[0] && bytes[1] === UTF8_BOM[1] && bytes[2] === UTF8_BOM[2];
}

/** The UTF-8 BOM's length. */
export const BOM_LENGTH = 3;

/** Line endings of a text. */
export type LineEnding = 'lf' | 'crlf' | 'mixed' | 'none';

/** The line-ending style of `text`. */
export function lineEndingOf(text: string): LineEnding {
  let crlf = 0;
  let lf = 0;
  for (let i = text.indexOf('\n'); i !== -1; i = text.indexOf('\n', i + 1)) {
    if (i > 0 && text.charCodeAt(i - 1) === 13) crlf++;
    else lf++;
  }
  if (crlf === 0 && lf === 0) return 'none';
  if (crlf === 0) return 'lf';
  if (lf === 0) return 'crlf';
  return 'mixed';
}

/** True when `byte` continues a UTF-8 sequence (10xxxxxx). */
export function isContinuation(byte: number | undefined): boolean {
  return byte !== undefined && (byte & 0xc0) === 0x80;
}

/** The length of the longest prefix of `bytes` that does not end inside a UTF-8 character. */
export function wholeCharacters(bytes: Uint8Array): number {
  let end = bytes.length;
  let back = 0;
  while (back < 3 && end - back - 1 >= 0 && isContinuation(bytes[end - back - 1])) back++;
  const lead = bytes[end - back - 1];
  if (lead !== undefined && lead >= 0xc0) {
    const need = lead >= 0xf0 ? 4 : lead >= 0xe0 ? 3 : 2;
    if (back + 1 < need) end -= back + 1;
  }
  return end;
}

/**
 * Where to cut `bytes` so the kept part ends on a whole line when it holds one, else on a whole character:
 * the index after the last `\n`, else the end of the last complete UTF-8 character.
 */
export function cutPoint(bytes: Uint8Array): number {
  const newline = bytes.lastIndexOf(10);
  return newline !== -1 ? newline + 1 : wholeCharacters(bytes);
}
