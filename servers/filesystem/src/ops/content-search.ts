/**
 * search_file_contents: a grep over the files below a directory. The walk (confined, bounded, `.gitignore`-aware)
 * and the reads happen here, file by file through open directories; matching runs in a worker thread that is
 * terminated when the call's time budget is spent, so no pattern can hang the server. Files that are binary, too
 * large, multiply linked or unreadable are skipped and counted.
 */
import { open } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { Worker } from 'node:worker_threads';
import type { Limits } from '../config.js';
import { OPEN_FLAGS } from '../sandbox/dir-handle.js';
import type { Location } from '../sandbox/resolver.js';
import type { Sandbox } from '../sandbox/sandbox.js';
import { invalid } from '../tools/results.js';
import type { LineMatch, MatchResponse, MatcherSetup } from './content-search-worker.js';
import { GitignoreStack } from './gitignore.js';
import { excludeMatcher, includeMatcher } from './patterns.js';
import { binaryReason } from './text-format.js';
import { walkDirectory, type WalkOutcome } from './walk.js';

/** What to search for. */
export interface ContentQuery {
  pattern: string;
  literal: boolean;
  caseSensitive: boolean;
  include?: string[];
  excludePatterns?: string[];
  contextLines: number;
  maxResults: number;
  respectGitignore: boolean;
}

/** One match, with the path relative to the searched directory. */
export interface ContentMatch extends LineMatch {
  relative: string;
}

/** What a search found. */
export interface ContentResults {
  matches: ContentMatch[];
  filesSearched: number;
  filesMatched: number;
  truncated: boolean;
  stoppedBy: 'maxResults' | 'timeBudget' | 'maxVisited' | 'maxResponseBytes' | undefined;
  skipped: { binary: number; tooLarge: number; hardLinks: number; unreadable: number };
  walk: WalkOutcome | undefined;
}

const IN_FLIGHT = 4;

let liveWorkers = 0;

/** Matching threads running now, in this process (they end with their search, on its budget or cancellation). */
export function liveMatchWorkers(): number {
  return liveWorkers;
}

/** The compiled worker next to this module (from the sources, tests use the built one). */
function workerUrl(): URL {
  return import.meta.url.endsWith('.ts')
    ? new URL('../../dist/ops/content-search-worker.js', import.meta.url)
    : new URL('./content-search-worker.js', import.meta.url);
}

/** The regular expression's source and flags, checked (compiling does not run it). */
export function compilePattern(query: Pick<ContentQuery, 'pattern' | 'literal' | 'caseSensitive'>): { source: string; flags: string } {
  if (typeof query.pattern !== 'string' || query.pattern.length === 0) throw invalid('pattern must be a non-empty string');
  if (query.pattern.length > 4096) throw invalid('pattern is longer than 4096 characters');
  const source = query.literal ? query.pattern.replace(/[.*+?^${}()|[\]\\]/g, '\\$&') : query.pattern;
  const flags = query.caseSensitive ? 'u' : 'iu';
  try {
    new RegExp(source, flags);
  } catch (error) {
    throw invalid(`Invalid regular expression: ${(error as Error).message.slice(0, 200)}`);
  }
  return { source, flags };
}

