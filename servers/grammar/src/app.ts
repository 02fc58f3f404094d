/**
 * The grammar App (MCP Apps, `io.modelcontextprotocol/ui`): the conjugation-table view as `ui://grammar/conjugation-table`
 * (`text/html;profile=mcp-app`, default CSP: it needs no network), linked from the `conjugate` tool's
 * `_meta.ui.resourceUri` so a host that renders apps shows the table beside the answer; the view calls `conjugate`
 * (visible to both the model and apps) through the host's bridge. Hosts without MCP Apps see the text result as before.
 */
import { registerAppResource } from '@wiremcp/ext-apps/server';
import type { McpServer } from '@wiremcp/server';
import { conjugationTableHtml } from './app-view.js';

/** The view's URI. */
export const CONJUGATION_TABLE_URI = 'ui://grammar/conjugation-table';

/** Registers the view (and declares the extension). */
export function registerGrammarApp(server: McpServer): void {
  const html = conjugationTableHtml();
  registerAppResource(server, {
    uri: CONJUGATION_TABLE_URI,
    name: 'conjugation-table',
    title: '§A13 conjugation table',
    description: "An interactive table of a verb's 15 forms (5 tenses × 3 persons, English and Spanish).",
    html,
    prefersBorder: true,
    cache: { ttlMs: 3_600_000, cacheScope: 'public' },
  });
}
