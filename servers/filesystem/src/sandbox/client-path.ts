/**
 * What a client sends as a path, turned into a lexical absolute path — or refused with a reason. Nothing here
 * touches the file system; confinement is the resolver's job. Percent-escapes are not decoded in plain paths (a
 * file may be called `%2e%2e`); only `file:` URIs are decoded, and what they decode to is checked like any path.
 */
import { homedir } from 'node:os';
import { posix } from 'node:path';
import { fileURLToPath } from 'node:url';
import { fail } from './errors.js';
import { expandHome } from './pinned-roots.js';

/** Longest path accepted (Linux's PATH_MAX). */
export const MAX_PATH_LENGTH = 4096;
/** Deepest path accepted, in components. */
export const MAX_PATH_DEPTH = 256;

/** Removes one pair of matching surrounding quotes and surrounding whitespace (as the official server does). */
function unquote(text: string): string {
  const trimmed = text.trim();
  if (trimmed.length >= 2 && (trimmed[0] === '"' || trimmed[0] === "'") && trimmed[trimmed.length - 1] === trimmed[0]) {
    return trimmed.slice(1, -1).trim();
  }
  return trimmed;
}

/**
 * The lexical absolute form of a client path: `file:` URIs decoded, `~` expanded, relative paths taken from `base`
 * (the first allowed directory, never the process's working directory), `.`/`..`/`//` resolved lexically.
 * Refuses non-strings, NUL characters, over-long or over-deep paths, URIs that are not local `file:` URIs, and
 * Windows drive paths (this server runs on POSIX hosts).
 */
export function absoluteClientPath(input: unknown, base: string, home: string = homedir()): string {
  if (typeof input !== 'string') throw fail.invalidPath(String(input), 'a path must be a string');
  if (input.length > MAX_PATH_LENGTH) throw fail.invalidPath(input, `longer than ${MAX_PATH_LENGTH} characters`);
  if (input.includes('\0')) throw fail.invalidPath(input, 'it contains a NUL character');
  let path = unquote(input);
  if (path === '') throw fail.invalidPath(input, 'the path is empty');
  if (/^file:/i.test(path)) {
    try {
      path = fileURLToPath(new URL(path));
    } catch {
      throw fail.invalidPath(input, 'not a local file: URI (no host, no encoded "/")');
    }
    if (path.includes('\0')) throw fail.invalidPath(input, 'it contains a NUL character');
  } else if (/^[A-Za-z][A-Za-z0-9+.-]*:\/\//.test(path)) {
    throw fail.invalidPath(input, 'only plain paths and file: URIs are accepted');
  }
  path = expandHome(path, home);
  if (/^[A-Za-z]:(?:[\\/]|$)/.test(path)) throw fail.invalidPath(input, 'a Windows-style path received on a POSIX host');
  const absolute = path.startsWith('/') ? posix.resolve(path) : posix.resolve(base, path);
  if (absolute.split('/').length - 1 > MAX_PATH_DEPTH) throw fail.invalidPath(input, `deeper than ${MAX_PATH_DEPTH} components`);
  return absolute;
}
