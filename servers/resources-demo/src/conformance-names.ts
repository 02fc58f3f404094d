/**
 * The resources the official conformance suite looks for by name, so that the suite (and any client tested
 * against it) finds them here too: `test://static-text`, `test://static-binary`, the template
 * `test://template/{id}/data`, and `test://watched-resource`, which changes when the tool
 * `update_watched_resource` runs.
 */
import { ResourceNotFoundError, type McpServer } from '@wiremcp/server';
import { READ_HINTS } from './cache-hints.js';
import type { CatalogueFile } from './catalogue.js';
import type { Icons } from './icons.js';
import type { LiveFeed } from './live.js';

/** Fixed text/plain contents. */
export const STATIC_TEXT_URI = 'test://static-text';
/** A fixed PNG, as a blob. */
export const STATIC_BINARY_URI = 'test://static-binary';
/** JSON naming the id taken from the URI. */
export const DATA_TEMPLATE = 'test://template/{id}/data';
/** Changes when `update_watched_resource` runs. */
export const WATCHED_URI = 'test://watched-resource';

/** The text of `test://static-text`, as the suite words it. */
export const STATIC_TEXT = 'This is the content of the static text resource.';

const TEMPLATE_IDS = ['123', '124', '125', '456', '789'];

/** Registers the four resources and `update_watched_resource`; `image` is the PNG served as the static binary. */
export function registerConformanceNames(server: McpServer, image: CatalogueFile, live: LiveFeed, icons: Icons): void {
  server.registerResource(
    {
      uri: STATIC_TEXT_URI,
      name: 'static-text',
      title: 'Static text',
      description: 'Fixed text/plain contents (the conformance suite reads it).',
      mimeType: 'text/plain',
      size: new TextEncoder().encode(STATIC_TEXT).length,
      annotations: { audience: ['assistant'], priority: 0.1 },
      icons: icons.document,
    },
    (uri) => ({ contents: [{ uri, mimeType: 'text/plain', text: STATIC_TEXT }] }),
    { cache: READ_HINTS.fixed },
  );

  server.registerResource(
    {
      uri: STATIC_BINARY_URI,
      name: 'static-binary',
      title: 'Static binary',
      description: `A PNG sent as a base64 blob (the catalogue's ${image.path}; the conformance suite reads it).`,
      mimeType: 'image/png',
      size: image.size,
      annotations: { audience: ['assistant'], priority: 0.1 },
      icons: icons.image,
    },
    (uri) => ({ contents: [{ uri, mimeType: 'image/png', blob: image.blob! }] }),
    { cache: READ_HINTS.fixed },
  );

  server.registerResourceTemplate(
    {
      uriTemplate: DATA_TEMPLATE,
      name: 'template-data',
      title: 'Template data',
      description: 'JSON naming the id taken from the URI (the conformance suite reads test://template/123/data). The id completes.',
      mimeType: 'application/json',
      icons: icons.document,
    },
    (uri, variables) => {
      const id = String(variables.id);
      if (id === '') throw new ResourceNotFoundError(uri);
      const text = JSON.stringify({ id, templateTest: true, data: `Data for ID: ${id}` });
      return { contents: [{ uri, mimeType: 'application/json', text }] };
    },
    { cache: READ_HINTS.fixed, complete: { id: (value) => TEMPLATE_IDS.filter((id) => id.startsWith(value)) } },
  );

  let version = 1;
  server.registerResource(
    {
      uri: WATCHED_URI,
      name: 'watched-resource',
      title: 'Watched resource',
      description: 'Changes each time the tool update_watched_resource runs; subscribe (or listen) to be told.',
      mimeType: 'text/plain',
      annotations: { audience: ['assistant'], priority: 0.1 },
      icons: icons.live,
    },
    (uri) => ({ contents: [{ uri, mimeType: 'text/plain', text: `Watched resource, version ${version}` }] }),
    { cache: READ_HINTS.watched },
  );

  server.registerTool(
    {
      name: 'update_watched_resource',
      title: 'Update the watched resource',
      description: `Changes ${WATCHED_URI} (its version goes up by one) and tells its subscribers.`,
      inputSchema: { type: 'object', properties: {}, additionalProperties: false },
      annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: false },
    },
    () => {
      version += 1;
      server.notifyResourceUpdated(WATCHED_URI);
      live.record(`updated ${WATCHED_URI} to version ${version}`);
      return { content: [{ type: 'text', text: `${WATCHED_URI} is now at version ${version}.` }] };
    },
  );
}
