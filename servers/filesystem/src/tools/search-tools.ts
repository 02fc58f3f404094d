/**
 * search_files (names and paths, by glob) and search_file_contents (a grep). Both walk below a directory through
 * open directories, never follow links, never show denied entries, stop at a result cap, a visit cap or the time
 * budget, and say what stopped them. Paths in results are the client's path joined with the path below it.
 */
import type { CallToolResult, McpServer } from '@wiremcp/server';
import { DEFAULT_SEARCH_RESULTS } from '../config.js';
import { searchContents, type ContentQuery } from '../ops/content-search.js';
import { GitignoreStack } from '../ops/gitignore.js';
import { excludeMatcher, searchMatcher } from '../ops/patterns.js';
import { walkDirectory, type EntryKind } from '../ops/walk.js';
import { absoluteClientPath } from '../sandbox/client-path.js';
import { count, invalid, note, ok } from './results.js';
import * as schema from './schemas.js';
import { runTool, throwIfStopped, type CallScope, type ToolServices } from './tool-runtime.js';

const READ_ONLY = { readOnlyHint: true, openWorldHint: false } as const;
const SKIP_WORDS: Record<string, string> = {
  binary: 'binary',
  tooLarge: 'too large',
  hardLinks: 'with several hard links',
  unreadable: 'unreadable',
};

function resultCap(services: ToolServices, asked: number | undefined): number {
  const cap = services.limits.maxResults;
  if (asked !== undefined && asked > cap) throw invalid(`maxResults is above this server's cap of ${cap}`);
  return asked ?? Math.min(DEFAULT_SEARCH_RESULTS, cap);
}

function joinPath(base: string, relative: string): string {
  return base.endsWith('/') ? `${base}${relative}` : `${base}/${relative}`;
}

/** Registers the search tools. */
export function registerSearchTools(server: McpServer, services: ToolServices, onInternal: (error: unknown) => void): void {
  server.registerTool(
    {
      name: 'search_files',
      title: 'Search Files',
      description:
        'Recursively search for files and directories whose name or path matches a glob. A pattern without "/" matches names at any ' +
        "depth ('*.ts', 'README*'); with one it matches the path below 'path' ('src/**/*.test.ts'). Searches names only; use " +
        `search_file_contents to search inside files. Returns full paths, at most ${DEFAULT_SEARCH_RESULTS} by default (maxResults). ` +
        'Only searches within allowed directories.',
      inputSchema: schema.SEARCH_INPUT,
      outputSchema: schema.SEARCH_OUTPUT,
      annotations: READ_ONLY,
    },
    (args: { path: string; pattern: string; excludePatterns?: string[]; maxResults?: number; respectGitignore?: boolean }, ctx) =>
      runTool(services, ctx, (scope) => searchFiles(services, scope, args), onInternal),
  );

  server.registerTool(
    {
      name: 'search_file_contents',
      title: 'Search File Contents',
      description:
        'Search inside text files below a path for a regular expression (or literal text), like grep: returns matching lines with ' +
        'their file path and line number, optionally with context lines. Skips binary files, files ignored by .gitignore (unless ' +
        `respectGitignore is false) and .git; 'include' limits it to some globs. At most ${DEFAULT_SEARCH_RESULTS} matching lines by ` +
        'default (maxResults). Only searches within allowed directories.',
      inputSchema: schema.GREP_INPUT,
      outputSchema: schema.GREP_OUTPUT,
      annotations: READ_ONLY,
    },
    (args: Partial<ContentQuery> & { path: string; pattern: string }, ctx) =>
      runTool(services, ctx, (scope) => grep(services, scope, args), onInternal),
  );
}

