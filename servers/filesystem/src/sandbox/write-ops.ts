/**
 * Changes to the disk, each made inside a directory opened by the sandbox: an existing file is overwritten in place
 * through a descriptor opened without following links and checked (or, in `atomic` mode, replaced by a temporary
 * file renamed over the name — a link at the name is replaced, never followed); new files are written to a
 * temporary file and linked or renamed into place;
 * "must not exist" writes and moves of files use link-then-unlink, which fails atomically when the destination
 * appeared meanwhile; the parent is checked to be still inside its allowed directory right before the final step.
 */
import type { Stats } from 'node:fs';
import { link, lstat, mkdir, open, rename, rmdir, unlink, type FileHandle } from 'node:fs/promises';
import type { AccessView } from './access-view.js';
import { DirHandle, OPEN_FLAGS, checkSameEntry, currentPathOf, openChildDirectory } from './dir-handle.js';
import { FsError, fail, fromErrno } from './errors.js';
import type { LocatedEntry, Sandbox } from './sandbox.js';
import { isWithin, type Location } from './resolver.js';

/**
 * How an existing file is replaced. `in-place` (the default, as the official server 2.0 does): opened without
 * following links, checked, written from the start and truncated — the file keeps its inode, owner, permissions
 * and other hard links, but a failure half-way leaves it half-written. `atomic`: a temporary file renamed over the
 * name — readers see the old or the new file, never a mix, but the file is a new inode (other hard links keep the
 * old content; owner and extended attributes are not carried over).
 */
export type WriteMode = 'in-place' | 'atomic';

/** What a write reports. */
export interface WriteOutcome {
  /** True when the file did not exist before. */
  created: boolean;
  /** Bytes written. */
  bytes: number;
  /** How the content got there (a new file is always created atomically). */
  mode: WriteMode;
}

/** Expected identity of the file being replaced (an edit refuses to overwrite a file changed since it was read). */
export interface ExpectedFile {
  ino: number;
  size: number;
  mtimeMs: number;
}

/** Options of {@link writeFileConfined}. */
export interface WriteOptions {
  /** Refuse an existing entry (copies without overwrite). */
  mustNotExist?: boolean;
  /** Refuse a file that changed since it was read (edits). */
  expected?: ExpectedFile;
  /** How an existing file is replaced (default `in-place`). */
  mode?: WriteMode;
}

function tempName(name: string): string {
  // Short enough for NAME_MAX (255 bytes) whatever the name; hidden; unique.
  const stem = Buffer.from(name)
    .subarray(0, 180)
    .toString('utf8')
    .replace(/\uFFFD+$/u, '');
  // Web Crypto's generator (the global): node:crypto would cost the server's start several ms to load.
  return `.${stem}.${Buffer.from(crypto.getRandomValues(new Uint8Array(6))).toString('hex')}.wiremcp-tmp`;
}

const changed = (path: string): FsError => new FsError('changed_during_operation', `The file changed during the write; try again: ${path}`);

function sameFile(a: Stats, b: Stats): boolean {
  return a.dev === b.dev && a.ino === b.ino;
}

function matchesExpected(stat: Stats | undefined, expected: ExpectedFile): boolean {
  return stat !== undefined && stat.ino === expected.ino && stat.size === expected.size && stat.mtimeMs === expected.mtimeMs;
}

/**
 * Writes a file at the entry `input` names (links followed, confined). `fill` writes the content into the open file
 * (at explicit positions from 0) and returns the byte count. Refuses directories, read-only files, multiply-linked
 * files (policy), an existing entry when `mustNotExist`, and a file that changed since `expected`. An existing file
 * is replaced as `mode` says; a new one is written to a temporary file and linked or renamed into place.
 */
