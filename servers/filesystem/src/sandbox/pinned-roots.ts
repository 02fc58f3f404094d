/**
 * The operator's allowed directories, opened once at startup and held open for the life of the server. Every path
 * is resolved from one of these open directories, so renaming an allowed directory or putting a symbolic link in
 * its place later does not move the sandbox.
 */
import { open, realpath } from 'node:fs/promises';
import { homedir } from 'node:os';
import { resolve } from 'node:path';
import { DirHandle, OPEN_FLAGS, procFdWorks, type Anchoring } from './dir-handle.js';

/** One allowed directory of the operator. */
export interface PinnedRoot {
  /** Position in the command line (after skipping unusable ones). */
  readonly index: number;
  /** The absolute path as the operator gave it (`~` expanded, `..` resolved), which clients may use. */
  readonly given: string;
  /** Its real path at startup (symbolic links resolved), which clients may use too. */
  readonly real: string;
  /** The open directory every resolution starts from. */
  readonly handle: DirHandle;
}

/** The outcome of pinning the command line's directories. */
export interface PinnedRoots {
  readonly roots: readonly PinnedRoot[];
  readonly anchoring: Anchoring;
  /** One line per directory that was skipped, for stderr. */
  readonly skipped: readonly string[];
}

/** `~` and `~/…` expanded to the home directory (as the official server does); anything else unchanged. */
export function expandHome(path: string, home = homedir()): string {
  if (path === '~') return home;
  if (path.startsWith('~/')) return `${home}${path.slice(1)}`;
  return path;
}

/**
 * Opens each directory (real path, `O_DIRECTORY`), detects whether `/proc/self/fd` anchoring works, and skips
 * entries that are missing or not directories, saying why. Duplicate directories (same real path) are kept once.
 */
export async function pinRoots(dirs: readonly string[], options: { forcePathAnchoring?: boolean } = {}): Promise<PinnedRoots> {
  const opened: Array<{ given: string; real: string; file: Awaited<ReturnType<typeof open>> }> = [];
  const skipped: string[] = [];
  for (const dir of dirs) {
    const given = resolve(expandHome(dir));
    let real: string;
    try {
      real = await realpath(given);
    } catch (error) {
      skipped.push(`${dir}: cannot be accessed (${(error as NodeJS.ErrnoException).code ?? 'error'})`);
      continue;
    }
    if (opened.some((entry) => entry.real === real)) continue;
    try {
      opened.push({ given, real, file: await open(real, OPEN_FLAGS.directory) });
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      skipped.push(`${dir}: ${code === 'ENOTDIR' ? 'not a directory' : `cannot be opened (${code ?? 'error'})`}`);
    }
  }
  let anchoring: Anchoring = 'path';
  if (!options.forcePathAnchoring && opened.length > 0 && (await procFdWorks(opened[0]!.file, opened[0]!.real))) anchoring = 'proc-fd';
  const roots = opened.map((entry, index): PinnedRoot => ({
    index,
    given: entry.given,
    real: entry.real,
    handle: new DirHandle(entry.file, entry.real, anchoring, true),
  }));
  return { roots, anchoring, skipped };
}

/** Closes the pinned directories (at shutdown). */
export async function unpinRoots(pinned: PinnedRoots): Promise<void> {
  await Promise.all(pinned.roots.map((root) => root.handle.file.close().catch(() => {})));
}
