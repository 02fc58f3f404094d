/**
 * Skill URIs: `<base><skill-path>/<file-path>`, each path segment percent-encoded, and the canonical form of a URI a
 * client sent (so `skill://a/My%20File.md` and `skill://a/My File.md` name the same file).
 */

/** The URI of relative path `path` (`/`-separated) under `base` (`skill://`). */
export function uriOf(base: string, path: string): string {
  return base + path.split('/').map(encodeSegment).join('/');
}

/** The canonical spelling of `uri` under `base`, or `undefined` when it is not under `base` or is malformed. */
export function canonicalUri(base: string, uri: string): string | undefined {
  const path = pathOf(base, uri);
  return path === undefined ? undefined : uriOf(base, path);
}

/** The relative path `uri` names under `base`, or `undefined` (not under `base`, empty or dot segments, bad escapes). */
export function pathOf(base: string, uri: string): string | undefined {
  if (typeof uri !== 'string' || !uri.startsWith(base) || uri.length > 4096) return undefined;
  const rest = uri.slice(base.length).replace(/[?#].*$/s, '');
  if (rest === '') return undefined;
  const segments: string[] = [];
  for (const raw of rest.split('/')) {
    let segment: string;
    try {
      segment = decodeURIComponent(raw);
    } catch {
      return undefined;
    }
    if (segment === '' || segment === '.' || segment === '..' || segment.includes('/') || segment.includes('\0')) return undefined;
    segments.push(segment);
  }
  return segments.join('/');
}

function encodeSegment(segment: string): string {
  // Keep what RFC 3986 allows in a path segment unescaped; escape the rest.
  return encodeURIComponent(segment).replace(/[!'()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);
}