export async function writeFileConfined(
  sandbox: Sandbox,
  view: AccessView,
  input: unknown,
  fill: (file: FileHandle) => Promise<number>,
  options: WriteOptions = {},
): Promise<WriteOutcome> {
  const entry = await sandbox.locateEntry(view, input, { follow: true });
  const { location, stat, path } = entry;
  try {
    if (stat?.isDirectory()) throw fail.isDirectory(path);
    if (stat && !stat.isFile()) throw fail.notFile(path);
    if (stat && options.mustNotExist) throw fail.exists(path);
    if (stat) sandbox.checkLinks(stat, path);
    // Read-only means no write bit at all: refused whoever we run as (root could write it, and a rename would
    // replace it, neither of which is what a read-only file asks for).
    if (stat && (stat.mode & 0o222) === 0) throw fail.readOnly(path);
    if (options.expected && !matchesExpected(stat, options.expected)) {
      throw new FsError('changed_during_operation', `The file changed while it was being edited; read it again: ${path}`);
    }
    if (stat && (options.mode ?? 'in-place') === 'in-place')
      return await overwriteInPlace(sandbox, entry as LocatedEntry, stat, fill, options);
    return await writeByRename(sandbox, entry as LocatedEntry, stat, fill, options);
  } catch (error) {
    throw fromErrno(error, path);
  } finally {
    await sandbox.release(location);
  }
}

/**
 * Overwrites the located regular file through a descriptor: opened with `O_NOFOLLOW` (a link swapped in since it
 * was located is refused, never followed), then checked to be the same file (device and inode), still a single- or
 * allowed multi-linked regular file, still writable, still inside its allowed directory (the kernel's view of the
 * descriptor), and unchanged since `expected`; only then written and truncated to the new length.
 */
async function overwriteInPlace(
  sandbox: Sandbox,
  entry: LocatedEntry,
  located: Stats,
  fill: (file: FileHandle) => Promise<number>,
  options: WriteOptions,
): Promise<WriteOutcome> {
  const { location, path } = entry;
  let file: FileHandle;
  try {
    file = await open(location.dir.child(location.name), OPEN_FLAGS.overwrite);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    // A link or another kind of entry put in its place since it was located.
    if (code === 'ELOOP' || code === 'ENXIO' || code === 'ENOENT') throw changed(path);
    throw error;
  }
  try {
    const opened = await file.stat();
    if (!opened.isFile() || !sameFile(opened, located)) throw changed(path);
    sandbox.checkLinks(opened, path);
    if ((opened.mode & 0o222) === 0) throw fail.readOnly(path);
    if (options.expected && !matchesExpected(opened, options.expected)) throw changed(path);
    const now = await currentPathOf(file, location.dir.anchoring);
    if (now !== undefined && !isWithin(now, location.root.real)) throw fail.outside(path);
    if (location.dir.anchoring === 'path') await checkSameEntry(file, location.dir.child(location.name));
    const bytes = await fill(file);
    await file.truncate(bytes);
    await file.datasync();
    return { created: false, bytes, mode: 'in-place' };
  } finally {
    await file.close().catch(() => {});
  }
}

/** Writes a temporary file next to the name and renames it over the name (or links it, when it must not exist). */
async function writeByRename(
  sandbox: Sandbox,
  entry: LocatedEntry,
  stat: Stats | undefined,
  fill: (file: FileHandle) => Promise<number>,
  options: WriteOptions,
): Promise<WriteOutcome> {
  const { location, path } = entry;
  const temp = tempName(location.name);
  const tempPath = location.dir.child(temp);
  let bytes: number;
  const file = await open(tempPath, OPEN_FLAGS.createExclusive, 0o666);
  try {
    bytes = await fill(file);
    if (stat) await file.chmod(stat.mode & 0o7777);
    await file.datasync();
  } catch (error) {
    await file.close().catch(() => {});
    await unlink(tempPath).catch(() => {});
    throw error;
  }
  await file.close();
  try {
    await sandbox.resolver.checkStillInside(location, path);
    if (options.mustNotExist) {
      await link(tempPath, location.dir.child(location.name));
      await unlink(tempPath);
    } else {
      await rename(tempPath, location.dir.child(location.name));
    }
  } catch (error) {
    await unlink(tempPath).catch(() => {});
    throw error;
  }
  return { created: stat === undefined, bytes, mode: 'atomic' };
}

/** Writes all of `data` to `file`, starting at byte `position` of the file. Resolves with the bytes written. */
export async function writeAll(file: FileHandle, data: Uint8Array, position = 0): Promise<number> {
  let offset = 0;
  while (offset < data.length) {
    const { bytesWritten } = await file.write(data, offset, data.length - offset, position + offset);
    offset += bytesWritten;
  }
  return offset;
}

