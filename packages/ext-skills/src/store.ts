/**
 * Where a catalogue's files come from: two operations over relative, `/`-separated paths (`''` is the root). The
 * directory tree of `./node` and the in-memory store here implement it; a store of your own (a database, an object
 * store) only has to follow the same contract.
 */

/** One entry of a directory. `link` and `other` (devices, FIFOs, sockets) are never read or served. */
export interface SkillStoreEntry {
  readonly name: string;
  readonly kind: 'file' | 'directory' | 'link' | 'other';
}

/** Why a store refused a read. */
export type SkillStoreErrorCode = 'not_found' | 'not_a_file' | 'too_large' | 'unreadable';

/** A store's refusal; its message names the relative path only, never where the store lives. */
export class SkillStoreError extends Error {
  constructor(
    readonly code: SkillStoreErrorCode,
    message: string,
  ) {
    super(message);
    this.name = 'SkillStoreError';
  }
}

/** Storage of skill files. */
export interface SkillStore {
  /**
   * The entries of directory `dir`, at most `limit + 1` of them (so an over-full directory is seen without reading
   * it all); throws {@link SkillStoreError} `not_found` when `dir` is not a directory.
   */
  list(dir: string, limit: number): Promise<SkillStoreEntry[]>;
  /**
   * The bytes of regular file `path`; throws {@link SkillStoreError} `too_large` without reading further once it
   * has more than `maxBytes`, `not_a_file` for a link or anything else that is not a regular file.
   */
  read(path: string, maxBytes: number): Promise<Uint8Array>;
}

/**
 * A store over a record of paths (`'refunds/SKILL.md'`) to contents. The record is read on every call, so a catalogue
 * reloaded after the record changed sees the change.
 */
export function memorySkillStore(files: Record<string, string | Uint8Array>): SkillStore {
  const encoder = new TextEncoder();
  const check = (path: string): void => {
    if (path.split('/').some((part) => part === '..' || part === '.')) throw new SkillStoreError('not_found', `no such path: ${path}`);
  };
  return {
    async list(dir, limit) {
      check(dir);
      const prefix = dir === '' ? '' : `${dir}/`;
      const seen = new Map<string, SkillStoreEntry['kind']>();
      for (const path of Object.keys(files)) {
        if (!path.startsWith(prefix)) continue;
        const rest = path.slice(prefix.length);
        const slash = rest.indexOf('/');
        const name = slash < 0 ? rest : rest.slice(0, slash);
        if (name === '') continue;
        seen.set(name, slash < 0 ? 'file' : 'directory');
        if (seen.size > limit) break;
      }
      if (seen.size === 0 && dir !== '') throw new SkillStoreError('not_found', `no such directory: ${dir}`);
      return [...seen].map(([name, kind]) => ({ name, kind }));
    },
    async read(path, maxBytes) {
      check(path);
      const content = Object.hasOwn(files, path) ? files[path] : undefined;
      if (content === undefined) throw new SkillStoreError('not_found', `no such file: ${path}`);
      const bytes = typeof content === 'string' ? encoder.encode(content) : content;
      if (bytes.length > maxBytes) throw new SkillStoreError('too_large', `${path} is larger than ${maxBytes} bytes`);
      return bytes;
    },
  };
}
