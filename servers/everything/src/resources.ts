/**
 * The resources of the everything server: the four the conformance suite names (static text, static binary,
 * a template, a subscribable resource) and a long templated family that makes `resources/list` paginate.
 */
import { ResourceNotFoundError, type CompletionProvider, type McpServer } from '@wiremcp/server';
import { ICONS, PNG_MIME_TYPE, RED_PIXEL_PNG_BASE64 } from './media.js';

/** `test://static-text`: text/plain. Conformance: resources-read-text. */
export const STATIC_TEXT_URI = 'test://static-text';
/** `test://static-binary`: a PNG blob. Conformance: resources-read-binary. */
export const STATIC_BINARY_URI = 'test://static-binary';
/** `test://watched-resource`: subscribable; changes when `test_update_watched_resource` runs. */
export const WATCHED_URI = 'test://watched-resource';
/** The template of conformance scenario resources-templates-read. */
export const DATA_TEMPLATE = 'test://template/{id}/data';
/** The template of the numbered items listed by `resources/list` (so that it has a second page). */
export const ITEM_TEMPLATE = 'test://items/{n}';
/** How many numbered items exist: more than one default page (100) together with the fixed resources. */
export const ITEM_COUNT = 150;

/** Text of `test://static-text`, as the conformance suite words it. */
export const STATIC_TEXT = 'This is the content of the static text resource.';

/** The URI of the template data for `id`. */
export function templateDataUri(id: string): string {
  return `test://template/${encodeURIComponent(id)}/data`;
}

/** The URI of item `n` (1-based). */
export function itemUri(n: number): string {
  return `test://items/${n}`;
}

/** State of `test://watched-resource`: bumped by a tool, then subscribers are told. */
export class WatchedResource {
  #version = 1;
  #updatedAt = new Date(0).toISOString();

  /** Current content version (starts at 1). */
  get version(): number {
    return this.#version;
  }

  /** The text of the current version. */
  get text(): string {
    return `Watched resource content (version ${this.#version})`;
  }

  /** When it last changed (ISO 8601; the epoch until the first change). */
  get updatedAt(): string {
    return this.#updatedAt;
  }

  /** Changes the content and notifies subscribers (legacy `resources/subscribe` and 2026 listen streams). */
  bump(server: McpServer): number {
    this.#version += 1;
    this.#updatedAt = new Date().toISOString();
    server.notifyResourceUpdated(WATCHED_URI);
    return this.#version;
  }
}

/** Offers the candidates that start with what was typed (case-insensitive). */
export function prefixCompleter(candidates: readonly string[]): CompletionProvider {
  return (value) => {
    const prefix = value.toLowerCase();
    return candidates.filter((candidate) => candidate.toLowerCase().startsWith(prefix));
  };
}

const TEMPLATE_IDS = ['123', '124', '125', '456', '789'];
const ITEM_NUMBERS = Array.from({ length: ITEM_COUNT }, (_, i) => String(i + 1));

/** Registers every resource and template. */
export function registerEverythingResources(server: McpServer, watched: WatchedResource): void {
  server.registerResource(
    {
      uri: STATIC_TEXT_URI,
      name: 'static-text',
      title: 'Static text',
      description: 'A fixed text/plain resource. Conformance: resources-read-text.',
      mimeType: 'text/plain',
      size: new TextEncoder().encode(STATIC_TEXT).length,
      annotations: { audience: ['user', 'assistant'], priority: 0.8, lastModified: '2025-01-01T00:00:00Z' },
      icons: ICONS,
    },
    (uri) => ({ contents: [{ uri, mimeType: 'text/plain', text: STATIC_TEXT }] }),
  );

  server.registerResource(
    {
      uri: STATIC_BINARY_URI,
      name: 'static-binary',
      title: 'Static binary',
      description: 'A fixed binary resource: a 1x1 red PNG, sent as a base64 blob. Conformance: resources-read-binary.',
      mimeType: PNG_MIME_TYPE,
      size: 69,
    },
    (uri) => ({ contents: [{ uri, mimeType: PNG_MIME_TYPE, blob: RED_PIXEL_PNG_BASE64 }] }),
  );

  server.registerResource(
    {
      uri: WATCHED_URI,
      name: 'watched-resource',
      title: 'Watched resource',
      description:
        'A resource whose content changes each time the tool test_update_watched_resource runs; subscribe to it ' +
        '(resources/subscribe, or subscriptions/listen in 2026-07-28) to be notified. Conformance: resources-subscribe, resources-unsubscribe.',
      mimeType: 'text/plain',
    },
    (uri) => ({ contents: [{ uri, mimeType: 'text/plain', text: watched.text }] }),
  );

  server.registerResourceTemplate(
    {
      uriTemplate: DATA_TEMPLATE,
      name: 'template-data',
      title: 'Template data',
      description: 'JSON data for any id, substituted from the URI. Conformance: resources-templates-read. The id completes.',
      mimeType: 'application/json',
    },
    (uri, variables) => {
      const id = String(variables.id);
      return {
        contents: [{ uri, mimeType: 'application/json', text: JSON.stringify({ id, templateTest: true, data: `Data for ID: ${id}` }) }],
      };
    },
    { complete: { id: prefixCompleter(TEMPLATE_IDS) } },
  );

  server.registerResourceTemplate(
    {
      uriTemplate: ITEM_TEMPLATE,
      name: 'item',
      title: 'Numbered item',
      description: `One of ${ITEM_COUNT} numbered text items; all are listed, so resources/list has more than one page.`,
      mimeType: 'text/plain',
    },
    (uri, variables) => {
      const n = Number(variables.n);
      if (!/^[1-9][0-9]*$/.test(String(variables.n)) || n > ITEM_COUNT) throw new ResourceNotFoundError(uri);
      return { contents: [{ uri, mimeType: 'text/plain', text: `Item ${n} of ${ITEM_COUNT}` }] };
    },
    {
      complete: { n: prefixCompleter(ITEM_NUMBERS) },
      list: () =>
        ITEM_NUMBERS.map((n) => ({
          uri: itemUri(Number(n)),
          name: `item-${n}`,
          description: `Numbered item ${n} of ${ITEM_COUNT}.`,
          mimeType: 'text/plain',
        })),
    },
  );
}
