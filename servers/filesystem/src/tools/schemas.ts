/**
 * JSON Schemas of the tools' arguments and structured results. Argument names and types are the official
 * server's (hosts and prompts depend on them); the additions are optional. Unknown arguments are accepted, as the
 * official server accepts them.
 */
import type { JsonSchema, ToolDefinition } from '@wiremcp/server';

/** A tool's input schema: an object schema (the spec requires `type: "object"` at its root). */
type ObjectSchema = ToolDefinition['inputSchema'];

const path = { type: 'string', description: 'Absolute path, or relative to the first allowed directory' } as const;
const integer = (description: string, minimum = 0): JsonSchema => ({ type: 'integer', minimum, description });
const globs = (description: string): JsonSchema => ({ type: 'array', items: { type: 'string' }, description });

/** An object schema. */
export function object(properties: Record<string, JsonSchema>, required: string[] = []): ObjectSchema {
  return required.length === 0 ? { type: 'object', properties } : { type: 'object', properties, required };
}

/** Arguments of read_text_file and read_file. */
export const READ_TEXT_INPUT = object(
  {
    path,
    head: integer('If provided, returns only the first N lines of the file'),
    tail: integer('If provided, returns only the last N lines of the file'),
    offset: integer('Byte offset to start reading at (continue a cut read with the nextOffset it returned)'),
    length: integer('Bytes to read at most (the server caps it)', 1),
    startLine: integer('First line to read (1-based)', 1),
    endLine: integer('Last line to read (1-based, inclusive)', 1),
  },
  ['path'],
);

/** Arguments of tools taking one path. */
export const PATH_INPUT = object({ path }, ['path']);

/** Arguments of read_multiple_files. */
export const READ_MULTIPLE_INPUT = object(
  {
    paths: {
      type: 'array',
      items: { type: 'string' },
      minItems: 1,
      maxItems: 1000,
      description: 'Array of file paths to read. Each path must be a string pointing to a valid file within allowed directories.',
    },
  },
  ['paths'],
);

/** Arguments of write_file. */
export const WRITE_INPUT = object({ path, content: { type: 'string' } }, ['path', 'content']);

/** Arguments of edit_file. */
export const EDIT_INPUT = object(
  {
    path,
    edits: {
      type: 'array',
      items: object(
        {
          oldText: { type: 'string', description: 'Text to search for - must match exactly' },
          newText: { type: 'string', description: 'Text to replace with' },
        },
        ['oldText', 'newText'],
      ),
    },
    dryRun: { type: 'boolean', default: false, description: 'Preview changes using git-style diff format' },
  },
  ['path', 'edits'],
);

/** Arguments of list_directory. */
export const LIST_INPUT = object(
  {
    path,
    offset: integer('Entries to skip (continue a cut listing with the nextOffset it returned)'),
    limit: integer('Entries to return at most (the server caps it)', 1),
  },
  ['path'],
);

/** Arguments of list_directory_with_sizes. */
export const LIST_SIZES_INPUT = object(
  {
    path,
    sortBy: { type: 'string', enum: ['name', 'size'], default: 'name', description: 'Sort entries by name or size' },
    offset: integer('Entries to skip (continue a cut listing with the nextOffset it returned)'),
    limit: integer('Entries to return at most (the server caps it)', 1),
  },
  ['path'],
);

/** Arguments of directory_tree. */
export const TREE_INPUT = object(
  {
    path,
    excludePatterns: { ...globs('Glob patterns of entries to leave out'), default: [] },
    maxDepth: integer('Deepest level to include (1 = the directory’s own entries)', 1),
    maxEntries: integer('Entries to include at most (the server caps it)', 1),
    respectGitignore: { type: 'boolean', default: false, description: 'Leave out what .gitignore files ignore, and .git' },
  },
  ['path'],
);

/** Arguments of move_file and copy_file. */
export const MOVE_INPUT = object({ source: { type: 'string' }, destination: { type: 'string' } }, ['source', 'destination']);

/** Arguments of copy_file. */
export const COPY_INPUT = object(
  {
    source: { type: 'string' },
    destination: { type: 'string' },
    overwrite: { type: 'boolean', default: false, description: 'Replace an existing destination file' },
  },
  ['source', 'destination'],
);

