/**
 * Path resolution that cannot leave the allowed directories: a user-space `openat2(RESOLVE_BENEATH)`. A path is
 * walked one component at a time from a pinned allowed directory; each directory is opened relative to the
 * previous one without following links (`O_NOFOLLOW | O_DIRECTORY`), and a symbolic link met on the way is read and
 * resolved by this code — relative targets from the directory holding the link, absolute targets only when they name
 * a place inside an allowed directory. `..` never climbs above the allowed directory it is in. The last component
 * is left unopened: what to do with it (open it for reading without following, create it, rename it, follow it
 * when it is a link) is each operation's business, see `follow`.
 */
import { readlink } from 'node:fs/promises';
import { posix } from 'node:path';
import { DirHandle, currentPathOf, openChildDirectory } from './dir-handle.js';
import { FsError, fail, fromErrno } from './errors.js';
import type { PinnedRoot, PinnedRoots } from './pinned-roots.js';

/** Linux's own limit on links followed in one resolution. */
const MAX_LINK_HOPS = 40;

/** A resolved place: an open directory inside an allowed directory, and the name of an entry in it (or none). */
export interface Location {
  readonly root: PinnedRoot;
  /** The open directory that holds `name`, or the target itself when `name` is null. Close it with `release`. */
  readonly dir: DirHandle;
  /** The real names from the allowed directory down to `dir`. */
  readonly names: readonly string[];
  /** The last component, not opened yet; null when the location is the directory `dir` itself. */
  readonly name: string | null;
}

/** Counts the links followed during one resolution (shared by its steps). */
export interface LinkHops {
  count: number;
}

/** True when lexical absolute path `path` is `base` or below it. */
export function isWithin(path: string, base: string): boolean {
  return path === base || path.startsWith(base === '/' ? '/' : `${base}/`);
}

/** The components of a link target or relative path (`.` and `..` kept, empty ones dropped). */
export function splitComponents(path: string): string[] {
  return path.split('/').filter((part) => part !== '');
}

/** The real path of a location's entry (server-side only, never sent to a client). */
export function realPathOf(location: Location): string {
  const parts = location.name === null ? location.names : [...location.names, location.name];
  return parts.length === 0 ? location.root.real : `${location.root.real === '/' ? '' : location.root.real}/${parts.join('/')}`;
}

/** Resolves paths inside the pinned allowed directories. */
export class Resolver {
  constructor(readonly pinned: PinnedRoots) {}

  /**
   * The allowed directory that contains lexical absolute path `path` (by the path the operator gave or by its real
   * path; the longest match wins) and the components below it; undefined when none does.
   */
  mapAbsolute(path: string): { root: PinnedRoot; components: string[] } | undefined {
    let best: { root: PinnedRoot; base: string } | undefined;
    for (const root of this.pinned.roots) {
      for (const base of [root.given, root.real]) {
        if (isWithin(path, base) && (best === undefined || base.length > best.base.length)) best = { root, base };
      }
    }
    if (!best) return undefined;
    return { root: best.root, components: splitComponents(path.slice(best.base.length)) };
  }

  /** Resolves `components` below `root`; `path` is the client's text, used in errors only. */
  locate(root: PinnedRoot, components: readonly string[], path: string, hops: LinkHops = { count: 0 }): Promise<Location> {
    return this.#walk(root, root.handle, [], [...components], path, hops);
  }

  /**
   * Continues a resolution through the symbolic link `location.name`: the location's directory is released and the
   * link's target resolved (confined) in its place. Throws `not_found` when the entry is gone and leaves `location`
   * unchanged (and open) when it is not a link.
   */
  async follow(location: Location, path: string, hops: LinkHops): Promise<Location> {
    if (location.name === null) return location;
    let target: string;
    try {
      target = await readlink(location.dir.child(location.name));
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'EINVAL') return location;
      await location.dir.close();
      throw fromErrno(error, path);
    }
    if (++hops.count > MAX_LINK_HOPS) {
      await location.dir.close();
      throw fail.loop(path);
    }
    if (target.startsWith('/')) {
      await location.dir.close();
      const mapped = this.mapAbsolute(posix.normalize(target));
      if (!mapped) throw fail.outside(path);
      return this.locate(mapped.root, mapped.components, path, hops);
    }
    return this.#walk(location.root, location.dir, [...location.names], splitComponents(target), path, hops);
  }

  /** Closes the location's directory (allowed directories themselves stay open). */
  release(location: Location): Promise<void> {
    return location.dir.close();
  }

  /**
   * Linux: the location's directory must still be inside its allowed directory now (it may have been renamed
   * elsewhere by another process since it was opened). Call right before acting on it.
   */
  async checkStillInside(location: Location, path: string): Promise<void> {
    const now = await currentPathOf(location.dir.file, location.dir.anchoring);
    if (now !== undefined && !isWithin(now, location.root.real)) throw fail.outside(path);
  }

  async #walk(root: PinnedRoot, start: DirHandle, names: string[], queue: string[], path: string, hops: LinkHops): Promise<Location> {
    let dir = start;
    try {
      while (queue.length > 0) {
        const name = queue.shift()!;
        if (name === '.') continue;
        if (name === '..') {
          if (names.length === 0) throw fail.outside(path);
          names.pop();
          const parent = await this.#reopen(root, names, path);
          await dir.close();
          dir = parent;
          continue;
        }
        if (queue.length === 0) return { root, dir, names, name };
        let child: DirHandle;
        try {
          child = await openChildDirectory(dir, name);
        } catch (error) {
          const code = (error as NodeJS.ErrnoException).code;
          if (code !== 'ENOTDIR' && code !== 'ELOOP') throw fromErrno(error, path);
          const target = await readlink(dir.child(name)).catch(() => undefined);
          if (target === undefined) throw fail.notDirectory(path);
          if (++hops.count > MAX_LINK_HOPS) throw fail.loop(path);
          if (target.startsWith('/')) {
            const mapped = this.mapAbsolute(posix.normalize(target));
            if (!mapped) throw fail.outside(path);
            await dir.close();
            dir = mapped.root.handle;
            root = mapped.root;
            names = [];
            queue.unshift(...mapped.components);
          } else {
            queue.unshift(...splitComponents(target));
          }
          continue;
        }
        await dir.close();
        dir = child;
        names.push(name);
      }
      return { root, dir, names, name: null };
    } catch (error) {
      await dir.close();
      throw error instanceof FsError ? error : fromErrno(error, path);
    }
  }

  /** Opens `names` below `root` again, strictly (no links): used to step back up for `..` in a link target. */
  async #reopen(root: PinnedRoot, names: readonly string[], path: string): Promise<DirHandle> {
    let dir = root.handle;
    for (const name of names) {
      try {
        const child = await openChildDirectory(dir, name);
        await dir.close();
        dir = child;
      } catch (error) {
        await dir.close();
        const code = (error as NodeJS.ErrnoException).code;
        if (code === 'ENOTDIR' || code === 'ELOOP') {
          throw new FsError('changed_during_operation', 'The file system changed while the path was resolved; try again');
        }
        throw fromErrno(error, path);
      }
    }
    return dir;
  }
}
