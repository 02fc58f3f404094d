/**
 * list_directory, list_directory_with_sizes, directory_tree, list_allowed_directories. Listings use `lstat`:
 * links are shown as links and nothing about what they point to (not even its size) is revealed; multiply-linked
 * files show no size either (they may be outside). Denied entries are not shown. Listings page with offset/limit;
 * trees stop at a depth and an entry count and say so.
 */
import type { Stats } from 'node:fs';
import { lstat } from 'node:fs/promises';
import type { CallToolResult, McpServer } from '@wiremcp/server';
import { DEFAULT_PAGE_ENTRIES } from '../config.js';
import { GitignoreStack } from '../ops/gitignore.js';
import { excludeMatcher } from '../ops/patterns.js';
import { readEntries, walkDirectory, type EntryKind } from '../ops/walk.js';
import type { DirHandle } from '../sandbox/dir-handle.js';
import { count, formatSize, invalid, kindOfStat, note, ok } from './results.js';
import * as schema from './schemas.js';
import { runTool, throwIfStopped, type CallScope, type ToolServices } from './tool-runtime.js';

const READ_ONLY = { readOnlyHint: true, openWorldHint: false } as const;
const TAGS: Record<EntryKind, string> = { file: '[FILE]', directory: '[DIR]', symlink: '[LINK]', other: '[OTHER]' };

/** A listed entry. */
interface Listed {
  name: string;
  type: EntryKind;
  size?: number;
  modified?: string;
  hardLinks?: number;
}

async function listEntries(
  services: ToolServices,
  scope: CallScope,
  path: string,
  sizes: boolean,
): Promise<{ entries: Listed[]; path: string; overfull: number }> {
  const { sandbox, limits } = services;
  const opened = await sandbox.openDirectory(scope.view, path);
  try {
    const { dir, names, root } = opened.location;
    const { entries, skipped } = await readEntries(dir, limits.maxDirectoryEntries);
    const listed: Listed[] = entries
      .filter((entry) => !sandbox.deny.deniesChild(root.real, [...names, entry.name]))
      .map((entry) => ({ name: entry.name, type: entry.kind }));
    if (sizes) await addSizes(services, scope, dir, listed);
    return { entries: listed, path: opened.path, overfull: skipped };
  } finally {
    await sandbox.release(opened.location);
  }
}

function page(total: number, offset: number | undefined, limit: number | undefined, cap: number): { start: number; end: number } {
  if (limit !== undefined && limit > cap) throw invalid(`limit is above this server's cap of ${cap}`);
  const start = Math.min(offset ?? 0, total);
  return { start, end: Math.min(total, start + (limit ?? Math.min(DEFAULT_PAGE_ENTRIES, cap))) };
}

function pageNote(start: number, end: number, total: number, overfull: number): string | undefined {
  const parts: string[] = [];
  if (end < total) parts.push(`showing entries ${start + 1}-${end} of ${count(total)}; continue with offset=${end}`);
  if (overfull > 0) parts.push(`${count(overfull)} more entries were not read (the directory is larger than this server reads)`);
  return parts.length > 0 ? parts.join('; ') : undefined;
}

async function addSizes(services: ToolServices, scope: CallScope, dir: DirHandle, entries: Listed[]): Promise<void> {
  // lstat through the open directory: never follows a link, so a link's target is never measured.
  for (const entry of entries) {
    throwIfStopped(scope);
    let stat: Stats;
    try {
      stat = await lstat(dir.child(entry.name));
    } catch {
      continue;
    }
    entry.type = kindOfStat(stat);
    if (entry.type === 'symlink') continue;
    if (entry.type === 'file' && stat.nlink > 1 && !services.sandbox.allowHardLinks) {
      entry.hardLinks = stat.nlink;
      continue;
    }
    if (entry.type === 'file') entry.size = stat.size;
    entry.modified = stat.mtime.toISOString();
  }
}

