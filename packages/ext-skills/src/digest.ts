/**
 * SHA-256 digests in the extension's form (`sha256:` + 64 lowercase hex), with the Web Crypto API every supported
 * runtime has (Node ≥ 20, Deno, Bun, workers, browsers): no dependency, no `node:crypto`.
 */

const DIGEST_PATTERN = /^sha256:[0-9a-f]{64}$/;

/** The digest of `bytes` as `sha256:<hex>`. */
export async function sha256Digest(bytes: Uint8Array): Promise<string> {
  const hash = new Uint8Array(await globalThis.crypto.subtle.digest('SHA-256', bytes as Uint8Array<ArrayBuffer>));
  let hex = '';
  for (const byte of hash) hex += byte.toString(16).padStart(2, '0');
  return `sha256:${hex}`;
}

/** True when `value` is a digest in the extension's form. */
export function isDigest(value: unknown): value is string {
  return typeof value === 'string' && DIGEST_PATTERN.test(value);
}
