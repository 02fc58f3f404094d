/**
 * Open directories and how paths below them are formed. On Linux every child path goes through
 * `/proc/self/fd/<fd>/<name>`: the kernel resolves the fd's magic link to the directory the fd holds (not to
 * whatever its old path names now), so each open is relative to an already verified directory, like `openat(2)`.
 * Elsewhere ("path" anchoring) child paths are built from the real path, and every open is checked afterwards by
 * comparing device and inode numbers, which narrows a swap race but cannot close it.
 */
import { constants } from 'node:fs';
import { lstat, open, readlink, stat, type FileHandle } from 'node:fs/promises';
import { FsError } from './errors.js';

/** How child paths are anchored: to directory fds through `/proc/self/fd` (race-free) or to path strings. */
export type Anchoring = 'proc-fd' | 'path';

const O_NOFOLLOW = constants.O_NOFOLLOW ?? 0;
const O_DIRECTORY = constants.O_DIRECTORY ?? 0;
const O_NONBLOCK = constants.O_NONBLOCK ?? 0;

/** Open flags: never follow a symbolic link in the last position, never block on a FIFO or a device. */
export const OPEN_FLAGS = {
  directory: constants.O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_NONBLOCK,
  read: constants.O_RDONLY | O_NOFOLLOW | O_NONBLOCK,
  createExclusive: constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL | O_NOFOLLOW,
  /** An existing file overwritten in place: no creation, no truncation before the checks on what was opened. */
  overwrite: constants.O_WRONLY | O_NOFOLLOW | O_NONBLOCK,
} as const;

/** True when the platform has the flags the confinement relies on. */
export const HAS_NOFOLLOW = O_NOFOLLOW !== 0 && O_DIRECTORY !== 0;

/** An open directory inside an allowed directory. Pinned handles (the allowed directories) are never closed. */
export class DirHandle {
  /** The path children are opened through. */
  readonly base: string;

  constructor(
    readonly file: FileHandle,
    /** Where the directory was when it was opened (root real path + names); never sent to a client. */
    readonly realPath: string,
    readonly anchoring: Anchoring,
    readonly pinned = false,
  ) {
    this.base = anchoring === 'proc-fd' ? `/proc/self/fd/${file.fd}` : realPath;
  }

  /** The path of entry `name` of this directory. */
  child(name: string): string {
    return `${this.base}/${name}`;
  }

  /** Closes the directory (a no-op for pinned ones). */
  async close(): Promise<void> {
    if (!this.pinned) await this.file.close().catch(() => {});
  }
}

/** Opens directory entry `name` of `parent` without following a symbolic link. */
export async function openChildDirectory(parent: DirHandle, name: string): Promise<DirHandle> {
  const path = parent.child(name);
  const file = await open(path, OPEN_FLAGS.directory);
  const handle = new DirHandle(file, `${parent.realPath === '/' ? '' : parent.realPath}/${name}`, parent.anchoring);
  if (parent.anchoring === 'path') {
    try {
      await checkSameEntry(file, path);
      await checkParentStill(parent);
    } catch (error) {
      await handle.close();
      throw error;
    }
  }
  return handle;
}

/**
 * Path anchoring only: the opened file must still be what the path names (device and inode). Detects a swap that
 * happened before the check; a swap and swap-back around it goes unnoticed, which is why Linux uses fd anchoring.
 */
export async function checkSameEntry(file: FileHandle, path: string): Promise<void> {
  const [opened, named] = await Promise.all([file.stat(), lstat(path)]);
  if (opened.dev !== named.dev || opened.ino !== named.ino) {
    throw new FsError('changed_during_operation', 'The file system changed while the path was resolved; try again');
  }
}

/**
 * Path anchoring only: the parent's path must still lead to the parent that was opened (a link swapped in for it,
 * or for one of its ancestors, leads elsewhere). Narrows the window of a swap; it cannot close it.
 */
export async function checkParentStill(parent: DirHandle): Promise<void> {
  const [opened, named] = await Promise.all([parent.file.stat(), stat(parent.realPath)]);
  if (opened.dev !== named.dev || opened.ino !== named.ino) {
    throw new FsError('changed_during_operation', 'The file system changed while the path was resolved; try again');
  }
}

/**
 * Where an open file or directory is now, as the kernel sees it (Linux), or undefined where that cannot be known.
 * A directory moved out of an allowed directory after it was opened shows its new place here.
 */
export async function currentPathOf(file: FileHandle, anchoring: Anchoring): Promise<string | undefined> {
  if (anchoring !== 'proc-fd') return undefined;
  return readlink(`/proc/self/fd/${file.fd}`);
}

/** True when `/proc/self/fd/<fd>` of an open directory names `expected` (fd anchoring is usable). */
export async function procFdWorks(file: FileHandle, expected: string): Promise<boolean> {
  try {
    if ((await readlink(`/proc/self/fd/${file.fd}`)) !== expected) return false;
    const viaProc = await stat(`/proc/self/fd/${file.fd}/.`);
    const direct = await file.stat();
    return viaProc.ino === direct.ino && viaProc.dev === direct.dev;
  } catch {
    return false;
  }
}
