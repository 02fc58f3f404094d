/**
 * The resources demo: every MCP resource feature of every revision in one server. Each feature lives in one
 * module, wired together here:
 *
 * | module                 | feature                                                                        |
 * | ---------------------- | ------------------------------------------------------------------------------ |
 * | `files.ts`             | direct resources with every field; text and blob; `{+name}`; dependent completion |
 * | `folders.ts`           | several contents in one read; `{/segments*}`                                   |
 * | `directories.ts`       | `resources/directory/read` on the catalogue (Skills extension, `directoryRead`) |
 * | `search.ts`            | `{?q,limit}`; `resource_link` content in a tool result                        |
 * | `elements.ts`          | a long list (118), paginated; a template that lists its instances              |
 * | `live.ts`              | resources that change by themselves (clock, activity log), `updated`           |
 * | `notes.ts`             | tools that add, edit, remove resources: `list_changed` and `updated`           |
 * | `request-resource.ts`  | a private cache scope                                                          |
 * | `embedding.ts`, `prompts.ts` | embedded `resource` content in a tool result and in prompts            |
 * | `conformance-names.ts` | the names the official conformance suite reads                                 |
 * | `cache-hints.ts`       | `ttlMs` and `cacheScope`, per resource kind                                    |
 *
 * `McpServer` itself does the rest: both eras on every connection, cursors, legacy subscriptions and 2026-07-28
 * listen streams with subscription ids, not-found codes per revision.
 */
import { packageVersion } from '@wiremcp/process';
import { McpServer, type ServerOptions } from '@wiremcp/server';
import { LIST_CACHING } from './cache-hints.js';
import { DATA_DIR, loadCatalogue } from './catalogue.js';
import { registerConformanceNames } from './conformance-names.js';
import { registerDirectories } from './directories.js';
import { Elements, elementUri, registerElements } from './elements.js';
import { registerEmbedTool } from './embedding.js';
import { fileDefinition, fileUri, registerFiles } from './files.js';
import { registerFolders } from './folders.js';
import { loadIcons } from './icons.js';
import { LiveFeed, registerLive } from './live.js';
import { Notes, registerNoteTools } from './notes.js';
import { registerPrompts } from './prompts.js';
import { registerRequestResource } from './request-resource.js';
import { registerSearch } from './search.js';

/** The server's identity. */
export const RESOURCES_DEMO_INFO = {
  name: 'wiremcp-resources-demo',
  title: 'wiremcp resources demo',
  version: packageVersion(import.meta.url, '@wiremcp/server-resources-demo'),
  description: 'Every MCP resource feature of every revision: a catalogue, a live clock and log, templates, subscriptions, caching hints.',
} as const;

const INSTRUCTIONS =
  'A demonstration of MCP resources. Start with demo://files/docs/welcome.md. The catalogue (demo://files/…) holds ' +
  'documents and images, demo://elements/{symbol} the periodic table, demo://live/clock and demo://live/log change ' +
  'by themselves; add_note, edit_note and delete_note change the resource list; find_resources and embed_resource ' +
  'return resources as links and as embedded contents.';

/** Items per page of every list: small, so that the resource and template lists a host shows come in pages. */
export const DEFAULT_PAGE_SIZE = 5;
/** Milliseconds between clock ticks. */
export const DEFAULT_TICK_MS = 1000;

/** Options of {@link createResourcesDemo}. */
export interface ResourcesDemoOptions {
  /** Items per page of every list (default {@link DEFAULT_PAGE_SIZE}). */
  pageSize?: number;
  /** Milliseconds between clock ticks (default {@link DEFAULT_TICK_MS}); 0: no timer, the clock moves on `live.tick()`. */
  tickMs?: number;
  /** Where `catalogue.json`, the files and the icons are (default: the package's `data/`). */
  dataDir?: URL;
  /** Receives internal errors (default: stderr). */
  onInternalError?: (error: unknown) => void;
  /** Observes every request and session (metrics, tracing): the `McpServer` option. */
  instrumentation?: ServerOptions['instrumentation'];
}

/** A running demo: the server, its live part and notes, and `close()`, which stops the clock and closes every connection. */
export interface ResourcesDemo {
  readonly server: McpServer;
  readonly live: LiveFeed;
  readonly notes: Notes;
  close(): Promise<void>;
}

/** Builds the demo (reading `data/` once) and starts its clock. Each call returns an independent server. */
export function createResourcesDemo(options: ResourcesDemoOptions = {}): ResourcesDemo {
  const dataDir = options.dataDir ?? DATA_DIR;
  const catalogue = loadCatalogue(dataDir);
  const icons = loadIcons(dataDir);
  const server = new McpServer(
    { ...RESOURCES_DEMO_INFO, icons: icons.document },
    {
      instructions: INSTRUCTIONS,
      pageSize: options.pageSize ?? DEFAULT_PAGE_SIZE,
      caching: LIST_CACHING,
      ...(options.onInternalError ? { onInternalError: options.onInternalError } : {}),
      ...(options.instrumentation ? { instrumentation: options.instrumentation } : {}),
    },
  );
  const live = new LiveFeed(server, { tickMs: options.tickMs ?? DEFAULT_TICK_MS });
  const elements = new Elements(catalogue, icons);
  const notes = new Notes(server, live, icons);
  const image = catalogue.file('images/pixel-art/heart.png');
  if (!image?.blob) throw new Error('the catalogue has no images/pixel-art/heart.png');

  // Registration order is listing order. Resources: the catalogue, the live part, the conformance names, notes
  // as they are added, then the elements (listed by their template, after every direct resource). Templates:
  // files, folders, search, elements, log tail, conformance data.
  registerFiles(server, catalogue, icons);
  registerFolders(server, catalogue, icons);
  registerDirectories(server, catalogue, icons);
  registerSearch(
    server,
    () => [...catalogue.files.map((file) => fileDefinition(file, icons)), ...elements.definitions, ...notes.definitions],
    icons,
  );
  registerElements(server, elements, icons);
  registerLive(server, live, icons);
  registerRequestResource(server, icons);
  registerConformanceNames(server, image, live, icons);
  registerNoteTools(server, notes);

  registerEmbedTool(server);
  registerPrompts(server, catalogue, icons, () => [
    ...catalogue.files.map((file) => fileUri(file.path)),
    ...notes.definitions.map((note) => note.uri),
    ...elements.all.map((element) => elementUri(element.symbol)),
  ]);

  live.record('server started');
  live.start();
  return {
    server,
    live,
    notes,
    close: async () => {
      live.stop();
      await server.close();
    },
  };
}
