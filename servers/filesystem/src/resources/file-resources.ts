/**
 * Files as resources: the template `file://{+path}` reads any file the tools could read (text, or a base64 blob
 * for binary files), within the same limits and under the same roots; completion suggests path segments inside
 * what the request may reach: the client's roots in a legacy session, the operator's directories in 2026-07-28
 * (where a completion request cannot ask for roots).
 */
import { RpcError } from '@wiremcp/protocol';
import { ResourceNotFoundError, type HandlerContext, type McpServer, type ReadResourceResult } from '@wiremcp/server';
import { mimeTypeOf } from '../ops/mime-types.js';
import { readEntries } from '../ops/walk.js';
import { binaryReason } from '../ops/text-format.js';
import { FsError } from '../sandbox/errors.js';
import type { ToolServices } from '../tools/tool-runtime.js';
import { FILE_TEMPLATE, uriToPath } from './file-uri.js';

const MAX_COMPLETIONS = 100;

/** Reads the file `uri` names for `resources/read`. */
async function readFileResource(services: ToolServices, uri: string, ctx: HandlerContext): Promise<ReadResourceResult> {
  const path = uriToPath(uri);
  if (path === undefined) throw new RpcError(-32602, 'Invalid params: not a local file: URI (no host, no encoded "/", no NUL)', { uri });
  const { sandbox, limits } = services;
  const view = await services.roots.viewFor(ctx);
  let opened;
  try {
    opened = await sandbox.openFile(view, path);
  } catch (error) {
    if (error instanceof FsError && error.code === 'not_found') throw new ResourceNotFoundError(uri);
    if (error instanceof FsError) throw new RpcError(-32602, error.message, { uri, code: error.code });
    throw error;
  }
  try {
    const mediaCap = Math.floor((limits.maxResponseBytes * 3) / 4);
    const data = opened.stat.size <= Math.max(limits.maxReadBytes, mediaCap) ? await opened.file.readFile() : undefined;
    if (!data) {
      throw new RpcError(
        -32602,
        `File too large to read as a resource (${opened.stat.size} bytes); use read_text_file with offset and length`,
        { uri },
      );
    }
    if (!binaryReason(data) && data.length <= limits.maxReadBytes) {
      const text = new TextDecoder('utf-8').decode(data);
      const type = mimeTypeOf(opened.location.name ?? '');
      return { contents: [{ uri, mimeType: type.startsWith('text/') || type === 'application/json' ? type : 'text/plain', text }] };
    }
    if (data.length > mediaCap) throw new RpcError(-32602, `File too large to read as a resource (${data.length} bytes)`, { uri });
    return { contents: [{ uri, mimeType: mimeTypeOf(opened.location.name ?? ''), blob: data.toString('base64') }] };
  } finally {
    await sandbox.closeFile(opened);
  }
}

/** Path completions for a partial absolute path (directories end with `/`), within what the request may reach. */
export async function completePath(
  services: ToolServices,
  value: string,
  ctx: HandlerContext,
): Promise<{ values: string[]; total: number; hasMore: boolean }> {
  const { sandbox } = services;
  let view;
  try {
    view = await services.roots.viewForSideRequest(ctx);
  } catch {
    // Roots the client declares but does not list: nothing to suggest (never the operator's whole directories).
    return { values: [], total: 0, hasMore: false };
  }
  const roots = view.areas.map((area) => `${area.display.replace(/\/$/, '')}/`);
  const slash = value.lastIndexOf('/');
  const outsideAll = !roots.some((root) => value.startsWith(root) || `${value}/` === root);
  if (slash === -1 || outsideAll) {
    const values = roots.filter((root) => root.startsWith(value) || value === '');
    return { values, total: values.length, hasMore: false };
  }
  const directory = value.slice(0, slash + 1);
  const prefix = value.slice(slash + 1);
  let opened;
  try {
    opened = await sandbox.openDirectory(view, directory);
  } catch {
    return { values: [], total: 0, hasMore: false };
  }
  try {
    const { entries } = await readEntries(opened.location.dir, 10_000);
    const { names, root } = opened.location;
    const values = entries
      .filter((entry) => entry.name.startsWith(prefix) && (prefix.startsWith('.') || !entry.name.startsWith('.')))
      .filter((entry) => !sandbox.deny.deniesChild(root.real, [...names, entry.name]))
      .map((entry) => `${directory}${entry.name}${entry.kind === 'directory' ? '/' : ''}`);
    return { values: values.slice(0, MAX_COMPLETIONS), total: values.length, hasMore: values.length > MAX_COMPLETIONS };
  } finally {
    await sandbox.release(opened.location);
  }
}

/** Registers the file template, its reader and its completion. */
export function registerFileResources(server: McpServer, services: ToolServices): void {
  server.registerResourceTemplate(
    {
      uriTemplate: FILE_TEMPLATE,
      name: 'file',
      title: 'Files in the allowed directories',
      description:
        'Any file inside the allowed directories, by its file:// URI: text files as text, others as base64 blobs. Subscribe to a file or ' +
        'directory URI to hear when it changes.',
    },
    (uri, _variables, ctx) => readFileResource(services, uri, ctx),
    { complete: { path: (value, ctx) => completePath(services, value, ctx) } },
  );
}