/** Arguments of search_files. */
export const SEARCH_INPUT = object(
  {
    path,
    pattern: { type: 'string', description: 'Glob; without a "/" it matches names at any depth (*.ts), with one the path below `path`' },
    excludePatterns: { ...globs('Glob patterns of entries to leave out'), default: [] },
    maxResults: integer('Results to return at most (the server caps it)', 1),
    respectGitignore: { type: 'boolean', default: false, description: 'Leave out what .gitignore files ignore, and .git' },
  },
  ['path', 'pattern'],
);

/** Arguments of search_file_contents. */
export const GREP_INPUT = object(
  {
    path,
    pattern: { type: 'string', minLength: 1, description: 'A JavaScript regular expression, or literal text with literal: true' },
    literal: { type: 'boolean', default: false, description: 'Match the pattern as plain text' },
    caseSensitive: { type: 'boolean', default: true },
    include: globs('Only files matching one of these globs (*.ts, src/**); default: every file'),
    excludePatterns: { ...globs('Glob patterns of entries to leave out'), default: [] },
    contextLines: { type: 'integer', minimum: 0, maximum: 10, default: 0, description: 'Lines of context around each match' },
    maxResults: integer('Matching lines to return at most (the server caps it)', 1),
    respectGitignore: { type: 'boolean', default: true, description: 'Leave out what .gitignore files ignore, and .git' },
  },
  ['path', 'pattern'],
);

/** Arguments of delete_directory. */
export const DELETE_DIRECTORY_INPUT = object(
  { path, recursive: { type: 'boolean', default: false, description: 'Delete the contents too (otherwise it must be empty)' } },
  ['path'],
);

const isoTime = { type: 'string', description: 'ISO 8601' } as const;
const entryType = { type: 'string', enum: ['file', 'directory', 'symlink', 'other'] } as const;

/** A stat object (get_file_info). */
export const FILE_INFO_OUTPUT = object(
  {
    path: { type: 'string' },
    type: entryType,
    size: { type: 'integer' },
    created: isoTime,
    modified: isoTime,
    accessed: isoTime,
    permissions: { type: 'string', description: 'The last three octal digits of the mode, as the official server gives them' },
    mode: { type: 'integer' },
    isDirectory: { type: 'boolean' },
    isFile: { type: 'boolean' },
    viaSymlink: { type: 'boolean', description: 'The path was a link to this entry' },
  },
  ['path', 'type', 'size', 'modified', 'permissions', 'isDirectory', 'isFile'],
);

/** A text read's metadata (the text itself is the content block). */
export const READ_TEXT_OUTPUT = object(
  {
    path: { type: 'string' },
    size: { type: 'integer' },
    offset: { type: 'integer' },
    bytes: { type: 'integer' },
    truncated: { type: 'boolean' },
    nextOffset: { type: 'integer' },
    startLine: { type: 'integer' },
    endLine: { type: 'integer' },
    nextLine: { type: 'integer' },
    bom: { type: 'boolean' },
    lineEnding: { type: 'string', enum: ['lf', 'crlf', 'mixed', 'none'] },
  },
  ['path', 'size', 'offset', 'bytes', 'truncated'],
);

const listEntry = object(
  { name: { type: 'string' }, type: entryType, size: { type: 'integer' }, modified: isoTime, hardLinks: { type: 'integer' } },
  ['name', 'type'],
);

/** A listing. */
export const LIST_OUTPUT = object(
  {
    path: { type: 'string' },
    entries: { type: 'array', items: listEntry },
    total: { type: 'integer', description: 'Entries in the directory (after deny patterns)' },
    truncated: { type: 'boolean' },
    nextOffset: { type: 'integer' },
    totals: object({ files: { type: 'integer' }, directories: { type: 'integer' }, bytes: { type: 'integer' } }),
  },
  ['path', 'entries', 'total', 'truncated'],
);

const treeNode = object({ name: { type: 'string' }, type: entryType, children: { type: 'array', items: { type: 'object' } } }, [
  'name',
  'type',
]);

/** A tree. */
export const TREE_OUTPUT = object(
  {
    path: { type: 'string' },
    tree: { type: 'array', items: treeNode },
    entries: { type: 'integer' },
    truncated: { type: 'boolean' },
    depthLimited: { type: 'boolean', description: 'Directories at maxDepth were not entered' },
    stoppedBy: { type: 'string', description: 'Why the walk ended early, if it did' },
  },
  ['path', 'tree', 'entries', 'truncated'],
);

