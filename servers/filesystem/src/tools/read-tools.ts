/**
 * read_text_file (and its deprecated alias read_file), read_media_file, read_multiple_files, get_file_info.
 * Every read is capped and says where to continue; binary files are refused on the text path.
 */
import type { CallToolResult, ContentBlock, HandlerContext, McpServer } from '@wiremcp/server';
import { pathToFileURL } from 'node:url';
import type { Limits } from '../config.js';
import { readLines, readRange, readTail, sniffText, type TextSlice } from '../ops/read-text.js';
import { lineEndingOf } from '../ops/text-format.js';
import { mimeTypeOf } from '../ops/mime-types.js';
import type { AccessView } from '../sandbox/access-view.js';
import { absoluteClientPath } from '../sandbox/client-path.js';
import { FsError } from '../sandbox/errors.js';
import { count, fileInfo, invalid, note, ok, utf8Length } from './results.js';
import * as schema from './schemas.js';
import { runTool, throwIfStopped, type CallScope, type ToolServices } from './tool-runtime.js';

const READ_ONLY = { readOnlyHint: true, openWorldHint: false } as const;

/** Arguments of the text read. */
interface ReadArgs {
  path: string;
  head?: number;
  tail?: number;
  offset?: number;
  length?: number;
  startLine?: number;
  endLine?: number;
}

/** Reads the slice the arguments ask for, from the file `input` names. */
export async function readTextSlice(
  services: ToolServices,
  scope: CallScope,
  view: AccessView,
  args: ReadArgs,
  cap: number,
): Promise<TextSlice & { path: string }> {
  const { head, tail, offset, length, startLine, endLine } = args;
  if (head !== undefined && tail !== undefined) throw invalid('Cannot specify both head and tail parameters simultaneously');
  const modes = [
    head !== undefined,
    tail !== undefined,
    offset !== undefined || length !== undefined,
    startLine !== undefined || endLine !== undefined,
  ];
  if (modes.filter(Boolean).length > 1) throw invalid('Use one way to choose a part: head, tail, offset/length, or startLine/endLine');
  if (startLine !== undefined && endLine !== undefined && endLine < startLine) throw invalid('endLine is before startLine');
  const { sandbox } = services;
  const opened = await sandbox.openFile(view, args.path);
  try {
    const { file, stat } = opened;
    const bom = await sniffText(file, stat.size, opened.path);
    throwIfStopped(scope);
    let slice: TextSlice;
    if (head !== undefined) slice = await readLines(file, stat.size, bom, 1, head === 0 ? 0 : head, cap, scope.signal);
    else if (tail !== undefined) slice = await readTail(file, stat.size, bom, tail, cap);
    else if (startLine !== undefined || endLine !== undefined)
      slice = await readLines(file, stat.size, bom, startLine ?? 1, endLine, cap, scope.signal);
    else slice = await readRange(file, stat.size, bom, offset, length, cap);
    return { ...slice, path: opened.path };
  } finally {
    await sandbox.closeFile(opened);
  }
}

/** The note for a slice that does not reach the end of the file, if any. */
export function sliceNote(slice: TextSlice, cap: number): string | undefined {
  const range = `bytes ${count(slice.offset)}-${count(slice.offset + slice.bytes)} of ${count(slice.size)}`;
  if (slice.startLine !== undefined && slice.nextLine !== undefined) {
    return `${slice.truncated ? `truncated at the ${count(cap)}-byte read limit` : 'more lines follow'}: returned lines ${slice.startLine}-${slice.endLine} (${range}); continue with startLine=${slice.nextLine}`;
  }
  if (slice.nextOffset !== undefined) {
    return `${slice.truncated ? `truncated at the ${count(cap)}-byte read limit` : 'more follows'}: returned ${range}; continue with offset=${slice.nextOffset}`;
  }
  if (slice.truncated)
    return `truncated at the ${count(cap)}-byte read limit: returned the last ${range}; read earlier parts with offset and length`;
  return undefined;
}

function sliceResult(slice: TextSlice & { path: string }, cap: number): CallToolResult {
  const structured: Record<string, unknown> = {
    path: slice.path,
    size: slice.size,
    offset: slice.offset,
    bytes: slice.bytes,
    truncated: slice.truncated,
  };
  for (const key of ['nextOffset', 'startLine', 'endLine', 'nextLine'] as const) if (slice[key] !== undefined) structured[key] = slice[key];
  structured.bom = slice.bom;
  structured.lineEnding = lineEndingOf(slice.text);
  const message = sliceNote(slice, cap);
  return ok(slice.text, structured, message ? [note(message)] : []);
}

