/**
 * The `mimeType` of a skill file, from its extension, and whether its bytes go out as `text` or as a base64 `blob`.
 * Text is sent only when the bytes are valid UTF-8, decoded with the byte-order mark kept: the client hashes the
 * UTF-8 encoding of `text`, which must be exactly the bytes the digest covers.
 */

const TYPES: Record<string, string> = {
  md: 'text/markdown',
  markdown: 'text/markdown',
  txt: 'text/plain',
  json: 'application/json',
  yaml: 'application/yaml',
  yml: 'application/yaml',
  toml: 'application/toml',
  csv: 'text/csv',
  html: 'text/html',
  css: 'text/css',
  js: 'text/javascript',
  mjs: 'text/javascript',
  ts: 'text/x-typescript',
  py: 'text/x-python',
  sh: 'text/x-shellscript',
  xml: 'application/xml',
  svg: 'image/svg+xml',
  png: 'image/png',
  jpg: 'image/jpeg',
  jpeg: 'image/jpeg',
  gif: 'image/gif',
  webp: 'image/webp',
  pdf: 'application/pdf',
  zip: 'application/zip',
};

const TEXTUAL = /^(?:text\/|application\/(?:json|yaml|toml|xml)$|image\/svg\+xml$)/;

/** The media type of file `name` (`application/octet-stream` when the extension is unknown). */
export function mediaTypeOf(name: string): string {
  const dot = name.lastIndexOf('.');
  return (dot > 0 && TYPES[name.slice(dot + 1).toLowerCase()]) || 'application/octet-stream';
}

const decoder = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });

/** The text of `bytes` when the media type is textual and the bytes are valid UTF-8, else `undefined`. */
export function textOf(bytes: Uint8Array, mimeType: string): string | undefined {
  if (!TEXTUAL.test(mimeType)) return undefined;
  try {
    return decoder.decode(bytes);
  } catch {
    return undefined;
  }
}

/** Base64 of `bytes` (web-standard: no `Buffer`). */
export function toBase64(bytes: Uint8Array): string {
  let binary = '';
  for (let i = 0; i < bytes.length; i += 0x8000) binary += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
  return btoa(binary);
}

/** Bytes of base64 `text`. */
export function fromBase64(text: string): Uint8Array {
  const binary = atob(text);
  const bytes = new Uint8Array(binary.length);
  for (let i = 0; i < binary.length; i++) bytes[i] = binary.charCodeAt(i);
  return bytes;
}