/** Searches the files below `start` (an opened directory). */
export async function searchContents(
  sandbox: Sandbox,
  start: Location & { name: null },
  query: ContentQuery,
  limits: Limits,
  signal: AbortSignal,
): Promise<ContentResults> {
  const { source, flags } = compilePattern(query);
  const included = includeMatcher(query.include);
  const excluded = excludeMatcher(query.excludePatterns);
  const gitignore = query.respectGitignore ? new GitignoreStack() : undefined;
  const setup: MatcherSetup = {
    source,
    flags,
    contextLines: query.contextLines,
    maxMatchesPerFile: query.maxResults,
    maxLineLength: 10_000,
  };
  const worker = new Worker(fileURLToPath(workerUrl()), { workerData: setup });
  liveWorkers++;
  worker.once('exit', () => liveWorkers--);
  const results: ContentResults = {
    matches: [],
    filesSearched: 0,
    filesMatched: 0,
    truncated: false,
    stoppedBy: undefined,
    skipped: { binary: 0, tooLarge: 0, hardLinks: 0, unreadable: 0 },
    walk: undefined,
  };
  const pending = new Map<number, string>();
  const byFile: Array<ContentMatch[] | undefined> = [];
  let found = 0;
  let failure: Error | undefined;
  // The walk is sequential, so at most one wait is in progress at a time.
  let wake: (() => void) | undefined;
  const notify = (): void => {
    const resolve = wake;
    wake = undefined;
    resolve?.();
  };
  const waitUntil = async (done: () => boolean): Promise<void> => {
    while (!done() && !signal.aborted && !failure) await new Promise<void>((resolve) => (wake = resolve));
  };
  worker.on('message', (response: MatchResponse) => {
    const relative = pending.get(response.id);
    if (relative === undefined) return;
    pending.delete(response.id);
    if (response.matches.length > 0) {
      results.filesMatched++;
      byFile[response.id] = response.matches.map((match) => ({ ...match, relative }));
      found += response.matches.length;
    }
    if (response.more) results.truncated = true;
    notify();
  });
  worker.on('error', (error) => {
    failure ??= error;
    notify();
  });
  const onAbort = (): void => {
    void worker.terminate();
    notify();
  };
  signal.addEventListener('abort', onAbort, { once: true });
  let nextId = 0;
  try {
    results.walk = await walkDirectory(
      sandbox,
      start,
      async (entry) => {
        if (failure || found >= query.maxResults) return 'stop';
        if (excluded(entry.relative) || gitignore?.ignores(entry.relative, entry.kind === 'directory')) return 'skip';
        if (entry.kind !== 'file' || !included(entry.relative)) return undefined;
        let data: Buffer;
        try {
          const file = await open(entry.parent.child(entry.name), OPEN_FLAGS.read);
          try {
            const stat = await file.stat();
            if (!stat.isFile()) return undefined;
            if (stat.nlink > 1 && !sandbox.allowHardLinks) {
              results.skipped.hardLinks++;
              return undefined;
            }
            if (stat.size > limits.maxSearchFileBytes) {
              results.skipped.tooLarge++;
              return undefined;
            }
            data = await file.readFile();
          } finally {
            await file.close();
          }
        } catch {
          results.skipped.unreadable++;
          return undefined;
        }
        if (binaryReason(data)) {
          results.skipped.binary++;
          return undefined;
        }
        results.filesSearched++;
        await waitUntil(() => pending.size < IN_FLIGHT);
        if (signal.aborted || failure) return 'stop';
        const id = nextId++;
        pending.set(id, entry.relative);
        // Hand the bytes over without a copy when they own their buffer.
        const own = data.byteOffset === 0 && data.byteLength === data.buffer.byteLength;
        worker.postMessage({ id, data }, own ? [data.buffer as ArrayBuffer] : []);
        return undefined;
      },
      { maxDepth: limits.maxDepth, maxVisited: limits.maxVisited, maxDirectoryEntries: limits.maxDirectoryEntries, signal },
      gitignore ? { enter: (dir, relative) => gitignore.enter(dir, relative), leave: (relative) => gitignore.leave(relative) } : {},
    );
    await waitUntil(() => pending.size === 0);
  } finally {
    signal.removeEventListener('abort', onAbort);
    await worker.terminate();
  }
  if (failure) throw failure;
  for (const matches of byFile) if (matches) results.matches.push(...matches);
  if (results.matches.length > query.maxResults) {
    results.matches.length = query.maxResults;
    results.truncated = true;
  }
  if (signal.aborted) results.stoppedBy = 'timeBudget';
  else if (found >= query.maxResults) results.stoppedBy = 'maxResults';
  else if (results.walk?.stoppedBy === 'visited') results.stoppedBy = 'maxVisited';
  if (results.stoppedBy) results.truncated = true;
  return results;
}
