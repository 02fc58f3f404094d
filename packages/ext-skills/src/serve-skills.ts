/**
 * Serves a {@link SkillCatalog} on an `McpServer`: declares `io.modelcontextprotocol/skills` (with `directoryRead`
 * when asked), answers `skills/list` (paginated, `ttlMs`/`cacheScope` on 2026-07-28) and `skills/get`, reads every
 * file through one `skill://…` resource template (its `SKILL.md` files listed in `resources/list` with their name and
 * description), serves `resources/directory/read`, and tells clients when a reload changed something: a
 * `resources/list_changed` (legacy notifications and 2026-07-28 listen streams alike) and a `resources/updated` per
 * changed file for those subscribed to it.
 */
import { invalidParams, RpcError, ErrorCode, truncateInput, type JsonObject } from '@wiremcp/protocol';
import { ResourceNotFoundError, type McpServer } from '@wiremcp/server';
import { SkillContentChangedError, type SkillCatalog } from './catalog.js';
import { pageOf } from './cursor.js';
import { serveDirectoryRead } from './directory-read.js';
import { textOf, toBase64 } from './media-types.js';
import { SKILLS_EXTENSION, SKILLS_GET, SKILLS_LIST, type Skill } from './wire.js';

/** Options of {@link serveSkills}. */
export interface ServeSkillsOptions {
  /** Serve `resources/directory/read` and declare `directoryRead: true` (default true). */
  directoryRead?: boolean;
  /** Skills per `skills/list` page and children per directory page (default 100). */
  pageSize?: number;
  /** Caching hint of 2026-07-28 results: lists, entries, directories and files (default `{ttlMs: 0, cacheScope: 'public'}`). */
  cache?: { ttlMs: number; cacheScope: 'public' | 'private' };
}

/** What {@link serveSkills} returns: stop announcing the catalogue's reloads on this server. */
export interface ServedSkills {
  readonly catalog: SkillCatalog;
  /** Stops announcing the catalogue's changes on this server (the handlers stay). */
  dispose(): void;
}

/** Serves `catalog` on `server`; call before the server is connected so every handshake sees the extension. */
export function serveSkills(server: McpServer, catalog: SkillCatalog, options: ServeSkillsOptions = {}): ServedSkills {
  const size = options.pageSize ?? 100;
  if (!Number.isInteger(size) || size < 1) throw new TypeError('pageSize must be an integer ≥ 1');
  const cache = options.cache ?? { ttlMs: 0, cacheScope: 'public' as const };
  const directoryRead = options.directoryRead !== false;

  server.setRequestHandler(SKILLS_LIST, (params, context) => {
    const { page, nextCursor } = pageOf('skills', catalog.entries, params?.cursor, size);
    const result: JsonObject = { skills: page as unknown as JsonObject[] };
    if (nextCursor !== undefined) result.nextCursor = nextCursor;
    if (context.era === 'modern') Object.assign(result, cache);
    return result;
  });

  server.setRequestHandler(SKILLS_GET, (params, context) => {
    const uri = params?.uri;
    if (typeof uri !== 'string' || uri === '') throw invalidParams('skills/get needs params.uri, the URI of a SKILL.md');
    const skill: Skill | undefined = catalog.get(uri);
    if (skill === undefined) throw invalidParams(`No skill is served at ${truncateInput(uri)}`, { uri: truncateInput(uri) });
    const result: JsonObject = { skill: skill as unknown as JsonObject };
    if (context.era === 'modern') Object.assign(result, cache);
    return result;
  });

  server.registerResourceTemplate(
    { uriTemplate: `${catalog.baseUri}{+path}`, name: 'skills', title: 'Skill files', description: 'The files of the skills this server serves' },
    async (uri) => {
      let file;
      try {
        file = await catalog.read(uri);
      } catch (error) {
        if (error instanceof SkillContentChangedError) throw new RpcError(ErrorCode.InternalError, error.message);
        throw error;
      }
      if (file === undefined) throw new ResourceNotFoundError(uri);
      const text = textOf(file.bytes, file.mimeType);
      const content = text === undefined ? { uri: file.uri, mimeType: file.mimeType, blob: toBase64(file.bytes) } : { uri: file.uri, mimeType: file.mimeType, text };
      return { contents: [content] };
    },
    { list: () => catalog.skillResources(), cache, listCache: cache },
  );

  if (directoryRead) serveDirectoryRead(server, (uri) => catalog.directory(uri), { pageSize: size, cache });
  server.declareExtension(SKILLS_EXTENSION, directoryRead ? { directoryRead: true } : {});

  const stop = catalog.onChange((changes) => {
    server.notifyResourceListChanged();
    for (const uri of changes.files) server.notifyResourceUpdated(uri);
  });
  return { catalog, dispose: stop };
}
