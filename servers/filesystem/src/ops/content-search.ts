/**
 * search_file_contents, the main thread's half: check the query, hand the opened start directory to a search
 * thread (content-search-worker.ts), collect its matches as they come, and stop it when the call's time budget is
 * spent or the call is cancelled. The start directory stays open until the thread has its own descriptor of it; a
 * stopped thread's descriptors are closed from the shared table it kept.
 */
import { fileURLToPath } from 'node:url';
import { Worker } from 'node:worker_threads';
import type { Limits } from '../config.js';
import type { Location } from '../sandbox/resolver.js';
import type { Sandbox } from '../sandbox/sandbox.js';
import { invalid } from '../tools/results.js';
import type { LineMatch, SearchCounts, SearchMessage, SearchSetup } from './content-search-worker.js';
import { excludeMatcher, includeMatcher } from './patterns.js';

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

/** What a search found. */
export interface ContentResults extends SearchCounts {
  matches: LineMatch[];
  truncated: boolean;
  stoppedBy: 'maxResults' | 'timeBudget' | 'maxVisited' | 'maxResponseBytes' | undefined;
}

const STOP_GRACE_MS = 1000;
let liveWorkers = 0;

/** Search threads running now, in this process (they end with their search, on its budget or cancellation). */
export function liveMatchWorkers(): number {
  return liveWorkers;
}

/** The compiled thread next to this module (run from the sources, tests use the built one). */
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

/** Searches the files below `start` (an opened directory, released by the caller after this resolves). */
export async function searchContents(
  sandbox: Sandbox,
  start: Location & { name: null },
  query: ContentQuery,
  limits: Limits,
  signal: AbortSignal,
): Promise<ContentResults> {
  const { source, flags } = compilePattern(query);
  // Checked here so that a bad glob is an argument error, not a thread failure.
  includeMatcher(query.include);
  excludeMatcher(query.excludePatterns);
  const setup: SearchSetup = {
    startPath: start.dir.base,
    anchoring: start.dir.anchoring,
    rootReal: start.root.real,
    startNames: [...start.names],
    deny: [...sandbox.deny.patterns],
    allowHardLinks: sandbox.allowHardLinks,
    source,
    flags,
    include: query.include,
    exclude: query.excludePatterns,
    respectGitignore: query.respectGitignore,
    contextLines: query.contextLines,
    maxResults: query.maxResults,
    maxDepth: limits.maxDepth,
    maxVisited: limits.maxVisited,
    maxDirectoryEntries: limits.maxDirectoryEntries,
    maxFileBytes: limits.maxSearchFileBytes,
  };
  const results: ContentResults = {
    matches: [],
    filesSearched: 0,
    filesMatched: 0,
    visited: 0,
    skipped: { binary: 0, tooLarge: 0, hardLinks: 0, unreadable: 0 },
    truncated: false,
    stoppedBy: undefined,
  };
  // trackUnmanagedFds: the descriptors the thread opened are closed when it exits, also when it is terminated.
  const worker = new Worker(fileURLToPath(workerUrl()), { workerData: setup, trackUnmanagedFds: true });
  liveWorkers++;
  const exited = new Promise<void>((resolve) =>
    worker.once('exit', () => {
      liveWorkers--;
      resolve();
    }),
  );
  let ready = false;
  const finished = new Promise<void>((resolve, reject) => {
    worker.on('message', (message: SearchMessage) => {
      if (message.type === 'ready') ready = true;
      else if (message.type === 'matches') results.matches.push(...message.matches);
      else {
        Object.assign(results, message.counts);
        results.stoppedBy = message.stoppedBy;
        resolve();
      }
    });
    worker.once('error', reject);
    worker.once('exit', () => resolve());
    signal.addEventListener('abort', () => resolve(), { once: true });
  });
  try {
    await finished;
  } finally {
    void worker.terminate();
    // Until the thread has its own descriptor of the start directory it must be gone before the caller closes ours
    // (a reused descriptor number would point it elsewhere). After that, do not wait long for a thread stuck in a
    // system call: its descriptors are closed when it exits.
    if (!ready) await exited;
    else await Promise.race([exited, new Promise((resolve) => setTimeout(resolve, STOP_GRACE_MS).unref())]);
  }
  if (signal.aborted) results.stoppedBy = 'timeBudget';
  if (results.matches.length > query.maxResults) results.matches.length = query.maxResults;
  if (results.stoppedBy) results.truncated = true;
  return results;
}
