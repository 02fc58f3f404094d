/**
 * search_file_contents runs here, in a worker thread, with synchronous I/O: a regular expression from a client can
 * take exponential time on some lines, and only a thread can be stopped in the middle of one; and a walk of 20,000
 * files costs a tenth of the CPU with sync calls than through the thread pool, without blocking the server's event
 * loop. The confinement is the main thread's: it resolved and opened the start directory; this thread opens its
 * own descriptor of it through `/proc/self/fd` and never leaves it — each directory and file is opened relative to its
 * parent's descriptor without following links, deny patterns hide entries, links are never entered. Descriptors this
 * thread opens are closed by Node when the thread exits (`trackUnmanagedFds`), also when it is terminated.
 */
import { closeSync, fstatSync, lstatSync, openSync, opendirSync, readdirSync, readSync, type Dirent } from 'node:fs';
import { parentPort, workerData } from 'node:worker_threads';
import { DenyList } from '../sandbox/deny-list.js';
import { OPEN_FLAGS, type Anchoring } from '../sandbox/dir-handle.js';
import { GitignoreStack } from './gitignore.js';
import { excludeMatcher, includeMatcher } from './patterns.js';
import { binaryReason } from './text-format.js';

/** What the thread is started with. */
export interface SearchSetup {
  /** The start directory as the main thread opened it (`/proc/self/fd/<fd>`, or its real path). */
  startPath: string;
  anchoring: Anchoring;
  /** Real path of the allowed directory and the names below it to the start directory (for deny patterns). */
  rootReal: string;
  startNames: string[];
  deny: string[];
  allowHardLinks: boolean;
  source: string;
  flags: string;
  include?: string[];
  exclude?: string[];
  respectGitignore: boolean;
  contextLines: number;
  maxResults: number;
  maxDepth: number;
  maxVisited: number;
  maxDirectoryEntries: number;
  maxFileBytes: number;
}

/** One matching line, with its path below the start directory. */
export interface LineMatch {
  relative: string;
  line: number;
  text: string;
  before?: string[];
  after?: string[];
}

/** Counters of a search. */
export interface SearchCounts {
  filesSearched: number;
  filesMatched: number;
  visited: number;
  skipped: { binary: number; tooLarge: number; hardLinks: number; unreadable: number };
}

/** Messages from the thread: ready; matches found so far; the end. */
export type SearchMessage =
  | { type: 'ready' }
  | { type: 'matches'; matches: LineMatch[] }
  | { type: 'done'; counts: SearchCounts; stoppedBy: 'maxResults' | 'maxVisited' | undefined; overfull: number };

const SHOWN = 500;
const MAX_LINE = 10_000;
const ONE_CALL_DIRECTORY_BYTES = 1024 * 1024;

function clip(line: string): string {
  return line.length > SHOWN ? `${line.slice(0, SHOWN)}…` : line;
}

type Kind = 'file' | 'directory' | 'other';

function kindOf(base: string, entry: Dirent): Kind {
  if (entry.isFile()) return 'file';
  if (entry.isDirectory()) return 'directory';
  if (entry.isSymbolicLink() || entry.isFIFO() || entry.isSocket() || entry.isBlockDevice() || entry.isCharacterDevice()) return 'other';
  try {
    const stat = lstatSync(`${base}/${entry.name}`);
    return stat.isFile() ? 'file' : stat.isDirectory() ? 'directory' : 'other';
  } catch {
    return 'other';
  }
}

function readNames(fd: number, base: string, cap: number): { entries: Array<{ name: string; kind: Kind }>; skipped: number } {
  const entries: Array<{ name: string; kind: Kind }> = [];
  let skipped = 0;
  if (fstatSync(fd).size <= ONE_CALL_DIRECTORY_BYTES) {
    const all = readdirSync(base, { withFileTypes: true });
    skipped = Math.max(0, all.length - cap);
    for (const entry of all.slice(0, cap)) entries.push({ name: entry.name, kind: kindOf(base, entry) });
  } else {
    const dir = opendirSync(base, { bufferSize: 256 });
    try {
      for (let entry = dir.readSync(); entry !== null; entry = dir.readSync()) {
        if (entries.length >= cap) skipped++;
        else entries.push({ name: entry.name, kind: kindOf(base, entry) });
      }
    } finally {
      dir.closeSync();
    }
  }
  entries.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  return { entries, skipped };
}