/**
 * `mkdir -p` inside the sandbox: each missing component is created in its opened parent after the area and deny
 * checks, then opened without following links (a link raced into its place is refused). Existing links to
 * directories are followed, confined. Resolves with true when something was created.
 */
export async function makeDirectories(sandbox: Sandbox, view: AccessView, input: unknown): Promise<boolean> {
  const target = sandbox.target(view, input);
  const hops = { count: 0 };
  let location: Location = { root: target.root, dir: target.root.handle, names: [], name: null };
  let created = false;
  const queue = [...target.components];
  try {
    while (queue.length > 0) {
      const name = queue.shift()!;
      let tries = 0;
      for (;;) {
        const here: Location = { ...location, name };
        sandbox.check(view, here, target.path);
        try {
          const child: DirHandle = await openChildDirectory(location.dir, name);
          await location.dir.close();
          location = { root: location.root, dir: child, names: [...location.names, name], name: null };
          break;
        } catch (error) {
          const code = (error as NodeJS.ErrnoException).code;
          if (code === 'ENOENT' && tries++ < 3) {
            await mkdir(location.dir.child(name)).catch((e: NodeJS.ErrnoException) => {
              if (e.code !== 'EEXIST') throw e;
            });
            created = true;
            continue;
          }
          if (code !== 'ENOTDIR' && code !== 'ELOOP') throw error;
          const followed = await sandbox.resolver.follow(here, target.path, hops);
          if (followed === here) throw fail.exists(target.path);
          location = followed;
          if (followed.name === null) break;
          queue.unshift(followed.name);
          location = { ...followed, name: null };
          break;
        }
      }
    }
    sandbox.check(view, location, target.path);
    return created;
  } catch (error) {
    throw fromErrno(error, target.path);
  } finally {
    await location.dir.close();
  }
}

/** Deletes a file or a link (never what a link points to). */
export async function deleteFile(sandbox: Sandbox, view: AccessView, input: unknown): Promise<Stats> {
  const { location, stat, path } = await sandbox.locateEntry(view, input, { follow: false });
  try {
    if (!stat) throw fail.notFound(path);
    if (stat.isDirectory()) throw fail.isDirectory(path);
    await unlink(location.dir.child(location.name));
    return stat;
  } catch (error) {
    throw fromErrno(error, path);
  } finally {
    await sandbox.release(location);
  }
}

/** Removes an empty directory entry `name` of `dir`. */
export function removeEmptyDirectory(dir: DirHandle, name: string): Promise<void> {
  return rmdir(dir.child(name));
}

/**
 * Moves `source` to `destination` (both located without following their last component). Refuses an existing
 * destination: files and links move by link-then-unlink, which cannot replace anything; directories by rename after
 * a check (a directory can only replace an empty one, the kernel refuses the rest).
 */
export async function moveEntry(source: LocatedEntry, destination: LocatedEntry, sandbox: Sandbox): Promise<void> {
  const from = source.location.dir.child(source.location.name);
  const to = destination.location.dir.child(destination.location.name);
  if (!source.stat) throw fail.notFound(source.path);
  if (destination.stat) throw fail.exists(destination.path);
  await sandbox.resolver.checkStillInside(source.location, source.path);
  await sandbox.resolver.checkStillInside(destination.location, destination.path);
  try {
    if (source.stat.isDirectory()) {
      await rename(from, to);
      return;
    }
    try {
      await link(from, to);
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      // File systems without hard links: fall back to a checked rename.
      if (code !== 'EPERM' && code !== 'ENOTSUP' && code !== 'EOPNOTSUPP' && code !== 'EMLINK') throw error;
      await lstat(to).then(
        () => {
          throw fail.exists(destination.path);
        },
        (e: NodeJS.ErrnoException) => {
          if (e.code !== 'ENOENT') throw e;
        },
      );
      await rename(from, to);
      return;
    }
    await unlink(from);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    throw fromErrno(error, code === 'EEXIST' || code === 'ENOTEMPTY' ? destination.path : source.path);
  }
}