/** Registers the listing tools. */
export function registerListTools(server: McpServer, services: ToolServices, onInternal: (error: unknown) => void): void {
  const { limits } = services;
  server.registerTool(
    {
      name: 'list_directory',
      title: 'List Directory',
      description:
        'Get a listing of the files and directories in a path, sorted by name. Entries are marked [FILE], [DIR], [LINK] (a symbolic ' +
        `link, not followed) or [OTHER]. Up to ${DEFAULT_PAGE_ENTRIES} entries per call by default; continue with offset. Only works within allowed directories.`,
      inputSchema: schema.LIST_INPUT,
      outputSchema: schema.LIST_OUTPUT,
      annotations: READ_ONLY,
    },
    (args: { path: string; offset?: number; limit?: number }, ctx) =>
      runTool(
        services,
        ctx,
        async (scope) => {
          const listed = await listEntries(services, scope, args.path, false);
          const { start, end } = page(listed.entries.length, args.offset, args.limit, limits.maxEntries);
          const shown = listed.entries.slice(start, end);
          const text = shown.map((entry) => `${TAGS[entry.type]} ${entry.name}`).join('\n');
          const message = pageNote(start, end, listed.entries.length, listed.overfull);
          const structured: Record<string, unknown> = {
            path: listed.path,
            entries: shown,
            total: listed.entries.length,
            truncated: end < listed.entries.length,
          };
          if (end < listed.entries.length) structured.nextOffset = end;
          return ok(text, structured, message ? [note(message)] : []);
        },
        onInternal,
      ),
  );

  server.registerTool(
    {
      name: 'list_directory_with_sizes',
      title: 'List Directory with Sizes',
      description:
        'Get a listing of the files and directories in a path, with sizes and totals. Symbolic links are shown as [LINK] without a size ' +
        '(what they point to is not measured). Only works within allowed directories.',
      inputSchema: schema.LIST_SIZES_INPUT,
      outputSchema: schema.LIST_OUTPUT,
      annotations: READ_ONLY,
    },
    (args: { path: string; sortBy?: 'name' | 'size'; offset?: number; limit?: number }, ctx) =>
      runTool(services, ctx, (scope) => listWithSizes(services, scope, args), onInternal),
  );

  server.registerTool(
    {
      name: 'directory_tree',
      title: 'Directory Tree',
      description:
        'Get a recursive tree of files and directories below a path: an indented outline as text, and the tree as structured data ' +
        "({name, type, children} with 'children' on directories). Links are listed, not followed. " +
        `At most ${DEFAULT_PAGE_ENTRIES} entries by default (maxEntries) and maxDepth levels; a cut tree says so. Only works within allowed directories.`,
      inputSchema: schema.TREE_INPUT,
      outputSchema: schema.TREE_OUTPUT,
      annotations: READ_ONLY,
    },
    (args: { path: string; excludePatterns?: string[]; maxDepth?: number; maxEntries?: number; respectGitignore?: boolean }, ctx) =>
      runTool(services, ctx, (scope) => directoryTree(services, scope, args), onInternal),
  );

  server.registerTool(
    {
      name: 'list_allowed_directories',
      title: 'List Allowed Directories',
      description:
        'Returns the list of directories that this server is allowed to access (narrowed by the client’s roots when it has them). ' +
        'Subdirectories within these allowed directories are also accessible.',
      inputSchema: { type: 'object', properties: {} },
      outputSchema: schema.ALLOWED_OUTPUT,
      annotations: READ_ONLY,
    },
    (_args, ctx) =>
      runTool(
        services,
        ctx,
        async (scope) => {
          const directories = scope.view.areas.map((area) => area.display);
          const text =
            directories.length > 0
              ? `Allowed directories:\n${directories.join('\n')}`
              : 'Allowed directories: none (the client’s roots exclude every directory of this server)';
          return ok(text, { directories, narrowedByClientRoots: scope.view.narrowed });
        },
        onInternal,
      ),
  );
}

async function listWithSizes(
  services: ToolServices,
  scope: CallScope,
  args: { path: string; sortBy?: 'name' | 'size'; offset?: number; limit?: number },
): Promise<CallToolResult> {
  const listed = await listEntries(services, scope, args.path, true);
  const entries = listed.entries;
  if (args.sortBy === 'size') entries.sort((a, b) => (b.size ?? 0) - (a.size ?? 0));
  const { start, end } = page(entries.length, args.offset, args.limit, services.limits.maxEntries);
  const shown = entries.slice(start, end);
  const lines = shown.map((entry) => {
    const size = entry.size !== undefined ? formatSize(entry.size).padStart(10) : entry.hardLinks ? '(hard link)'.padStart(10) : '';
    return `${TAGS[entry.type]} ${entry.name.padEnd(30)} ${size}`.trimEnd();
  });
  const totals = {
    files: entries.filter((e) => e.type === 'file').length,
    directories: entries.filter((e) => e.type === 'directory').length,
    bytes: entries.reduce((sum, e) => sum + (e.size ?? 0), 0),
  };
  lines.push('', `Total: ${totals.files} files, ${totals.directories} directories`, `Combined size: ${formatSize(totals.bytes)}`);
  const message = pageNote(start, end, entries.length, listed.overfull);
  const structured: Record<string, unknown> = {
    path: listed.path,
    entries: shown,
    total: entries.length,
    truncated: end < entries.length,
    totals,
  };
  if (end < entries.length) structured.nextOffset = end;
  return ok(lines.join('\n'), structured, message ? [note(message)] : []);
}

