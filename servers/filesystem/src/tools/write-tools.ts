/**
 * write_file, edit_file, create_directory, move_file, copy_file — registered unless the server is read-only.
 * Every change is made inside a directory the sandbox opened and checked (see sandbox/write-ops.ts).
 */
import type { FileHandle } from 'node:fs/promises';
import type { CallToolResult, McpServer } from '@wiremcp/server';
import { editFile } from '../ops/edit-file.js';
import type { Edit } from '../ops/edit-text.js';
import { subtreeHasDenied } from '../ops/tree-ops.js';
import { FsError, fail } from '../sandbox/errors.js';
import { makeDirectories, moveEntry, writeAll, writeFileConfined } from '../sandbox/write-ops.js';
import { invalid, kindOfStat, note, ok } from './results.js';
import * as schema from './schemas.js';
import { runTool, throwIfStopped, type CallScope, type ToolServices } from './tool-runtime.js';

const MAX_EDITS = 1000;

/** Registers the tools that change files and directories. */
export function registerWriteTools(server: McpServer, services: ToolServices, onInternal: (error: unknown) => void): void {
  const { sandbox, limits } = services;
  const mode = services.config.writeMode;
  server.registerTool(
    {
      name: 'write_file',
      title: 'Write File',
      description:
        'Create a new file or completely overwrite an existing file with new content (UTF-8). ' +
        (mode === 'in-place'
          ? 'An existing file is overwritten in place, keeping its permissions, owner and hard links; read-only files are refused. '
          : 'The content is written to a temporary file and renamed into place, so readers never see half a file; permissions are kept ' +
            'and read-only files are refused. ') +
        'Only works within allowed directories.',
      inputSchema: schema.WRITE_INPUT,
      outputSchema: schema.WRITE_OUTPUT,
      annotations: { readOnlyHint: false, idempotentHint: true, destructiveHint: true, openWorldHint: false },
    },
    (args: { path: string; content: string }, ctx) =>
      runTool(
        services,
        ctx,
        async (scope) => {
          if (typeof args.content !== 'string') throw invalid('content must be a string');
          const data = Buffer.from(args.content, 'utf8');
          const outcome = await writeFileConfined(sandbox, scope.view, args.path, (file) => writeAll(file, data), { mode });
          return ok(`Successfully wrote to ${args.path}`, {
            path: args.path,
            bytes: outcome.bytes,
            created: outcome.created,
            mode: outcome.mode,
          });
        },
        onInternal,
      ),
  );

  server.registerTool(
    {
      name: 'edit_file',
      title: 'Edit File',
      description:
        'Make line-based edits to a text file. Each edit replaces the first exact occurrence of oldText (or, failing that, the same lines ' +
        'ignoring indentation) with newText. Returns a git-style diff; with dryRun nothing is written. Line endings (CRLF) and a UTF-8 BOM ' +
        'are kept. When an edit does not match, nothing is written and the error shows the closest text and how it differs. ' +
        'Only works within allowed directories.',
      inputSchema: schema.EDIT_INPUT,
      outputSchema: schema.EDIT_OUTPUT,
      annotations: { readOnlyHint: false, idempotentHint: false, destructiveHint: true, openWorldHint: false },
    },
    (args: { path: string; edits: Edit[]; dryRun?: boolean }, ctx) =>
      runTool(
        services,
        ctx,
        async (scope) => {
          if (!Array.isArray(args.edits) || args.edits.length > MAX_EDITS)
            throw invalid(`edits must be an array of at most ${MAX_EDITS} edits`);
          const dryRun = args.dryRun === true;
          const outcome = await editFile(sandbox, scope.view, args.path, args.edits, dryRun, limits, mode);
          const structured: Record<string, unknown> = {
            path: args.path,
            dryRun,
            changed: outcome.changed,
            written: outcome.written,
            applied: outcome.applied,
            lineEnding: outcome.lineEnding,
            bom: outcome.bom,
          };
          const notes = [];
          if (outcome.normalizedTo) {
            structured.normalizedTo = outcome.normalizedTo;
            notes.push(note(`the file mixed line endings; every line now ends with ${outcome.normalizedTo.toUpperCase()}`));
          }
          const repeated = outcome.applied.filter((edit) => edit.occurrences > 1);
          if (repeated.length > 0) {
            notes.push(
              note(
                `${repeated.map((e) => `oldText at line ${e.line} occurs ${e.occurrences} times`).join('; ')}: only the first occurrence was replaced`,
              ),
            );
          }
          return ok(outcome.fencedDiff, structured, notes);
        },
        onInternal,
      ),
  );

  server.registerTool(
    {
      name: 'create_directory',
      title: 'Create Directory',
      description:
        'Create a new directory or ensure a directory exists. Can create multiple nested directories in one operation. If the directory ' +
        'already exists, this operation will succeed silently. Only works within allowed directories.',
      inputSchema: schema.PATH_INPUT,
      outputSchema: schema.CHANGE_OUTPUT,
      annotations: { readOnlyHint: false, idempotentHint: true, destructiveHint: false, openWorldHint: false },
    },
    (args: { path: string }, ctx) =>
      runTool(
        services,
        ctx,
        async (scope) => {
          const created = await makeDirectories(sandbox, scope.view, args.path);
          return ok(`Successfully created directory ${args.path}`, { path: args.path, created });
        },
        onInternal,
      ),
  );

  server.registerTool(
    {
      name: 'move_file',
      title: 'Move File',
      description:
        'Move or rename files and directories. If the destination exists, the operation fails (nothing is overwritten). A link is moved as ' +
        'a link. Both source and destination must be within allowed directories.',
      inputSchema: schema.MOVE_INPUT,
      outputSchema: schema.CHANGE_OUTPUT,
      annotations: { readOnlyHint: false, idempotentHint: false, destructiveHint: true, openWorldHint: false },
    },
    (args: { source: string; destination: string }, ctx) => runTool(services, ctx, (scope) => move(services, scope, args), onInternal),
  );

  server.registerTool(
    {
      name: 'copy_file',
      title: 'Copy File',
      description:
        'Copy a file to a new path (the destination must not exist unless overwrite is true; an existing destination is replaced as ' +
        'write_file replaces files). A new copy is written to a temporary file and renamed into place. Both paths must be within allowed ' +
        'directories.',
      inputSchema: schema.COPY_INPUT,
      outputSchema: schema.CHANGE_OUTPUT,
      annotations: { readOnlyHint: false, idempotentHint: true, destructiveHint: true, openWorldHint: false },
    },
    (args: { source: string; destination: string; overwrite?: boolean }, ctx) =>
      runTool(services, ctx, (scope) => copy(services, scope, args), onInternal),
  );
}

