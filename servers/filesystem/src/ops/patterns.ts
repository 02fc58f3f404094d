/**
 * Glob matching for the tools' own patterns (minimatch, with dot files matched, as the official server does).
 * A search pattern without `/` matches a name at any depth (`*.ts`); with one it matches the path below the search
 * directory (`src/**\/*.ts`). An exclude pattern without `*` also matches that name at any depth and everything below
 * it (the official directory_tree rule), so `node_modules` leaves out every node_modules directory.
 */
import { Minimatch } from 'minimatch';
import { invalid } from '../tools/results.js';

const MAX_PATTERN_LENGTH = 1024;
const MAX_PATTERNS = 100;

function compile(pattern: unknown, options: { matchBase: boolean }): Minimatch {
  if (typeof pattern !== 'string' || pattern.length === 0) throw invalid('A pattern must be a non-empty string');
  if (pattern.length > MAX_PATTERN_LENGTH) throw invalid(`A pattern is longer than ${MAX_PATTERN_LENGTH} characters`);
  return new Minimatch(pattern, { dot: true, matchBase: options.matchBase, nocomment: true, nonegate: true });
}

/** A search pattern: true when the entry at `relative` matches. */
export function searchMatcher(pattern: unknown): (relative: string) => boolean {
  const matcher = compile(pattern, { matchBase: typeof pattern === 'string' && !pattern.includes('/') });
  return (relative) => matcher.match(relative);
}

/** Exclude patterns: true when the entry at `relative` is excluded. */
export function excludeMatcher(patterns: unknown): (relative: string) => boolean {
  if (patterns === undefined) return () => false;
  if (!Array.isArray(patterns)) throw invalid('excludePatterns must be an array of strings');
  if (patterns.length > MAX_PATTERNS) throw invalid(`At most ${MAX_PATTERNS} patterns`);
  const matchers = patterns.flatMap((pattern: unknown) => {
    const base = compile(pattern, { matchBase: false });
    if ((pattern as string).includes('*')) return [base];
    return [base, compile(`**/${pattern as string}`, { matchBase: false }), compile(`**/${pattern as string}/**`, { matchBase: false })];
  });
  if (matchers.length === 0) return () => false;
  return (relative) => matchers.some((m) => m.match(relative));
}

/** Include globs (content search): true when the entry matches one of them, or when there are none. */
export function includeMatcher(patterns: unknown): (relative: string) => boolean {
  if (patterns === undefined) return () => true;
  if (!Array.isArray(patterns)) throw invalid('include must be an array of strings');
  if (patterns.length > MAX_PATTERNS) throw invalid(`At most ${MAX_PATTERNS} patterns`);
  if (patterns.length === 0) return () => true;
  const matchers = patterns.map((pattern: unknown) =>
    compile(pattern, { matchBase: typeof pattern === 'string' && !pattern.includes('/') }),
  );
  return (relative) => matchers.some((m) => m.match(relative));
}
