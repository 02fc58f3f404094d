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
import { SkillCatalog, SkillContentChangedError } from './catalog.js';
import { pageOf } from './cursor.js';
import { serveDirectoryRead } from './directory-read.js';
import { textOf, toBase64 } from './media-types.js';
import { SKILL_SCHEME, SKILLS_EXTENSION, SKILLS_GET, SKILLS_LIST, type Skill } from './wire.js';

/** Options of {@link serveSkills}. */
export interface ServeSkillsOptions {
  /** Serve `resources/directory/read` and declare `directoryRead: true` (default true). */
  directoryRead?: boolean;
  /** Skills per `skills/list` page and children per directory page (default 100). */
  pageSize?: number;
  /** Caching hint of 2026-07-28 results: lists, entries, directories and files (default `{ttlMs: 0, cacheScope: 'public'}`). */
  cache?: { ttlMs: number; cacheScope: 'public' | 'private' };
  /**
   * With a catalogue still loading (a promise): the base URI its files are under (default `skill://`), so the
   * resource template can be registered at once. Ignored for a loaded catalogue, which knows its own.
   */
  baseUri?: string;
}

/** What {@link serveSkills} returns: stop announcing the catalogue's reloads on this server. */
export interface ServedSkills {
  /** The catalogue, once loaded. */
  readonly catalog: Promise<SkillCatalog>;
  /** Stops announcing the catalogue's changes on this server (the handlers stay). */
  dispose(): void;
}

/**
 * Serves `catalog` on `server`; call before the server is connected so every handshake sees the extension. A
 * catalogue still loading (a promise) is served as soon as it is there: requests wait for it, and a failed load
 * answers them with an internal error (its reason goes to the server's `onInternalError`, not to clients).
 */
export function serveSkills(
  server: McpServer,
  loading: SkillCatalog | Promise<SkillCatalog>,
  options: ServeSkillsOptions = {},
): ServedSkills {
  const ready = Promise.resolve(loading);
  // A failed load is answered per request; here it must not be an unhandled rejection.
  ready.catch(() => undefined);
  const base = loading instanceof SkillCatalog ? loading.baseUri : (options.baseUri ?? SKILL_SCHEME);
  const size = options.pageSize ?? 100;
  if (!Number.isInteger(size) || size < 1) throw new TypeError('pageSize must be an integer ≥ 1');
  const cache = options.cache ?? { ttlMs: 0, cacheScope: 'public' as const };
  const directoryRead = options.directoryRead !== false;

  server.setRequestHandler(SKILLS_LIST, async (params, context) => {
    const catalog = await ready;
    const { page, nextCursor } = pageOf('skills', catalog.entries, params?.cursor, size);
    const result: JsonObject = { skills: page as unknown as JsonObject[] };
    if (nextCursor !== undefined) result.nextCursor = nextCursor;
    if (context.era === 'modern') Object.assign(result, cache);
    return result;
  });

  server.setRequestHandler(SKILLS_GET, async (params, context) => {
    const catalog = await ready;
    const uri = params?.uri;
    if (typeof uri !== 'string' || uri === '') throw invalidParams('skills/get needs params.uri, the URI of a SKILL.md');
    const skill: Skill | undefined = catalog.get(uri);
    if (skill === undefined) throw invalidParams(`No skill is served at ${truncateInput(uri)}`, { uri: truncateInput(uri) });
    const result: JsonObject = { skill: skill as unknown as JsonObject };
    if (context.era === 'modern') Object.assign(result, cache);
    return result;
  });

  server.registerResourceTemplate(
    { uriTemplate: `${base}{+path}`, name: 'skills', title: 'Skill files', description: 'The files of the skills this server serves' },
    async (uri) => {
      let file;
      try {
        file = await (await ready).read(uri);
      } catch (error) {
        if (error instanceof SkillContentChangedError) throw new RpcError(ErrorCode.InternalError, error.message);
        throw error;
      }
      if (file === undefined) throw new ResourceNotFoundError(uri);
      const text = textOf(file.bytes, file.mimeType);
      const content =
        text === undefined
          ? { uri: file.uri, mimeType: file.mimeType, blob: toBase64(file.bytes) }
          : { uri: file.uri, mimeType: file.mimeType, text };
      return { contents: [content] };
    },
    { list: async () => (await ready).skillResources(), cache },
  );

  if (directoryRead) serveDirectoryRead(server, async (uri) => (await ready).directory(uri), { pageSize: size, cache });
  server.declareExtension(SKILLS_EXTENSION, directoryRead ? { directoryRead: true } : {});

  let stop: (() => void) | undefined;
  let disposed = false;
  ready.then(
    (catalog) => {
      if (disposed) return;
      stop = catalog.onChange((changes) => {
        server.notifyResourceListChanged();
        for (const uri of changes.files) server.notifyResourceUpdated(uri);
      });
    },
    () => undefined,
  );
  return {
    catalog: ready,
    dispose() {
      disposed = true;
      stop?.();
    },
  };
}