/** Runs one search; `post` receives the thread's messages. Exported for tests; the thread entry calls it. */
export function runSearch(setup: SearchSetup, post: (message: SearchMessage) => void): void {
  const regex = new RegExp(setup.source, setup.flags);
  const deny = new DenyList(setup.deny);
  const included = includeMatcher(setup.include);
  const excluded = excludeMatcher(setup.exclude);
  const gitignore = setup.respectGitignore ? new GitignoreStack() : undefined;
  const decoder = new TextDecoder('utf-8');
  const counts: SearchCounts = {
    filesSearched: 0,
    filesMatched: 0,
    visited: 0,
    skipped: { binary: 0, tooLarge: 0, hardLinks: 0, unreadable: 0 },
  };
  let found = 0;
  let overfull = 0;
  let stoppedBy: 'maxResults' | 'maxVisited' | undefined;
  let pending: LineMatch[] = [];
  const flush = (): void => {
    if (pending.length === 0) return;
    post({ type: 'matches', matches: pending });
    pending = [];
  };
  const pathOf = (fd: number, realPath: string): string => (setup.anchoring === 'proc-fd' ? `/proc/self/fd/${fd}` : realPath);

  const searchFile = (base: string, name: string, relative: string): void => {
    let fd: number;
    try {
      fd = openSync(`${base}/${name}`, OPEN_FLAGS.read);
    } catch {
      counts.skipped.unreadable++;
      return;
    }
    let data: Buffer;
    try {
      const stat = fstatSync(fd);
      if (!stat.isFile()) return;
      if (stat.nlink > 1 && !setup.allowHardLinks) {
        counts.skipped.hardLinks++;
        return;
      }
      if (stat.size > setup.maxFileBytes) {
        counts.skipped.tooLarge++;
        return;
      }
      data = Buffer.allocUnsafe(stat.size);
      let length = 0;
      while (length < data.length) {
        const read = readSync(fd, data, length, data.length - length, length);
        if (read === 0) break;
        length += read;
      }
      data = data.subarray(0, length);
    } catch {
      counts.skipped.unreadable++;
      return;
    } finally {
      closeSync(fd);
    }
    if (binaryReason(data)) {
      counts.skipped.binary++;
      return;
    }
    counts.filesSearched++;
    const lines = decoder.decode(data).split('\n');
    if (lines[lines.length - 1] === '') lines.pop();
    let matched = false;
    for (let i = 0; i < lines.length && found < setup.maxResults; i++) {
      let line = lines[i]!;
      if (line.endsWith('\r')) line = line.slice(0, -1);
      if (!regex.test(line.length > MAX_LINE ? line.slice(0, MAX_LINE) : line)) continue;
      matched = true;
      found++;
      const match: LineMatch = { relative, line: i + 1, text: clip(line) };
      if (setup.contextLines > 0) {
        match.before = lines.slice(Math.max(0, i - setup.contextLines), i).map((l) => clip(l.replace(/\r$/, '')));
        match.after = lines.slice(i + 1, i + 1 + setup.contextLines).map((l) => clip(l.replace(/\r$/, '')));
      }
      pending.push(match);
    }
    if (matched) counts.filesMatched++;
    if (pending.length >= 100) flush();
  };

  const walk = (fd: number, realPath: string, names: string[], relative: string, depth: number): boolean => {
    const base = pathOf(fd, realPath);
    gitignore?.enterSync(base, relative);
    try {
      let listing;
      try {
        listing = readNames(fd, base, setup.maxDirectoryEntries);
      } catch (error) {
        if (depth === 1) throw error;
        return true;
      }
      overfull += listing.skipped;
      for (const { name, kind } of listing.entries) {
        const entryNames = [...names, name];
        if (deny.deniesChild(setup.rootReal, entryNames)) continue;
        if (counts.visited >= setup.maxVisited) {
          stoppedBy = 'maxVisited';
          return false;
        }
        counts.visited++;
        const entryRelative = relative === '' ? name : `${relative}/${name}`;
        if (excluded(entryRelative) || gitignore?.ignores(entryRelative, kind === 'directory')) continue;
        if (kind === 'file') {
          if (included(entryRelative)) searchFile(base, name, entryRelative);
          if (found >= setup.maxResults) {
            stoppedBy = 'maxResults';
            return false;
          }
        } else if (kind === 'directory' && depth < setup.maxDepth) {
          let child: number;
          try {
            child = openSync(`${base}/${name}`, OPEN_FLAGS.directory);
          } catch {
            continue; // Gone, replaced by a link, or unreadable: not entered.
          }
          try {
            if (!walk(child, `${realPath}/${name}`, entryNames, entryRelative, depth + 1)) return false;
          } finally {
            closeSync(child);
          }
        }
      }
      return true;
    } finally {
      gitignore?.leave(relative);
      flush();
    }
  };

  // `/.` so that the magic link /proc/self/fd/<fd> is followed (it is not the last component).
  const start = openSync(`${setup.startPath}/.`, OPEN_FLAGS.directory);
  post({ type: 'ready' });
  try {
    walk(start, setup.startPath, setup.startNames, '', 1);
  } finally {
    closeSync(start);
  }
  flush();
  post({ type: 'done', counts, stoppedBy, overfull });
}

if (parentPort) {
  const port = parentPort;
  runSearch(workerData as SearchSetup, (message) => port.postMessage(message));
}
