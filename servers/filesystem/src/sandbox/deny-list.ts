/**
 * The operator's deny globs (`--deny '**\/.env'`): paths inside the allowed directories that no tool may read,
 * write, list, search or reveal. Patterns follow minimatch (the same matcher as the official server's
 * `excludePatterns`); a pattern without `/` matches a name at any depth. A path is denied when it or any of its
 * ancestors matches, so denying a directory denies everything in it. Matching ignores case and Unicode
 * normalization on purpose: on a case-insensitive or normalizing file system `.ENV` or a decomposed name opens the
 * same file as the pattern's spelling, and over-denying is the safe side.
 */
import { Minimatch } from 'minimatch';

const OPTIONS = { dot: true, nocase: true, matchBase: true, nocomment: true, nonegate: true, nobrace: false } as const;

/**
 * A name no real entry has (it holds a NUL). A directory is denied as a whole when a pattern matches this name inside
 * it (`secrets/**`, `**\/build/**`): then the directory itself cannot be listed, moved or deleted either, which
 * would otherwise expose or remove what the pattern protects.
 */
const ANY_CHILD = 'wiremcp\u0000any';

/** A compiled set of deny patterns. */
export class DenyList {
  readonly patterns: readonly string[];
  readonly #relative: Minimatch[];
  readonly #absolute: Minimatch[];

  constructor(patterns: readonly string[]) {
    this.patterns = patterns;
    const compiled = patterns.map((pattern) => new Minimatch(pattern.normalize('NFC'), OPTIONS));
    this.#absolute = compiled.filter((m) => m.pattern.startsWith('/'));
    this.#relative = compiled.filter((m) => !m.pattern.startsWith('/'));
  }

  /** True when there is nothing to deny. */
  get empty(): boolean {
    return this.patterns.length === 0;
  }

  /**
   * True when the entry `names` (components below an allowed directory whose real path is `rootReal`), or any of
   * its ancestors, matches a pattern. Relative patterns match the path below the allowed directory; absolute ones
   * the whole real path.
   */
  denies(rootReal: string, names: readonly string[]): boolean {
    if (this.patterns.length === 0 || names.length === 0) return false;
    let relative = '';
    for (const name of names) {
      relative = relative === '' ? name.normalize('NFC') : `${relative}/${name.normalize('NFC')}`;
      if (this.#matches(rootReal, relative)) return true;
    }
    return false;
  }

  /**
   * `denies` for an entry whose parent is known not to be denied (a directory walk that never enters a denied
   * directory): only the entry itself is tested.
   */
  deniesChild(rootReal: string, names: readonly string[]): boolean {
    if (this.patterns.length === 0 || names.length === 0) return false;
    return this.#matches(rootReal, names.map((name) => name.normalize('NFC')).join('/'));
  }

  #matches(rootReal: string, relative: string): boolean {
    const inside = `${relative}/${ANY_CHILD}`;
    if (this.#relative.some((m) => m.match(relative) || m.match(inside))) return true;
    if (this.#absolute.length === 0) return false;
    const absolute = `${rootReal === '/' ? '' : rootReal}/${relative}`;
    return this.#absolute.some((m) => m.match(absolute) || m.match(`${absolute}/${ANY_CHILD}`));
  }
}
