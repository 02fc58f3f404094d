/**
 * The one gate between tools and the disk. Every path goes: client text → lexical absolute path → an allowed
 * directory and the components below it (refused when none, when outside the request's areas, or denied by a
 * pattern) → resolution from the pinned directory (`Resolver`) → checks on the resolved place (area and deny
 * patterns again, on the real names; still inside after opening; regular file; hard links) → the operation, on
 * the open file or directory. Errors name the client's path only.
 */
import type { Stats } from 'node:fs';
import { lstat, open, type FileHandle } from 'node:fs/promises';
import { AccessView } from './access-view.js';
import { DirHandle, OPEN_FLAGS, checkParentStill, checkSameEntry, currentPathOf, openChildDirectory } from './dir-handle.js';
import type { DenyList } from './deny-list.js';
import { FsError, fail, fromErrno } from './errors.js';
import { absoluteClientPath } from './client-path.js';
import type { PinnedRoot, PinnedRoots } from './pinned-roots.js';
import { Resolver, isWithin, type LinkHops, type Location } from './resolver.js';

/** Options of the sandbox. */
export interface SandboxOptions {
  /** Read regular files that have more than one hard link (default false: refused, one link may be outside). */
  allowHardLinks?: boolean;
}

/** A client path mapped to an allowed directory, before resolution. */
export interface Target {
  readonly root: PinnedRoot;
  readonly components: readonly string[];
  /** The client's text, for messages. */
  readonly path: string;
}

/** A regular file opened for reading, with the location it was found at (release both with `closeFile`). */
export interface OpenedFile {
  readonly file: FileHandle;
  readonly stat: Stats;
  readonly location: Location;
  readonly path: string;
}

/** A directory opened for listing. */
export interface OpenedDirectory {
  readonly location: Location & { name: null };
  readonly path: string;
}

/** An entry located without following a link in the last position, with its `lstat` (undefined when missing). */
export interface LocatedEntry {
  readonly location: Location & { name: string };
  readonly stat: Stats | undefined;
  readonly path: string;
}

/** `locateEntry` with `allowRoot`: the location may be an allowed directory itself (`name` null). */
export interface LocatedAny {
  readonly location: Location;
  readonly stat: Stats | undefined;
  readonly path: string;
}

/** The sandbox of one server: pinned directories, deny patterns, hard-link policy. */
export class Sandbox {
  readonly resolver: Resolver;
  readonly allowHardLinks: boolean;

  constructor(
    readonly pinned: PinnedRoots,
    readonly deny: DenyList,
    options: SandboxOptions = {},
  ) {
    this.resolver = new Resolver(pinned);
    this.allowHardLinks = options.allowHardLinks === true;
  }

  /** The operator's whole directories (no client narrowing). */
  get operatorView(): AccessView {
    return AccessView.of(this.pinned.roots);
  }

  /** Maps client text to an allowed directory; refuses what is outside the view or denied, before any I/O. */
  target(view: AccessView, input: unknown): Target {
    const base = view.base ?? this.pinned.roots[0]?.given ?? '/';
    const absolute = absoluteClientPath(input, base);
    const path = typeof input === 'string' ? input : absolute;
    const mapped = this.resolver.mapAbsolute(absolute);
    if (!mapped || !view.contains(mapped.root, mapped.components)) throw fail.outside(path);
    if (this.deny.denies(mapped.root.real, mapped.components)) throw fail.denied(path);
    return { root: mapped.root, components: mapped.components, path };
  }

  /** The checks on a resolved place: inside the request's areas, not denied. */
  check(view: AccessView, location: Location, path: string): void {
    if (!view.containsLocation(location)) throw fail.outside(path);
    const names = location.name === null ? location.names : [...location.names, location.name];
    if (this.deny.denies(location.root.real, names)) throw fail.denied(path);
  }

  /** Refuses a multiply-linked regular file unless the operator allowed them. */
  checkLinks(stat: Stats, path: string): void {
    if (!this.allowHardLinks && stat.isFile() && stat.nlink > 1) throw fail.hardLink(path, stat.nlink);
  }