async function searchFiles(
  services: ToolServices,
  scope: CallScope,
  args: { path: string; pattern: string; excludePatterns?: string[]; maxResults?: number; respectGitignore?: boolean },
): Promise<CallToolResult> {
  const { sandbox, limits } = services;
  const maxResults = resultCap(services, args.maxResults);
  const matches = searchMatcher(args.pattern);
  const excluded = excludeMatcher(args.excludePatterns);
  const gitignore = args.respectGitignore ? new GitignoreStack() : undefined;
  const opened = await sandbox.openDirectory(scope.view, args.path);
  const base = absoluteClientPath(args.path, scope.view.base ?? '/');
  const found: Array<{ path: string; type: EntryKind }> = [];
  let full = false;
  let outcome;
  try {
    outcome = await walkDirectory(
      sandbox,
      opened.location,
      (entry) => {
        if (excluded(entry.relative) || gitignore?.ignores(entry.relative, entry.kind === 'directory')) return 'skip';
        if (!matches(entry.relative)) return undefined;
        if (found.length >= maxResults) {
          full = true;
          return 'stop';
        }
        found.push({ path: joinPath(base, entry.relative), type: entry.kind });
        return undefined;
      },
      { maxDepth: limits.maxDepth, maxVisited: limits.maxVisited, maxDirectoryEntries: limits.maxDirectoryEntries, signal: scope.signal },
      gitignore ? { enter: (dir, relative) => gitignore.enter(dir, relative), leave: (relative) => gitignore.leave(relative) } : {},
    );
  } finally {
    await sandbox.release(opened.location);
  }
  if (outcome.stoppedBy === 'signal' && !scope.budgetSpent()) throwIfStopped(scope);
  const stoppedBy = full
    ? 'maxResults'
    : outcome.stoppedBy === 'signal'
      ? 'timeBudget'
      : outcome.stoppedBy === 'visited'
        ? 'maxVisited'
        : undefined;
  const structured: Record<string, unknown> = {
    path: opened.path,
    matches: found,
    truncated: stoppedBy !== undefined,
    visited: outcome.visited,
  };
  if (stoppedBy) structured.stoppedBy = stoppedBy;
  const text = found.length > 0 ? found.map((match) => match.path).join('\n') : 'No matches found';
  const notes = stoppedBy
    ? [
        note(
          `stopped after ${count(found.length)} results (${stoppedBy}, ${count(outcome.visited)} entries visited); narrow the path or pattern`,
        ),
      ]
    : [];
  return ok(text, structured, notes);
}

async function grep(
  services: ToolServices,
  scope: CallScope,
  args: Partial<ContentQuery> & { path: string; pattern: string },
): Promise<CallToolResult> {
  const { sandbox, limits } = services;
  const query: ContentQuery = {
    pattern: args.pattern,
    literal: args.literal === true,
    caseSensitive: args.caseSensitive !== false,
    include: args.include,
    excludePatterns: args.excludePatterns,
    contextLines: args.contextLines ?? 0,
    maxResults: resultCap(services, args.maxResults),
    respectGitignore: args.respectGitignore !== false,
  };
  const opened = await sandbox.openDirectory(scope.view, args.path);
  let results;
  try {
    results = await searchContents(sandbox, opened.location, query, limits, scope.signal);
  } finally {
    await sandbox.release(opened.location);
  }
  if (scope.signal.aborted && !scope.budgetSpent()) throwIfStopped(scope);
  const base = absoluteClientPath(args.path, scope.view.base ?? '/');
  const lines: string[] = [];
  const matches: Array<Record<string, unknown>> = [];
  // Text and structured content each get half of the response limit.
  const budget = Math.floor(limits.maxResponseBytes / 2);
  let used = 0;
  for (const match of results.matches) {
    const path = joinPath(base, match.relative);
    const size =
      (path.length + 16) * (1 + (match.before?.length ?? 0) + (match.after?.length ?? 0)) +
      match.text.length +
      [...(match.before ?? []), ...(match.after ?? [])].reduce((sum, text) => sum + text.length, 0);
    if (used + size > budget) {
      results.truncated = true;
      results.stoppedBy ??= 'maxResponseBytes';
      break;
    }
    used += size;
    if (lines.length > 0 && query.contextLines > 0) lines.push('--');
    const first = match.line - (match.before?.length ?? 0);
    match.before?.forEach((text, i) => lines.push(`${path}-${first + i}-${text}`));
    lines.push(`${path}:${match.line}:${match.text}`);
    match.after?.forEach((text, i) => lines.push(`${path}-${match.line + 1 + i}-${text}`));
    const entry: Record<string, unknown> = { path, line: match.line, text: match.text };
    if (match.before) entry.before = match.before;
    if (match.after) entry.after = match.after;
    matches.push(entry);
  }
  const structured: Record<string, unknown> = {
    path: opened.path,
    matches,
    filesSearched: results.filesSearched,
    filesMatched: results.filesMatched,
    truncated: results.truncated,
    skipped: results.skipped,
  };
  if (results.stoppedBy) structured.stoppedBy = results.stoppedBy;
  const skipped = Object.entries(results.skipped).filter(([, n]) => n > 0);
  const summary =
    `${count(matches.length)} matching line${matches.length === 1 ? '' : 's'} in ${count(results.filesMatched)} of ${count(results.filesSearched)} files searched` +
    (skipped.length > 0 ? `; skipped ${skipped.map(([why, n]) => `${n} ${SKIP_WORDS[why] ?? why}`).join(', ')}` : '') +
    (results.stoppedBy ? `; stopped early (${results.stoppedBy}): narrow the path, pattern or include globs` : '');
  return ok(lines.length > 0 ? lines.join('\n') : 'No matches found', structured, [note(summary)]);
}
