/**
 * The wire of MCP Apps (`io.modelcontextprotocol/ui`, SEP-1865, extension version 2026-01-26): the identifiers,
 * the MIME type of a view, the `_meta.ui` shapes of resources and tools, and the postMessage methods between a view
 * and its host.
 */

/** The extension's identifier in `capabilities.extensions`. */
export const UI_EXTENSION = 'io.modelcontextprotocol/ui';
/** The extension's version, sent in `ui/initialize`. */
export const UI_PROTOCOL_VERSION = '2026-01-26';
/** The MIME type of an HTML view. */
export const UI_MIME_TYPE = 'text/html;profile=mcp-app';
/** The scheme of UI resources. */
export const UI_SCHEME = 'ui://';

/** Origins a view may reach, per kind; each maps to CSP directives. Empty or absent: none. */
export interface UiResourceCsp {
  /** fetch/XHR/WebSocket (`connect-src`). */
  connectDomains?: string[];
  /** scripts, images, styles, fonts, media (`script-src`, `img-src`, `style-src`, `font-src`, `media-src`). */
  resourceDomains?: string[];
  /** nested iframes (`frame-src`; default `'none'`). */
  frameDomains?: string[];
  /** `base-uri` (default `'self'`). */
  baseUriDomains?: string[];
}

/** Browser permissions a view asks for (hosts may grant them through the iframe's `allow`). */
export interface UiPermissions {
  camera?: Record<string, never>;
  microphone?: Record<string, never>;
  geolocation?: Record<string, never>;
  clipboardWrite?: Record<string, never>;
}

/** `_meta.ui` of a UI resource (listing entry and read contents). */
export interface UiResourceMeta {
  csp?: UiResourceCsp;
  permissions?: UiPermissions;
  /** A dedicated sandbox origin; its format is the host's. */
  domain?: string;
  /** Ask for a visible border and background. */
  prefersBorder?: boolean;
}

/** Who may call a tool: the model (it is offered to the agent) and/or the app (views of the same server). */
export type UiVisibility = 'model' | 'app';

/** `_meta.ui` of a tool. */
export interface UiToolMeta {
  /** The `ui://` resource that renders this tool's results. */
  resourceUri?: string;
  /** Default `["model", "app"]`. */
  visibility?: UiVisibility[];
}

/** The client (host) side of the extension's settings. */
export interface UiClientCapability {
  /** The view types the host renders (`["text/html;profile=mcp-app"]`). */
  mimeTypes: string[];
}

/** Display modes of a view. */
export type UiDisplayMode = 'inline' | 'fullscreen' | 'pip';

/** The postMessage methods of the extension (view ↔ host). */
export const UI_METHODS = {
  initialize: 'ui/initialize',
  initialized: 'ui/notifications/initialized',
  toolInput: 'ui/notifications/tool-input',
  toolInputPartial: 'ui/notifications/tool-input-partial',
  toolResult: 'ui/notifications/tool-result',
  toolCancelled: 'ui/notifications/tool-cancelled',
  sizeChanged: 'ui/notifications/size-changed',
  hostContextChanged: 'ui/notifications/host-context-changed',
  teardown: 'ui/resource-teardown',
  openLink: 'ui/open-link',
  message: 'ui/message',
  requestDisplayMode: 'ui/request-display-mode',
  updateModelContext: 'ui/update-model-context',
  sandboxProxyReady: 'ui/notifications/sandbox-proxy-ready',
  sandboxResourceReady: 'ui/notifications/sandbox-resource-ready',
} as const;
