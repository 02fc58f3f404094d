/**
 * A bounded depth-first walk below an opened directory, through directory fds (never by re-resolving paths), that
 * never follows links, never enters or reports denied entries, and stops cleanly on a visit limit, the call's time
 * budget or cancellation. Each directory is read to the end (up to a cap) and sorted by name, so outputs are stable
 * and memory stays bounded by depth × directory size.
 */
import type { Dirent } from 'node:fs';
import { lstat, opendir, readdir } from 'node:fs/promises';
import type { DirHandle } from '../sandbox/dir-handle.js';
import type { Sandbox } from '../sandbox/sandbox.js';
import type { Location } from '../sandbox/resolver.js';

/** What an entry is, from `lstat` (links are reported as links, never as what they point to). */
export type EntryKind = 'file' | 'directory' | 'symlink' | 'other';

/** One entry met by a walk. */
export interface WalkEntry {
  readonly name: string;
  /** Its path relative to the start directory, `/`-separated. */
  readonly relative: string;
  /** Its real names below its allowed directory. */
  readonly names: readonly string[];
  readonly kind: EntryKind;
  /** 1 for the start directory's own entries. */
  readonly depth: number;
  /** The open directory holding it (valid during the visit only). */
  readonly parent: DirHandle;
}

/** A visit's answer: `skip` = do not enter this directory; `stop` = end the walk. */
export type VisitResult = void | 'skip' | 'stop';

/** Limits of a walk. */
export interface WalkLimits {
  /** Deepest level whose entries are visited (1 = the start directory's entries only). */
  maxDepth: number;
  /** Entries visited at most (the walk stops with `visited`). */
  maxVisited: number;
  /** Entries read from one directory at most (the rest is skipped and counted). */
  maxDirectoryEntries: number;
  /** The call's signal (time budget or cancellation). */
  signal: AbortSignal;
}

/** How a walk ended. */
export interface WalkOutcome {
  visited: number;
  /** Why it ended early, if it did. */
  stoppedBy: 'visited' | 'signal' | 'visitor' | undefined;
  /** Entries not read because a directory had more than `maxDirectoryEntries`. */
  overfullSkipped: number;
  /** True when directories below `maxDepth` were not entered. */
  depthLimited: boolean;
}

/** Hooks around each directory (e.g. to load its `.gitignore`). */
export interface WalkHooks {
  enter?(dir: DirHandle, relative: string): Promise<void> | void;
  /** Called before the directory is closed; the walk waits for it. */
  leave?(relative: string, dir: DirHandle): Promise<void> | void;
}

function kindOf(entry: Dirent): EntryKind | undefined {
  if (entry.isFile()) return 'file';
  if (entry.isDirectory()) return 'directory';
  if (entry.isSymbolicLink()) return 'symlink';
  if (entry.isFIFO() || entry.isSocket() || entry.isBlockDevice() || entry.isCharacterDevice()) return 'other';
  return undefined;
}

/**
 * Directories up to this size (in bytes of the directory itself, about 20,000 entries on ext4) are read in one
 * call; larger ones are streamed, so memory stays bounded by the cap whatever a directory holds.
 */
const ONE_CALL_DIRECTORY_BYTES = 1024 * 1024;

function kindOrLstat(dir: DirHandle, entry: Dirent): Promise<EntryKind> | EntryKind {
  const kind = kindOf(entry);
  if (kind !== undefined) return kind;
  // DT_UNKNOWN (some file systems): ask lstat, relative to the open directory.
  return lstat(dir.child(entry.name)).then(
    (stat) => (stat.isFile() ? 'file' : stat.isDirectory() ? 'directory' : stat.isSymbolicLink() ? 'symlink' : 'other'),
    () => 'other',
  );
}

/** Reads one directory's entries (sorted by name), at most `cap` of them. */
export async function readEntries(
  dir: DirHandle,
  cap: number,
): Promise<{ entries: Array<{ name: string; kind: EntryKind }>; skipped: number }> {
  const entries: Array<{ name: string; kind: EntryKind }> = [];
  let skipped = 0;
  if ((await dir.file.stat()).size <= ONE_CALL_DIRECTORY_BYTES) {
    const all = await readdir(dir.base, { withFileTypes: true });
    skipped = Math.max(0, all.length - cap);
    for (const entry of all.slice(0, cap)) entries.push({ name: entry.name, kind: await kindOrLstat(dir, entry) });
  } else {
    const handle = await opendir(dir.base, { bufferSize: 256 });
    try {
      for await (const entry of handle) {
        if (entries.length >= cap) {
          skipped++;
          continue;
        }
        entries.push({ name: entry.name, kind: await kindOrLstat(dir, entry) });
      }
    } finally {
      // for-await closes the Dir when it completes; an early exit or error must not leak it.
      await handle.close().catch(() => {});
    }
  }
  entries.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  return { entries, skipped };
}

/**
 * Walks below `start` (an opened directory location), calling `visit` for every entry that is not denied, in
 * name order, depth first. Directories are entered when `visit` does not answer `skip` and the depth allows.
 */
export async function walkDirectory(
  sandbox: Sandbox,
  start: Location & { name: null },
  visit: (entry: WalkEntry) => VisitResult | Promise<VisitResult>,
  limits: WalkLimits,
  hooks: WalkHooks = {},
): Promise<WalkOutcome> {
  const outcome: WalkOutcome = { visited: 0, stoppedBy: undefined, overfullSkipped: 0, depthLimited: false };
  const rootReal = start.root.real;

  const walkOne = async (dir: DirHandle, names: readonly string[], relative: string, depth: number): Promise<boolean> => {
    await hooks.enter?.(dir, relative);
    try {
      let read: Awaited<ReturnType<typeof readEntries>>;
      try {
        read = await readEntries(dir, limits.maxDirectoryEntries);
      } catch (error) {
        // An unreadable subdirectory is left out; the start directory's failure is the caller's error.
        if (depth === 1) throw error;
        return true;
      }
      const { entries, skipped } = read;
      outcome.overfullSkipped += skipped;
      for (const { name, kind } of entries) {
        if (limits.signal.aborted) {
          outcome.stoppedBy = 'signal';
          return false;
        }
        const entryNames = [...names, name];
        if (sandbox.deny.deniesChild(rootReal, entryNames)) continue;
        if (outcome.visited >= limits.maxVisited) {
          outcome.stoppedBy = 'visited';
          return false;
        }
        outcome.visited++;
        const entryRelative = relative === '' ? name : `${relative}/${name}`;
        const answer = await visit({ name, relative: entryRelative, names: entryNames, kind, depth, parent: dir });
        if (answer === 'stop') {
          outcome.stoppedBy = 'visitor';
          return false;
        }
        if (kind !== 'directory' || answer === 'skip') continue;
        if (depth >= limits.maxDepth) {
          outcome.depthLimited = true;
          continue;
        }
        let child: DirHandle;
        try {
          child = await sandbox.openChild(dir, name);
        } catch {
          // Gone, replaced by a link or unreadable since it was listed: not entered.
          continue;
        }
        try {
          if (!(await walkOne(child, entryNames, entryRelative, depth + 1))) return false;
        } finally {
          await child.close();
        }
      }
      return true;
    } finally {
      await hooks.leave?.(relative, dir);
    }
  };

  await walkOne(start.dir, start.names, '', 1);
  return outcome;
}
