/**
 * Search: the template `demo://search{?q,limit}` (form-style query, RFC 6570 level 3) reads as JSON results,
 * and the tool `find_resources` gives the same matches as `resource_link` content blocks.
 */
import { invalidParams } from '@wiremcp/protocol';
import type { McpServer, ResourceDefinition } from '@wiremcp/server';
import { READ_HINTS } from './cache-hints.js';
import { startingWith } from './files.js';
import type { Icons } from './icons.js';

/** The search template. */
export const SEARCH_TEMPLATE = 'demo://search{?q,limit}';

/** Results per search unless `limit` says otherwise. */
export const DEFAULT_LIMIT = 10;
/** The most results `limit` may ask for. */
export const MAX_LIMIT = 50;

/** What a search looks through: every readable resource's listing entry, as of now. */
export type Searchable = () => readonly ResourceDefinition[];

/** The resources whose name, title or description contains `query` (ignoring case), and how many there were. */
export function search(searchable: Searchable, query: string, limit: number): { total: number; matches: ResourceDefinition[] } {
  const needle = query.toLowerCase();
  const all = searchable().filter((resource) =>
    [resource.name, resource.title, resource.description].some((text) => text?.toLowerCase().includes(needle)),
  );
  return { total: all.length, matches: all.slice(0, limit) };
}

/** Parses a `limit` value (a template variable or tool argument); -32602 unless it is an integer in 1…MAX_LIMIT. */
export function parseLimit(value: unknown): number {
  if (value === undefined) return DEFAULT_LIMIT;
  const text = String(value);
  if (!/^[1-9][0-9]*$/.test(text) || Number(text) > MAX_LIMIT) {
    throw invalidParams(`limit must be an integer from 1 to ${MAX_LIMIT}, got ${JSON.stringify(text.slice(0, 20))}`);
  }
  return Number(text);
}

/** Words worth completing a query with: the distinct words (3 letters or more) of every title. */
function titleWords(searchable: Searchable): string[] {
  const words = new Set<string>();
  for (const resource of searchable()) {
    for (const word of (resource.title ?? resource.name).toLowerCase().split(/[^a-z0-9]+/)) if (word.length >= 3) words.add(word);
  }
  return [...words].sort();
}

/** Registers the search template and the `find_resources` tool. */
export function registerSearch(server: McpServer, searchable: Searchable, icons: Icons): void {
  server.registerResourceTemplate(
    {
      uriTemplate: SEARCH_TEMPLATE,
      name: 'search',
      title: 'Search',
      description: `Resources whose name, title or description contains q (all of them without q), at most limit (default ${DEFAULT_LIMIT}, up to ${MAX_LIMIT}), as JSON.`,
      mimeType: 'application/json',
      icons: icons.document,
    },
    (uri, variables) => {
      // A literal comma in q separates the items of an RFC 6570 list, an encoded one (%2C) is part of the string:
      // either way the query is the text the user typed.
      const query = ([] as string[]).concat(variables.q ?? '').join(',');
      const limit = parseLimit(variables.limit);
      const { total, matches } = search(searchable, query, limit);
      const results = matches.map(({ uri: found, name, title }) => ({ uri: found, name, title }));
      return { contents: [{ uri, mimeType: 'application/json', text: JSON.stringify({ q: query, limit, total, results }) }] };
    },
    {
      cache: READ_HINTS.search,
      complete: {
        q: (value) => startingWith(titleWords(searchable), value),
        limit: (value) => startingWith(['5', '10', '20', '50'], value),
      },
    },
  );

  server.registerTool(
    {
      name: 'find_resources',
      title: 'Find resources',
      description: 'Finds resources whose name, title or description contains the query and returns links to them (resource_link content).',
      inputSchema: {
        type: 'object',
        properties: {
          query: { type: 'string', minLength: 1, maxLength: 200, description: 'Text to look for, e.g. "iron" or "png".' },
          limit: { type: 'integer', minimum: 1, maximum: MAX_LIMIT, description: `At most this many links (default ${DEFAULT_LIMIT}).` },
        },
        required: ['query'],
        additionalProperties: false,
      },
      annotations: { readOnlyHint: true, idempotentHint: true, openWorldHint: false },
    },
    ({ query, limit }: { query: string; limit?: number }) => {
      const { total, matches } = search(searchable, query, limit ?? DEFAULT_LIMIT);
      const summary = total === 0 ? `No resource matches "${query}".` : `${total} resource(s) match "${query}"; ${matches.length} shown.`;
      return {
        content: [{ type: 'text', text: summary }, ...matches.map((resource) => ({ type: 'resource_link' as const, ...resource }))],
      };
    },
  );
}