  /**
   * Opens a regular file for reading, following links confined. Refuses directories, FIFOs, devices and sockets, and
   * multiply-linked files (policy). The opened file's identity is checked after opening (Linux: where the kernel
   * says it is must be inside its allowed directory).
   */
  async openFile(view: AccessView, input: unknown): Promise<OpenedFile> {
    const target = this.target(view, input);
    const hops: LinkHops = { count: 0 };
    let location = await this.resolver.locate(target.root, target.components, target.path, hops);
    let file: FileHandle | undefined;
    try {
      for (;;) {
        this.check(view, location, target.path);
        if (location.name === null) throw fail.isDirectory(target.path);
        try {
          file = await open(location.dir.child(location.name), OPEN_FLAGS.read);
          break;
        } catch (error) {
          if ((error as NodeJS.ErrnoException).code !== 'ELOOP') throw fromErrno(error, target.path);
          location = await this.resolver.follow(location, target.path, hops);
        }
      }
      if (location.dir.anchoring === 'path') {
        await checkSameEntry(file, location.dir.child(location.name));
        await checkParentStill(location.dir);
      }
      const now = await currentPathOf(file, location.dir.anchoring);
      if (now !== undefined && !isWithin(now, location.root.real)) throw fail.outside(target.path);
      const stat = await file.stat();
      if (stat.isDirectory()) throw fail.isDirectory(target.path);
      if (!stat.isFile()) throw fail.notFile(target.path);
      this.checkLinks(stat, target.path);
      return { file, stat, location, path: target.path };
    } catch (error) {
      await file?.close().catch(() => {});
      await this.resolver.release(location);
      throw error instanceof FsError ? error : fromErrno(error, target.path);
    }
  }

  /** Closes what `openFile` opened. */
  async closeFile(opened: OpenedFile): Promise<void> {
    await opened.file.close().catch(() => {});
    await this.resolver.release(opened.location);
  }

  /** Opens a directory (following links confined). Release with `release`. */
  async openDirectory(view: AccessView, input: unknown): Promise<OpenedDirectory> {
    const target = this.target(view, input);
    const hops: LinkHops = { count: 0 };
    let location = await this.resolver.locate(target.root, target.components, target.path, hops);
    try {
      while (location.name !== null) {
        this.check(view, location, target.path);
        try {
          const child = await openChildDirectory(location.dir, location.name);
          await location.dir.close();
          location = { root: location.root, dir: child, names: [...location.names, location.name], name: null };
        } catch (error) {
          const code = (error as NodeJS.ErrnoException).code;
          if (code !== 'ENOTDIR' && code !== 'ELOOP') throw fromErrno(error, target.path);
          const followed = await this.resolver.follow(location, target.path, hops);
          if (followed === location) throw fail.notDirectory(target.path);
          location = followed;
        }
      }
      this.check(view, location, target.path);
      await this.resolver.checkStillInside(location, target.path);
      return { location: location as Location & { name: null }, path: target.path };
    } catch (error) {
      await this.resolver.release(location);
      throw error instanceof FsError ? error : fromErrno(error, target.path);
    }
  }

  /**
   * Locates an entry for an operation on the entry itself (stat, delete, move, create): the last component is not
   * followed unless `follow` is set, in which case links are followed (confined) to the entry they name, existing
   * or not. The allowed directory itself is refused: tools never replace, move or delete it.
   */
  locateEntry(view: AccessView, input: unknown, options: { follow: boolean }): Promise<LocatedEntry>;
  locateEntry(view: AccessView, input: unknown, options: { follow: boolean; allowRoot: true }): Promise<LocatedAny>;
  async locateEntry(view: AccessView, input: unknown, options: { follow: boolean; allowRoot?: boolean }): Promise<LocatedAny> {
    const target = this.target(view, input);
    const hops: LinkHops = { count: 0 };
    let location = await this.resolver.locate(target.root, target.components, target.path, hops);
    try {
      for (;;) {
        this.check(view, location, target.path);
        if (location.name === null) {
          if (!options.allowRoot) throw new FsError('invalid_arguments', `Not possible on an allowed directory itself: ${target.path}`);
          return { location, stat: await location.dir.file.stat(), path: target.path };
        }
        let stat: Stats | undefined;
        try {
          stat = await lstat(location.dir.child(location.name));
        } catch (error) {
          if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw fromErrno(error, target.path);
        }
        if (options.follow && stat?.isSymbolicLink()) {
          location = await this.resolver.follow(location, target.path, hops);
          continue;
        }
        await this.resolver.checkStillInside(location, target.path);
        return { location, stat, path: target.path };
      }
    } catch (error) {
      await this.resolver.release(location);
      throw error instanceof FsError ? error : fromErrno(error, target.path);
    }
  }

  /** Releases a location. */
  release(location: Location): Promise<void> {
    return this.resolver.release(location);
  }

  /** Opens directory entry `name` of `dir` for a walk (no link following). */
  openChild(dir: DirHandle, name: string): Promise<DirHandle> {
    return openChildDirectory(dir, name);
  }
}
