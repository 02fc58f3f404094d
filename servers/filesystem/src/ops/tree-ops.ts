/**
 * Operations on whole subtrees, through open directories: finding whether anything below a directory is denied
 * (a directory holding denied entries must not be moved or deleted, which would expose or destroy what the
 * patterns protect), and deleting a tree without ever following a link.
 */
import { rmdir, unlink } from 'node:fs/promises';
import type { Limits } from '../config.js';
import type { DirHandle } from '../sandbox/dir-handle.js';
import { FsError } from '../sandbox/errors.js';
import type { Sandbox } from '../sandbox/sandbox.js';
import { readEntries } from './walk.js';

/** Counts of what a tree deletion removed. */
export interface Removed {
  files: number;
  directories: number;
}

/**
 * True when an entry below directory `name` of `parent` (at real `names` below allowed directory `rootReal`) matches a
 * deny pattern. Throws `too_large` when the tree is too big to check within the limits.
 */
export async function subtreeHasDenied(
  sandbox: Sandbox,
  parent: DirHandle,
  name: string,
  rootReal: string,
  names: readonly string[],
  limits: Limits,
  signal: AbortSignal,
): Promise<boolean> {
  if (sandbox.deny.empty) return false;
  let visited = 0;
  const scan = async (holder: DirHandle, entryName: string, entryNames: readonly string[]): Promise<boolean> => {
    const dir = await sandbox.openChild(holder, entryName);
    try {
      const { entries, skipped } = await readEntries(dir, limits.maxDirectoryEntries);
      if (skipped > 0) throw new FsError('too_large', 'The directory is too large to check against the deny patterns');
      for (const entry of entries) {
        if (signal.aborted || ++visited > limits.maxVisited) {
          throw new FsError('too_large', 'The directory is too large to check against the deny patterns in time');
        }
        const childNames = [...entryNames, entry.name];
        if (sandbox.deny.deniesChild(rootReal, childNames)) return true;
        if (entry.kind === 'directory' && (await scan(dir, entry.name, childNames))) return true;
      }
      return false;
    } finally {
      await dir.close();
    }
  };
  return scan(parent, name, names);
}

/**
 * Deletes directory `name` of `parent` and everything in it. Links are unlinked, never followed; a directory that
 * became a link while this ran is unlinked as a link; large directories are read again until empty.
 */
export async function removeTree(
  sandbox: Sandbox,
  parent: DirHandle,
  name: string,
  removed: Removed,
  signal: AbortSignal,
  cap: number,
): Promise<void> {
  let dir: DirHandle;
  try {
    dir = await sandbox.openChild(parent, name);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code !== 'ENOTDIR' && code !== 'ELOOP') throw error;
    await unlink(parent.child(name));
    removed.files++;
    return;
  }
  try {
    for (;;) {
      const { entries, skipped } = await readEntries(dir, cap);
      for (const entry of entries) {
        if (signal.aborted)
          throw new FsError('time_budget_exceeded', 'The deletion ran out of its time budget; part of the tree was deleted');
        if (entry.kind === 'directory') {
          await removeTree(sandbox, dir, entry.name, removed, signal, cap);
          continue;
        }
        try {
          await unlink(dir.child(entry.name));
          removed.files++;
        } catch (error) {
          if ((error as NodeJS.ErrnoException).code !== 'EISDIR') throw error;
          await removeTree(sandbox, dir, entry.name, removed, signal, cap);
        }
      }
      if (skipped === 0) break;
    }
  } finally {
    await dir.close();
  }
  await rmdir(parent.child(name));
  removed.directories++;
}
