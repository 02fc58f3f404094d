/**
 * `.gitignore` awareness for walks (the `ignore` package implements git's pattern rules). Each directory's
 * `.gitignore` is read when the walk enters it — through the open directory, without following a link, at most
 * 256 KiB, single-linked — and applies to the paths below it; a deeper file's rules win over a shallower one's.
 * `.git` itself is always left out. Both an async loader (tool walks) and a sync one (the content-search thread).
 */
import { closeSync, fstatSync, openSync, readSync } from 'node:fs';
import { open } from 'node:fs/promises';
import ignore, { type Ignore } from 'ignore';
import { OPEN_FLAGS, type DirHandle } from '../sandbox/dir-handle.js';

const MAX_GITIGNORE_BYTES = 256 * 1024;

/** The `.gitignore` rules in force at one point of a walk. */
export class GitignoreStack {
  readonly #levels: Array<{ relative: string; rules: Ignore }> = [];

  /** Loads the `.gitignore` of the directory `dir` (at `relative` below the walk's start), if it has one. */
  async enter(dir: DirHandle, relative: string): Promise<void> {
    let text: string | undefined;
    try {
      const file = await open(dir.child('.gitignore'), OPEN_FLAGS.read);
      try {
        const stat = await file.stat();
        if (stat.isFile() && stat.size <= MAX_GITIGNORE_BYTES && stat.nlink === 1) text = await file.readFile('utf8');
      } finally {
        await file.close();
      }
    } catch {
      // No .gitignore (or a link, or unreadable): nothing to add.
    }
    this.#push(relative, text);
  }

  /** `enter` for a directory whose entries are reached through `base` (sync, for a worker thread). */
  enterSync(base: string, relative: string): void {
    let text: string | undefined;
    let fd: number | undefined;
    try {
      fd = openSync(`${base}/.gitignore`, OPEN_FLAGS.read);
      const stat = fstatSync(fd);
      if (stat.isFile() && stat.size <= MAX_GITIGNORE_BYTES && stat.nlink === 1) {
        const buffer = Buffer.allocUnsafe(stat.size);
        const length = readSync(fd, buffer, 0, stat.size, 0);
        text = buffer.subarray(0, length).toString('utf8');
      }
    } catch {
      // No .gitignore (or a link, or unreadable): nothing to add.
    } finally {
      if (fd !== undefined) closeSync(fd);
    }
    this.#push(relative, text);
  }

  #push(relative: string, text: string | undefined): void {
    if (text !== undefined) this.#levels.push({ relative, rules: ignore({ allowRelativePaths: true }).add(text) });
  }

  /** Leaves the directory at `relative`. */
  leave(relative: string): void {
    const top = this.#levels[this.#levels.length - 1];
    if (top && top.relative === relative) this.#levels.pop();
  }

  /** True when the entry at `relative` (a directory when `directory`) is ignored. */
  ignores(relative: string, directory: boolean): boolean {
    const name = relative.slice(relative.lastIndexOf('/') + 1);
    if (name === '.git' && directory) return true;
    for (let i = this.#levels.length - 1; i >= 0; i--) {
      const level = this.#levels[i]!;
      const below = level.relative === '' ? relative : relative.slice(level.relative.length + 1);
      const result = level.rules.test(directory ? `${below}/` : below);
      if (result.ignored) return true;
      if (result.unignored) return false;
    }
    return false;
  }
}
