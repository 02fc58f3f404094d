/**
 * The inspector's `app-view` operation: the page names a `ui://` resource (linked from a tool's or a result's
 * `_meta.ui.resourceUri`); the inspector reads it from its own target, checks that it is an MCP Apps view
 * (`text/html;profile=mcp-app`, within the size a host accepts, with a CSP declaration that `buildCsp` accepts) and
 * registers it on the view server, whose URL the page loads into a sandboxed frame. The page never supplies HTML:
 * what runs on the view origin is what the server sent.
 */
import { buildCsp, UI_MIME_TYPE, type UiResourceMeta } from '@wiremcp/ext-apps';
import { MAX_VIEW_HTML_BYTES } from '@wiremcp/ext-apps/host';
import type { McpClient } from '@wiremcp/client';
import { InspectorError } from './inspector-session.js';
import type { ViewServer } from './view-server.js';

/** What {@link appViewOperations} needs. */
export interface AppViewsOptions {
  /** The connected client (an {@link InspectorError} when there is none). */
  readonly client: () => McpClient;
  readonly views: Pick<ViewServer, 'register'>;
}

const isRecord = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);

/** The page's `app-view` operation: `{ uri }` → `{ url, uri, resourceMeta, csp }`. */
export function appViewOperations(options: AppViewsOptions): { 'app-view': (params: Record<string, unknown>) => Promise<unknown> } {
  return {
    'app-view': async (params) => {
      const uri = params.uri;
      if (typeof uri !== 'string' || !/^ui:\/\/\S{1,2000}$/.test(uri)) throw new InspectorError("'uri' must be a ui:// URI");
      const read = (await options.client().readResource(uri)) as { contents?: unknown };
      const contents = Array.isArray(read.contents) ? read.contents.filter(isRecord) : [];
      const view = contents.find((item) => item.mimeType === UI_MIME_TYPE && typeof item.text === 'string');
      if (view === undefined)
        throw new InspectorError(`${uri.slice(0, 200)} is not an MCP Apps view: no ${UI_MIME_TYPE} text among its contents`, 422);
      const html = view.text as string;
      if (Buffer.byteLength(html, 'utf8') > MAX_VIEW_HTML_BYTES)
        throw new InspectorError(`the view is larger than ${MAX_VIEW_HTML_BYTES} bytes: not shown`, 422);
      const meta = isRecord(view._meta) && isRecord(view._meta.ui) ? (view._meta.ui as UiResourceMeta) : {};
      let csp: string;
      try {
        csp = buildCsp(meta.csp);
      } catch (error) {
        // A host must not loosen a policy it cannot read: the view is not shown.
        throw new InspectorError(`the view declares a CSP the inspector refuses: ${(error as Error).message.slice(0, 500)}`, 422);
      }
      return { uri, url: options.views.register(html, csp), resourceMeta: meta, csp };
    },
  };
}
