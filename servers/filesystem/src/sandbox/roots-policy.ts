/**
 * Client roots as a narrowing of the operator's directories. `intersect` (default): each file root selects its
 * overlap with the operator's directories (a root above an allowed directory selects all of it; a root beside them
 * selects nothing). `replace`: the client's roots are used instead of the operator's list, but only those inside an
 * allowed directory; when none is, the operator's list stays (the official server's fallback, minus the widening).
 * `ignore`: roots are never asked for. In every policy the operator's directories are the upper bound.
 *
 * A client that lists no `file:` root at all does not narrow anything (an empty list usually means "no workspace
 * open"); a client that lists `file:` roots of which none overlaps gets nothing under `intersect`.
 */
import { realpath } from 'node:fs/promises';
import { posix } from 'node:path';
import { fileURLToPath } from 'node:url';
import { AccessView, type AllowedArea } from './access-view.js';
import type { PinnedRoot } from './pinned-roots.js';
import { isWithin, splitComponents } from './resolver.js';

/** How client roots combine with the operator's directories. */
export type RootsMode = 'intersect' | 'replace' | 'ignore';

/**
 * What a request gets when the client declares roots but cannot list them: `operator` (default, as the official
 * server does) the operator's directories, said on stderr and in the result; `refuse` a `roots_unavailable` error.
 */
export type RootsFallback = 'operator' | 'refuse';

/** The roots a client listed (`roots/list` result). */
export interface ClientRoots {
  roots: Array<{ uri: string; name?: string }>;
}

async function realOrLexical(path: string): Promise<string> {
  try {
    return await realpath(path);
  } catch {
    return posix.resolve(path);
  }
}

function toPath(uri: unknown): string | undefined {
  if (typeof uri !== 'string' || !/^file:/i.test(uri)) return undefined;
  try {
    const path = fileURLToPath(new URL(uri));
    return path.includes('\0') ? undefined : path;
  } catch {
    return undefined;
  }
}

/** The access view for a client's roots under `mode` (never larger than the operator's directories). */
export async function viewForRoots(roots: readonly PinnedRoot[], listed: ClientRoots, mode: RootsMode): Promise<AccessView> {
  const operator = AccessView.of(roots);
  if (mode === 'ignore') return operator;
  // A malformed answer is a failure to list, not an empty list (which would not narrow anything).
  if (!Array.isArray(listed?.roots)) throw new Error('the roots/list answer has no roots array');
  const paths = listed.roots.map((root) => toPath(root?.uri)).filter((p) => p !== undefined);
  if (paths.length === 0) return operator;
  const areas: AllowedArea[] = [];
  const add = (area: AllowedArea): void => {
    if (!areas.some((a) => a.root === area.root && a.prefix.join('/') === area.prefix.join('/'))) areas.push(area);
  };
  for (const given of paths) {
    const real = await realOrLexical(given);
    for (const root of roots) {
      if (isWithin(real, root.real)) {
        add({ root, prefix: splitComponents(real.slice(root.real.length)), display: posix.resolve(given) });
      } else if (mode === 'intersect' && isWithin(root.real, real)) {
        add({ root, prefix: [], display: root.given });
      }
    }
  }
  if (mode === 'replace' && areas.length === 0) return operator;
  return new AccessView(areas, true);
}
