/**
 * Server helpers of MCP Apps: register a view as a `ui://` resource (`text/html;profile=mcp-app`, with its CSP,
 * permissions and border preference in `_meta.ui` of both the listing and the read contents), link a tool to it
 * (`_meta.ui.resourceUri`, `visibility`), and declare the extension. Both eras: the metadata travels in `_meta`,
 * which every revision carries.
 */
import type { CacheHint, McpServer, RegisteredResource } from '@wiremcp/server';
import { cspProblems } from '../csp.js';
import { UI_EXTENSION, UI_MIME_TYPE, type UiPermissions, type UiResourceCsp, type UiResourceMeta, type UiToolMeta } from '../wire.js';

/** A view to register. */
export interface AppResourceDefinition {
  /** `ui://…` */
  uri: string;
  name: string;
  title?: string;
  description?: string;
  /** The HTML document (a string, or a function called on every read). */
  html: string | (() => string | Promise<string>);
  csp?: UiResourceCsp;
  permissions?: UiPermissions;
  domain?: string;
  prefersBorder?: boolean;
  /** Caching hint of its 2026-07-28 reads. */
  cache?: CacheHint;
}

/** Declares `io.modelcontextprotocol/ui` on `server` (done by {@link registerAppResource} too). */
export function declareApps(server: McpServer): void {
  server.declareExtension(UI_EXTENSION, {});
}

/** Registers a view; throws a `TypeError` for a URI that is not `ui://` or an invalid CSP. */
export function registerAppResource(server: McpServer, definition: AppResourceDefinition): RegisteredResource {
  if (typeof definition.uri !== 'string' || !/^ui:\/\/[^\s]+$/.test(definition.uri)) {
    throw new TypeError(`an app resource needs a ui:// URI, got ${JSON.stringify(String(definition.uri).slice(0, 100))}`);
  }
  const problems = cspProblems(definition.csp);
  if (problems.length > 0) throw new TypeError(`${definition.uri}: ${problems.join('; ')}`);
  const ui: UiResourceMeta = {};
  if (definition.csp) ui.csp = definition.csp;
  if (definition.permissions) ui.permissions = definition.permissions;
  if (definition.domain !== undefined) ui.domain = definition.domain;
  if (definition.prefersBorder !== undefined) ui.prefersBorder = definition.prefersBorder;
  const meta = Object.keys(ui).length > 0 ? { ui } : undefined;
  declareApps(server);
  return server.registerResource(
    {
      uri: definition.uri,
      name: definition.name,
      ...(definition.title === undefined ? {} : { title: definition.title }),
      ...(definition.description === undefined ? {} : { description: definition.description }),
      mimeType: UI_MIME_TYPE,
      ...(meta === undefined ? {} : { _meta: meta }),
    },
    async (uri) => {
      const html = typeof definition.html === 'function' ? await definition.html() : definition.html;
      return { contents: [{ uri, mimeType: UI_MIME_TYPE, text: html, ...(meta === undefined ? {} : { _meta: meta }) }] };
    },
    definition.cache === undefined ? undefined : { cache: definition.cache },
  );
}

/**
 * A tool definition linked to a view: `_meta.ui` set from `ui` (checked: a `ui://` resource URI, a non-empty
 * visibility of "model" and/or "app"), the rest of `_meta` kept. Pass the result to `server.registerTool`.
 */
export function appTool<const D extends { readonly name: string; readonly _meta?: { readonly [key: string]: unknown } }>(
  definition: D,
  ui: UiToolMeta,
): D & { readonly _meta: { readonly ui: UiToolMeta } } {
  if (ui.resourceUri !== undefined && !/^ui:\/\/[^\s]+$/.test(ui.resourceUri)) {
    throw new TypeError(`${definition.name}: _meta.ui.resourceUri must be a ui:// URI`);
  }
  if (ui.visibility !== undefined) {
    if (!Array.isArray(ui.visibility) || ui.visibility.length === 0 || ui.visibility.some((v) => v !== 'model' && v !== 'app')) {
      throw new TypeError(`${definition.name}: _meta.ui.visibility is a non-empty list of "model" and "app"`);
    }
  }
  return { ...definition, _meta: { ...definition._meta, ui: { ...ui } } };
}
