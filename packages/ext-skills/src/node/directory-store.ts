/**
 * A {@link SkillStore} over a directory tree, confined the way the filesystem server confines its roots: the root
 * is opened once and pinned, and every path below it is walked one component at a time, each directory opened
 * relative to the one before without following links (`O_NOFOLLOW | O_DIRECTORY`). On Linux each step goes through
 * `/proc/self/fd/<fd>/<name>`, so a directory swapped for a link to `/etc` mid-walk is refused rather than followed
 * (the kernel resolves the fd, not the old path); elsewhere paths are joined to the root's real path, which narrows
 * that race without closing it. Files are opened with `O_NOFOLLOW | O_NONBLOCK`, must be regular files, and are
 * refused by size before a byte is read. Errors name the relative path, never where the root is.
 */
import { constants } from 'node:fs';
import { open, opendir, readlink, realpath, type FileHandle } from 'node:fs/promises';
import { SkillStoreError, type SkillStore, type SkillStoreEntry } from '../store.js';

const O_NOFOLLOW = constants.O_NOFOLLOW ?? 0;
const O_DIRECTORY = constants.O_DIRECTORY ?? 0;
const O_NONBLOCK = constants.O_NONBLOCK ?? 0;
const DIR_FLAGS = constants.O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_NONBLOCK;
const FILE_FLAGS = constants.O_RDONLY | O_NOFOLLOW | O_NONBLOCK;

/** A directory store; `close` releases the pinned root. */
export interface DirectorySkillStore extends SkillStore {
  /** `proc-fd` (race-free, Linux) or `path`. */
  readonly anchoring: 'proc-fd' | 'path';
  close(): Promise<void>;
}

/** Opens `root` (which must be a directory; a link given as the root itself is resolved once, here). */
export async function directorySkillStore(root: string): Promise<DirectorySkillStore> {
  const real = await realpath(root);
  const pinned = await open(real, DIR_FLAGS);
  if (!(await pinned.stat()).isDirectory()) {
    await pinned.close();
    throw new TypeError('the skills root is not a directory');
  }
  const anchoring = (await procWorks(pinned, real)) ? 'proc-fd' : 'path';
  const base = (handle: FileHandle, realPath: string): string => (anchoring === 'proc-fd' ? `/proc/self/fd/${handle.fd}` : realPath);

  /** Opens directory `dir` (relative); the caller closes what is returned unless it is the pinned root. */
  const openDir = async (dir: string): Promise<{ handle: FileHandle; path: string }> => {
    let handle = pinned;
    let path = real;
    for (const name of components(dir)) {
      let next: FileHandle;
      try {
        next = await open(`${base(handle, path)}/${name}`, DIR_FLAGS);
      } catch (error) {
        if (handle !== pinned) await handle.close();
        throw storeError(error, dir, 'directory');
      }
      if (handle !== pinned) await handle.close();
      handle = next;
      path = `${path}/${name}`;
    }
    return { handle, path };
  };

  return {
    anchoring,
    async list(dir, limit) {
      const { handle, path } = await openDir(dir);
      const entries: SkillStoreEntry[] = [];
      try {
        const listing = await opendir(base(handle, path), { bufferSize: 128 });
        try {
          for await (const entry of listing) {
            const kind = entry.isFile() ? 'file' : entry.isDirectory() ? 'directory' : entry.isSymbolicLink() ? 'link' : 'other';
            entries.push({ name: entry.name, kind });
            if (entries.length > limit) break;
          }
        } finally {
          await listing.close().catch(() => {});
        }
      } catch (error) {
        throw storeError(error, dir, 'directory');
      } finally {
        if (handle !== pinned) await handle.close();
      }
      return entries;
    },
    async read(file, maxBytes) {
      const parts = components(file);
      const name = parts.pop();
      if (name === undefined) throw new SkillStoreError('not_a_file', 'the root is not a file');
      const { handle: dir, path } = await openDir(parts.join('/'));
      let handle: FileHandle;
      try {
        handle = await open(`${base(dir, path)}/${name}`, FILE_FLAGS);
      } catch (error) {
        throw storeError(error, file, 'file');
      } finally {
        if (dir !== pinned) await dir.close();
      }
      try {
        const stat = await handle.stat();
        if (!stat.isFile()) throw new SkillStoreError('not_a_file', `${file} is not a regular file`);
        if (stat.size > maxBytes) throw new SkillStoreError('too_large', `${file} is larger than ${maxBytes} bytes`);
        // Read one byte more than allowed: a file that grew since its stat is still refused, never read whole.
        const buffer = new Uint8Array(Math.min(maxBytes + 1, stat.size + 1));
        let length = 0;
        while (length < buffer.length) {
          const { bytesRead } = await handle.read(buffer, length, buffer.length - length, length);
          if (bytesRead === 0) break;
          length += bytesRead;
        }
        if (length > maxBytes) throw new SkillStoreError('too_large', `${file} is larger than ${maxBytes} bytes`);
        if (length === buffer.length) {
          // It grew past its stat but stays within the limit: read the rest, still bounded.
          const rest = await readRest(handle, length, maxBytes, file);
          return rest;
        }
        return buffer.subarray(0, length);
      } catch (error) {
        throw error instanceof SkillStoreError ? error : storeError(error, file, 'file');
      } finally {
        await handle.close();
      }
    },
    async close() {
      await pinned.close().catch(() => {});
    },
  };
}

async function readRest(handle: FileHandle, from: number, maxBytes: number, file: string): Promise<Uint8Array> {
  const buffer = new Uint8Array(maxBytes + 1);
  let length = 0;
  while (length < buffer.length) {
    const { bytesRead } = await handle.read(buffer, length, buffer.length - length, length);
    if (bytesRead === 0) break;
    length += bytesRead;
  }
  if (length > maxBytes || length < from) throw new SkillStoreError('too_large', `${file} changed size while it was read`);
  return buffer.subarray(0, length);
}

function components(path: string): string[] {
  if (path === '') return [];
  const parts = path.split('/');
  for (const part of parts) {
    if (part === '' || part === '.' || part === '..' || part.includes('\0'))
      throw new SkillStoreError('not_found', `invalid path: ${path.slice(0, 200)}`);
  }
  return parts;
}

function storeError(error: unknown, path: string, what: 'file' | 'directory'): SkillStoreError {
  if (error instanceof SkillStoreError) return error;
  const code = (error as NodeJS.ErrnoException | undefined)?.code;
  const shown = path === '' ? 'the root' : path.slice(0, 200);
  switch (code) {
    case 'ENOENT':
    case 'ENOTDIR':
      return new SkillStoreError('not_found', `no such ${what}: ${shown}`);
    case 'ELOOP':
    case 'EMLINK':
      return new SkillStoreError('not_a_file', `${shown} is a symbolic link, which is never followed`);
    case 'EACCES':
    case 'EPERM':
      return new SkillStoreError('unreadable', `${shown} is not readable`);
    default:
      return new SkillStoreError('unreadable', `${shown} could not be read (${code ?? 'error'})`);
  }
}

async function procWorks(handle: FileHandle, expected: string): Promise<boolean> {
  if (process.platform !== 'linux') return false;
  try {
    return (await readlink(`/proc/self/fd/${handle.fd}`)) === expected;
  } catch {
    return false;
  }
}
