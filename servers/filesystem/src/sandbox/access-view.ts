/**
 * What one request may reach: the operator's allowed directories, possibly narrowed by the client's roots. An
 * area is an allowed directory plus a prefix of names below it; a client root can only ever select such a prefix,
 * never add a directory of its own.
 */
import type { Location } from './resolver.js';
import type { PinnedRoot } from './pinned-roots.js';

/** One reachable area: everything below `prefix` inside pinned directory `root`. */
export interface AllowedArea {
  readonly root: PinnedRoot;
  readonly prefix: readonly string[];
  /** The absolute path shown for it (list_allowed_directories, the base of relative paths). */
  readonly display: string;
}

function startsWith(names: readonly string[], prefix: readonly string[]): boolean {
  if (names.length < prefix.length) return false;
  for (let i = 0; i < prefix.length; i++) if (names[i] !== prefix[i]) return false;
  return true;
}

/** The areas a request may reach. */
export class AccessView {
  constructor(
    readonly areas: readonly AllowedArea[],
    /** True when client roots narrowed the operator's directories. */
    readonly narrowed: boolean,
    /** Set when this view is a fallback the client should be told about (its roots could not be listed). */
    readonly notice?: string,
  ) {}

  /** The operator's directories, whole. */
  static of(roots: readonly PinnedRoot[]): AccessView {
    return new AccessView(
      roots.map((root) => ({ root, prefix: [], display: root.given })),
      false,
    );
  }

  /** Where relative paths start: the first area (none when the client's roots select nothing). */
  get base(): string | undefined {
    return this.areas[0]?.display;
  }

  /** True when entry `names` below `root` lies in an area. */
  contains(root: PinnedRoot, names: readonly string[]): boolean {
    return this.areas.some((area) => area.root === root && startsWith(names, area.prefix));
  }

  /** True when a resolved location lies in an area. */
  containsLocation(location: Location): boolean {
    return this.contains(location.root, location.name === null ? location.names : [...location.names, location.name]);
  }
}
