/**
 * delete_file and delete_directory: offered only with --allow-delete (and never in read-only mode). A link is
 * deleted as a link; a directory tree is deleted through open directories without following links; a directory
 * holding entries that match a deny pattern is not deleted.
 */
import type { McpServer } from '@wiremcp/server';
import { removeTree, subtreeHasDenied, type Removed } from '../ops/tree-ops.js';
import { FsError, fail, fromErrno } from '../sandbox/errors.js';
import { deleteFile, removeEmptyDirectory } from '../sandbox/write-ops.js';
import { kindOfStat, ok } from './results.js';
import * as schema from './schemas.js';
import { runTool, type ToolServices } from './tool-runtime.js';

/** Registers the delete tools. */
export function registerDeleteTools(server: McpServer, services: ToolServices, onInternal: (error: unknown) => void): void {
  const { sandbox, limits } = services;
  server.registerTool(
    {
      name: 'delete_file',
      title: 'Delete File',
      description: 'Delete a file (or a symbolic link: the link itself, never what it points to). Only works within allowed directories.',
      inputSchema: schema.PATH_INPUT,
      outputSchema: schema.CHANGE_OUTPUT,
      annotations: { readOnlyHint: false, idempotentHint: true, destructiveHint: true, openWorldHint: false },
    },
    (args: { path: string }, ctx) =>
      runTool(
        services,
        ctx,
        async (scope) => {
          const stat = await deleteFile(sandbox, scope.view, args.path);
          return ok(`Successfully deleted ${args.path}`, { path: args.path, type: kindOfStat(stat) });
        },
        onInternal,
      ),
  );

  server.registerTool(
    {
      name: 'delete_directory',
      title: 'Delete Directory',
      description:
        'Delete a directory: an empty one, or with recursive: true everything in it (links inside are removed, never followed). ' +
        'An allowed directory itself cannot be deleted. Only works within allowed directories.',
      inputSchema: schema.DELETE_DIRECTORY_INPUT,
      outputSchema: schema.CHANGE_OUTPUT,
      annotations: { readOnlyHint: false, idempotentHint: true, destructiveHint: true, openWorldHint: false },
    },
    (args: { path: string; recursive?: boolean }, ctx) =>
      runTool(
        services,
        ctx,
        async (scope) => {
          const { location, stat, path } = await sandbox.locateEntry(scope.view, args.path, { follow: false });
          try {
            if (!stat) throw fail.notFound(path);
            if (stat.isSymbolicLink())
              throw new FsError('not_a_directory', `Not a directory: ${path} is a symbolic link (delete it with delete_file)`);
            if (!stat.isDirectory()) throw fail.notDirectory(path);
            const names = [...location.names, location.name];
            if (await subtreeHasDenied(sandbox, location.dir, location.name, location.root.real, names, limits, scope.signal)) {
              throw new FsError('denied_by_pattern', `Access denied - ${path} holds entries that match a deny pattern of this server`);
            }
            const removed: Removed = { files: 0, directories: 0 };
            await sandbox.resolver.checkStillInside(location, path);
            try {
              if (args.recursive === true)
                await removeTree(sandbox, location.dir, location.name, removed, scope.signal, limits.maxDirectoryEntries);
              else {
                await removeEmptyDirectory(location.dir, location.name);
                removed.directories = 1;
              }
            } catch (error) {
              throw fromErrno(error, path);
            }
            return ok(`Successfully deleted ${path}`, { path, recursive: args.recursive === true, removed });
          } finally {
            await sandbox.release(location);
          }
        },
        onInternal,
      ),
  );
}