/** Registers the read tools. */
export function registerReadTools(server: McpServer, services: ToolServices, onInternal: (error: unknown) => void): void {
  const { limits } = services;
  const readText = (args: ReadArgs, ctx: HandlerContext) =>
    runTool(
      services,
      ctx,
      async (scope) => sliceResult(await readTextSlice(services, scope, scope.view, args, limits.maxReadBytes), limits.maxReadBytes),
      onInternal,
    );
  const readDescription =
    'Read a text file (UTF-8). Returns at most ' +
    `${count(limits.maxReadBytes)} bytes per call; a cut read says where to continue (offset, or startLine for line reads). ` +
    "Use 'head' or 'tail' for the first or last N lines, 'startLine'/'endLine' for a line range, or 'offset'/'length' for bytes. " +
    'Binary files are refused (use read_media_file). Only works within allowed directories.';
  server.registerTool(
    {
      name: 'read_file',
      title: 'Read File (Deprecated)',
      description: `DEPRECATED: use read_text_file. ${readDescription}`,
      inputSchema: schema.READ_TEXT_INPUT,
      outputSchema: schema.READ_TEXT_OUTPUT,
      annotations: READ_ONLY,
    },
    readText,
  );
  server.registerTool(
    {
      name: 'read_text_file',
      title: 'Read Text File',
      description: readDescription,
      inputSchema: schema.READ_TEXT_INPUT,
      outputSchema: schema.READ_TEXT_OUTPUT,
      annotations: READ_ONLY,
    },
    readText,
  );

  const mediaCap = Math.floor((limits.maxResponseBytes * 3) / 4);
  server.registerTool(
    {
      name: 'read_media_file',
      title: 'Read Media File',
      description:
        'Read a file and return it as a base64-encoded content block with its MIME type. Image and audio files are returned as ' +
        `image/audio content; any other file type as an embedded resource. Files up to ${count(mediaCap)} bytes. Only works within allowed directories.`,
      inputSchema: schema.PATH_INPUT,
      outputSchema: schema.MEDIA_OUTPUT,
      annotations: READ_ONLY,
    },
    (args: { path: string }, ctx) =>
      runTool(
        services,
        ctx,
        async (scope) => {
          const opened = await services.sandbox.openFile(scope.view, args.path);
          let data: Buffer;
          try {
            if (opened.stat.size > mediaCap) {
              throw new FsError(
                'too_large',
                `File too large to return (${count(opened.stat.size)} bytes, limit ${count(mediaCap)}): ${opened.path}`,
              );
            }
            data = await opened.file.readFile();
          } finally {
            await services.sandbox.closeFile(opened);
          }
          const mimeType = mimeTypeOf(opened.location.name ?? '');
          const base64 = data.toString('base64');
          const block: ContentBlock = mimeType.startsWith('image/')
            ? { type: 'image', data: base64, mimeType }
            : mimeType.startsWith('audio/')
              ? { type: 'audio', data: base64, mimeType }
              : { type: 'resource', resource: { uri: pathToFileURL(absoluteOf(scope.view, opened.path)).href, mimeType, blob: base64 } };
          return { content: [block], structuredContent: { path: opened.path, mimeType, size: data.length } };
        },
        onInternal,
      ),
  );

  server.registerTool(
    {
      name: 'read_multiple_files',
      title: 'Read Multiple Files',
      description:
        "Read several text files at once. Each file's content is returned with its path as a reference; a failed read does not stop the " +
        `others. Each file is capped at ${count(limits.maxReadBytes)} bytes and the whole answer at ${count(limits.maxResponseBytes)}. Only works within allowed directories.`,
      inputSchema: schema.READ_MULTIPLE_INPUT,
      outputSchema: schema.READ_MULTIPLE_OUTPUT,
      annotations: READ_ONLY,
    },
    (args: { paths: string[] }, ctx) => runTool(services, ctx, (scope) => readMultiple(services, scope, args.paths, limits), onInternal),
  );

  server.registerTool(
    {
      name: 'get_file_info',
      title: 'Get File Info',
      description:
        'Retrieve metadata about a file or directory: type, size, creation, modification and access times (ISO 8601), permissions. ' +
        'Links are followed within the allowed directories. Only works within allowed directories.',
      inputSchema: schema.PATH_INPUT,
      outputSchema: schema.FILE_INFO_OUTPUT,
      annotations: READ_ONLY,
    },
    (args: { path: string }, ctx) =>
      runTool(
        services,
        ctx,
        async (scope) => {
          const { sandbox } = services;
          const own = await sandbox.locateEntry(scope.view, args.path, { follow: false, allowRoot: true });
          await sandbox.release(own.location);
          const found = await sandbox.locateEntry(scope.view, args.path, { follow: true, allowRoot: true });
          await sandbox.release(found.location);
          if (!found.stat) throw new FsError('not_found', `No such file or directory: ${found.path}`);
          sandbox.checkLinks(found.stat, found.path);
          const info = fileInfo(found.path, found.stat, own.stat?.isSymbolicLink() === true);
          return ok(
            Object.entries(info)
              .map(([key, value]) => `${key}: ${String(value)}`)
              .join('\n'),
            info,
          );
        },
        onInternal,
      ),
  );
}

/** The lexical absolute form of a client path (for URIs in results; never a real path). */
export function absoluteOf(view: AccessView, path: string): string {
  return absoluteClientPath(path, view.base ?? '/');
}

async function readMultiple(services: ToolServices, scope: CallScope, paths: string[], limits: Limits): Promise<CallToolResult> {
  const parts: string[] = [];
  const files: Array<Record<string, unknown>> = [];
  let used = 0;
  let truncated = false;
  for (const path of paths) {
    const remaining = limits.maxResponseBytes - used;
    if (truncated || remaining < 1024 || scope.signal.aborted) {
      truncated = true;
      files.push({
        path,
        ok: false,
        error: { code: 'too_large', message: 'Left out: the response size limit was reached; read it separately' },
      });
      parts.push(`${path}: Error - left out: the response size limit was reached; read it separately`);
      continue;
    }
    try {
      const cap = Math.min(limits.maxReadBytes, remaining);
      const slice = await readTextSlice(services, scope, scope.view, { path }, cap);
      const message = sliceNote(slice, cap);
      const text = `${path}:\n${slice.text}\n${message ? `[${message}]\n` : ''}`;
      used += utf8Length(text);
      parts.push(text);
      const entry: Record<string, unknown> = { path, ok: true, size: slice.size, bytes: slice.bytes, truncated: slice.truncated };
      if (slice.nextOffset !== undefined) entry.nextOffset = slice.nextOffset;
      files.push(entry);
    } catch (error) {
      if (!(error instanceof FsError)) throw error;
      parts.push(`${path}: Error - ${error.message}`);
      files.push({ path, ok: false, error: { code: error.code, message: error.message } });
    }
  }
  return ok(parts.join('\n---\n'), { files, truncated });
}