/** A node of the tree. */
interface TreeNode {
  name: string;
  type: EntryKind;
  children?: TreeNode[];
}

async function directoryTree(
  services: ToolServices,
  scope: CallScope,
  args: { path: string; excludePatterns?: string[]; maxDepth?: number; maxEntries?: number; respectGitignore?: boolean },
): Promise<CallToolResult> {
  const { sandbox, limits } = services;
  if (args.maxEntries !== undefined && args.maxEntries > limits.maxEntries)
    throw invalid(`maxEntries is above this server's cap of ${limits.maxEntries}`);
  const maxEntries = args.maxEntries ?? Math.min(DEFAULT_PAGE_ENTRIES, limits.maxEntries);
  const maxDepth = Math.min(args.maxDepth ?? limits.maxDepth, limits.maxDepth);
  const excluded = excludeMatcher(args.excludePatterns);
  const gitignore = args.respectGitignore ? new GitignoreStack() : undefined;
  const budgetBytes = Math.floor(limits.maxResponseBytes / 2);
  const opened = await sandbox.openDirectory(scope.view, args.path);
  const tree: TreeNode[] = [];
  const outline: string[] = [];
  const stack: TreeNode[][] = [tree];
  let entries = 0;
  let bytes = 0;
  let full = false;
  let outcome;
  try {
    outcome = await walkDirectory(
      sandbox,
      opened.location,
      (entry) => {
        if (excluded(entry.relative) || gitignore?.ignores(entry.relative, entry.kind === 'directory')) return 'skip';
        if (entries >= maxEntries || bytes >= budgetBytes) {
          full = true;
          return 'stop';
        }
        entries++;
        const node: TreeNode = { name: entry.name, type: entry.kind };
        stack.length = entry.depth;
        stack[entry.depth - 1]!.push(node);
        const suffix = entry.kind === 'directory' ? '/' : entry.kind === 'symlink' ? ' (symlink)' : '';
        const line = `${'  '.repeat(entry.depth - 1)}${entry.name}${suffix}`;
        outline.push(line);
        bytes += 2 * line.length + 40;
        if (entry.kind === 'directory') {
          node.children = [];
          stack[entry.depth] = node.children;
        }
        return undefined;
      },
      { maxDepth, maxVisited: limits.maxVisited, maxDirectoryEntries: limits.maxDirectoryEntries, signal: scope.signal },
      gitignore ? { enter: (dir, relative) => gitignore.enter(dir, relative), leave: (relative) => gitignore.leave(relative) } : {},
    );
  } finally {
    await sandbox.release(opened.location);
  }
  if (outcome.stoppedBy === 'signal' && !scope.budgetSpent()) throwIfStopped(scope);
  const stoppedBy = full
    ? entries >= maxEntries
      ? 'maxEntries'
      : 'maxResponseBytes'
    : outcome.stoppedBy === 'signal'
      ? 'timeBudget'
      : outcome.stoppedBy === 'visited'
        ? 'maxVisited'
        : undefined;
  const notes: string[] = [];
  if (stoppedBy)
    notes.push(`truncated after ${count(entries)} entries (${stoppedBy}); narrow the path, lower maxDepth or add excludePatterns`);
  if (outcome.depthLimited) notes.push(`directories at depth ${maxDepth} were not entered (maxDepth)`);
  const structured: Record<string, unknown> = { path: opened.path, tree, entries, truncated: stoppedBy !== undefined };
  if (outcome.depthLimited) structured.depthLimited = true;
  if (stoppedBy) structured.stoppedBy = stoppedBy;
  return ok(outline.join('\n'), structured, notes.length > 0 ? [note(notes.join('; '))] : []);
}