async function move(services: ToolServices, scope: CallScope, args: { source: string; destination: string }): Promise<CallToolResult> {
  const { sandbox, limits } = services;
  const source = await sandbox.locateEntry(scope.view, args.source, { follow: false });
  try {
    const destination = await sandbox.locateEntry(scope.view, args.destination, { follow: false });
    try {
      if (!source.stat) throw fail.notFound(args.source);
      if (source.stat.isDirectory()) {
        const { location } = source;
        if (
          await subtreeHasDenied(
            sandbox,
            location.dir,
            location.name,
            location.root.real,
            [...location.names, location.name],
            limits,
            scope.signal,
          )
        ) {
          throw new FsError('denied_by_pattern', `Access denied - ${args.source} holds entries that match a deny pattern of this server`);
        }
      }
      await moveEntry(source, destination, sandbox);
      return ok(`Successfully moved ${args.source} to ${args.destination}`, {
        source: args.source,
        destination: args.destination,
        type: kindOfStat(source.stat),
      });
    } finally {
      await sandbox.release(destination.location);
    }
  } finally {
    await sandbox.release(source.location);
  }
}

async function copy(
  services: ToolServices,
  scope: CallScope,
  args: { source: string; destination: string; overwrite?: boolean },
): Promise<CallToolResult> {
  const { sandbox } = services;
  const opened = await sandbox.openFile(scope.view, args.source);
  try {
    const fill = async (target: FileHandle): Promise<number> => {
      const buffer = Buffer.allocUnsafe(1024 * 1024);
      let position = 0;
      for (;;) {
        throwIfStopped(scope);
        const { bytesRead } = await opened.file.read(buffer, 0, buffer.length, position);
        if (bytesRead === 0) return position;
        await writeAll(target, buffer.subarray(0, bytesRead), position);
        position += bytesRead;
      }
    };
    const outcome = await writeFileConfined(sandbox, scope.view, args.destination, fill, {
      mustNotExist: args.overwrite !== true,
      mode: services.config.writeMode,
    });
    return ok(`Successfully copied ${args.source} to ${args.destination}`, {
      source: args.source,
      destination: args.destination,
      bytes: outcome.bytes,
      created: outcome.created,
    });
  } finally {
    await sandbox.closeFile(opened);
  }
}
