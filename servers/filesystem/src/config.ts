/**
 * What the server runs with: the operator's directories and policies, and the limits every tool works within.
 */
import type { RootsFallback, RootsMode } from './sandbox/roots-policy.js';
import type { WriteMode } from './sandbox/write-ops.js';

/** Caps that keep each call bounded in output, memory and time. */
export interface Limits {
  /** Bytes of text one read returns at most (continue with `offset`). */
  maxReadBytes: number;
  /** Bytes of one tool result at most, all blocks and structured content together (media: before base64). */
  maxResponseBytes: number;
  /** Entries a listing or tree returns at most (a call may ask for fewer). */
  maxEntries: number;
  /** Results a search returns at most (a call may ask for fewer). */
  maxResults: number;
  /** Deepest level a tree or search enters. */
  maxDepth: number;
  /** Entries one walk visits at most, whatever it returns. */
  maxVisited: number;
  /** Entries read from one directory at most. */
  maxDirectoryEntries: number;
  /** Files larger than this are skipped by content search. */
  maxSearchFileBytes: number;
  /** Files larger than this are not edited. */
  maxEditBytes: number;
  /** Wall-clock time of one call; walks return what they found so far, other calls fail. */
  timeBudgetMs: number;
}

/** The defaults: generous for source trees, small enough for a model's context and a client's frame limit. */
export const DEFAULT_LIMITS: Limits = {
  maxReadBytes: 1024 * 1024,
  maxResponseBytes: 4 * 1024 * 1024,
  maxEntries: 10_000,
  maxResults: 5_000,
  maxDepth: 64,
  maxVisited: 200_000,
  maxDirectoryEntries: 100_000,
  maxSearchFileBytes: 8 * 1024 * 1024,
  maxEditBytes: 16 * 1024 * 1024,
  timeBudgetMs: 30_000,
};

/** Entries a listing or tree returns when the call does not say. */
export const DEFAULT_PAGE_ENTRIES = 1_000;
/** Results a search returns when the call does not say. */
export const DEFAULT_SEARCH_RESULTS = 200;

/** The server's configuration. */
export interface FilesystemConfig {
  /** The operator's allowed directories (at least one must be usable). */
  directories: string[];
  /** No tool that changes the disk is offered. */
  readOnly: boolean;
  /** `delete_file` and `delete_directory` are offered (never in read-only mode). */
  allowDelete: boolean;
  /** Deny globs (minimatch). */
  deny: string[];
  /** How client roots combine with the directories. */
  roots: RootsMode;
  /** What a request gets when the client declares roots but cannot list them (an error, no answer in time). */
  rootsFallback: RootsFallback;
  /** Read and replace regular files with more than one hard link. */
  allowHardLinks: boolean;
  /** How existing files are replaced by writes and edits. */
  writeMode: WriteMode;
  limits: Limits;
  /** Directories watched at most for resource subscriptions. */
  maxWatchers: number;
  /** Quiet time before a change is announced, in ms. */
  watchDebounceMs: number;
  /** How long a legacy client may take to answer `roots/list`, in ms. */
  rootsTimeoutMs: number;
}

/** Overrides of {@link defaultConfig}: any field, and any subset of the limits. */
export type ConfigOverrides = Partial<Omit<FilesystemConfig, 'directories' | 'limits'>> & { limits?: Partial<Limits> };

/** A configuration with every default filled in. */
export function defaultConfig(directories: string[], overrides: ConfigOverrides = {}): FilesystemConfig {
  return {
    directories,
    readOnly: false,
    allowDelete: false,
    deny: [],
    roots: 'intersect',
    rootsFallback: 'operator',
    allowHardLinks: false,
    writeMode: 'in-place',
    maxWatchers: 64,
    watchDebounceMs: 100,
    rootsTimeoutMs: 10_000,
    ...overrides,
    limits: { ...DEFAULT_LIMITS, ...overrides.limits },
  };
}