/** search_files results. */
export const SEARCH_OUTPUT = object(
  {
    path: { type: 'string' },
    matches: { type: 'array', items: object({ path: { type: 'string' }, type: entryType }, ['path', 'type']) },
    truncated: { type: 'boolean' },
    stoppedBy: { type: 'string' },
    visited: { type: 'integer' },
  },
  ['path', 'matches', 'truncated'],
);

/** search_file_contents results. */
export const GREP_OUTPUT = object(
  {
    path: { type: 'string' },
    matches: {
      type: 'array',
      items: object(
        {
          path: { type: 'string' },
          line: { type: 'integer' },
          text: { type: 'string' },
          before: { type: 'array', items: { type: 'string' } },
          after: { type: 'array', items: { type: 'string' } },
        },
        ['path', 'line', 'text'],
      ),
    },
    filesSearched: { type: 'integer' },
    filesMatched: { type: 'integer' },
    truncated: { type: 'boolean' },
    stoppedBy: { type: 'string' },
    skipped: object({
      binary: { type: 'integer' },
      tooLarge: { type: 'integer' },
      hardLinks: { type: 'integer' },
      unreadable: { type: 'integer' },
    }),
  },
  ['path', 'matches', 'filesSearched', 'filesMatched', 'truncated'],
);

/** read_multiple_files results (the texts are in the content block). */
export const READ_MULTIPLE_OUTPUT = object(
  {
    files: {
      type: 'array',
      items: object(
        {
          path: { type: 'string' },
          ok: { type: 'boolean' },
          size: { type: 'integer' },
          bytes: { type: 'integer' },
          truncated: { type: 'boolean' },
          nextOffset: { type: 'integer' },
          error: object({ code: { type: 'string' }, message: { type: 'string' } }, ['code', 'message']),
        },
        ['path', 'ok'],
      ),
    },
    truncated: { type: 'boolean', description: 'The response size limit left files out' },
  },
  ['files', 'truncated'],
);

/** read_media_file metadata. */
export const MEDIA_OUTPUT = object({ path: { type: 'string' }, mimeType: { type: 'string' }, size: { type: 'integer' } }, [
  'path',
  'mimeType',
  'size',
]);

/** write_file results. */
export const WRITE_OUTPUT = object(
  {
    path: { type: 'string' },
    bytes: { type: 'integer' },
    created: { type: 'boolean' },
    mode: { type: 'string', enum: ['in-place', 'atomic'] },
  },
  ['path', 'bytes', 'created'],
);

/** edit_file results (the diff is the content block). */
export const EDIT_OUTPUT = object(
  {
    path: { type: 'string' },
    dryRun: { type: 'boolean' },
    changed: { type: 'boolean' },
    written: { type: 'boolean' },
    applied: {
      type: 'array',
      items: object(
        {
          line: { type: 'integer' },
          method: { type: 'string', enum: ['exact', 'whitespace-insensitive'] },
          occurrences: { type: 'integer' },
        },
        ['line', 'method', 'occurrences'],
      ),
    },
    lineEnding: { type: 'string', enum: ['lf', 'crlf', 'mixed', 'none'] },
    normalizedTo: { type: 'string', enum: ['lf', 'crlf'] },
    bom: { type: 'boolean' },
  },
  ['path', 'dryRun', 'changed', 'written', 'applied', 'lineEnding', 'bom'],
);

/** Results of tools that change one entry. */
export const CHANGE_OUTPUT = object(
  {
    path: { type: 'string' },
    source: { type: 'string' },
    destination: { type: 'string' },
    type: entryType,
    created: { type: 'boolean' },
    bytes: { type: 'integer' },
    removed: object({ files: { type: 'integer' }, directories: { type: 'integer' } }),
  },
  [],
);

/** list_allowed_directories results. */
export const ALLOWED_OUTPUT = object(
  {
    directories: { type: 'array', items: { type: 'string' } },
    narrowedByClientRoots: { type: 'boolean' },
  },
  ['directories', 'narrowedByClientRoots'],
);
