/** The types of the host's app bridge: what it needs from the MCP client, the host's hooks, its limits. */
import type { ToolLike } from '../visibility.js';
import type { UiDisplayMode, UiResourceMeta } from '../wire.js';

/**
 * What the bridge needs of the connection to the view's server. An `McpClient` of `@wiremcp/client` has all three;
 * so can a relay to one elsewhere (a worker, a host process).
 */
export interface AppServerConnection {
  callTool(name: string, args?: Record<string, unknown>): Promise<unknown>;
  readResource(uri: string): Promise<unknown>;
  listAllTools(): Promise<readonly ToolLike[]>;
}

/** A decision of the host (or its user): true allows. Refusals reach the view as an error; nothing is relayed. */
export type Consent<T> = (request: T) => boolean | Promise<boolean>;

/** The host's consent hooks; without one, the kind of request is allowed (tool calls and reads) or refused (the rest). */
export interface AppConsentHooks {
  /** A `tools/call` of an app-callable tool (default: allowed). */
  callTool?: Consent<{ name: string; arguments: Record<string, unknown> }>;
  /** A `resources/read` (default: allowed). */
  readResource?: Consent<{ uri: string }>;
  /** `ui/open-link` (default: refused). The host opens the link itself when it allows it. */
  openLink?: Consent<{ url: string }>;
  /** `ui/message`: a message for the conversation (default: refused). */
  message?: Consent<{ role: string; content: unknown }>;
  /** `ui/update-model-context` (default: refused). */
  updateModelContext?: Consent<{ content?: unknown; structuredContent?: unknown }>;
}

/** Limits on what a view may send. */
export interface AppBridgeLimits {
  /** Messages a second on average (default 50). */
  messagesPerSecond?: number;
  /** Messages in a burst (default 100). */
  burst?: number;
  /** Bytes of one message as JSON (default 1 MiB). */
  maxMessageBytes?: number;
  /** Requests relayed to the server at once (default 8). */
  maxPending?: number;
  /** Height in pixels the view may ask for (default 4000). */
  maxHeight?: number;
}

/** Why the bridge reports a problem: the view misbehaved, or the teardown went unanswered. */
export type AppBridgeProblem = 'flood' | 'oversized' | 'malformed' | 'forbidden-tool' | 'teardown-timeout';

/** Options of an app bridge. */
export interface AppBridgeOptions {
  /** The connection to the server the view belongs to. */
  server: AppServerConnection;
  /** An iframe in the host's page; the bridge sets its sandbox and document. */
  iframe: HTMLIFrameElement;
  /**
   * The view's HTML (the `ui://` resource's text), loaded as the iframe's `srcdoc` with the declared CSP in a `<meta>`.
   * A `srcdoc` document also inherits the CSP of the host's page, so a host with a strict policy of its own gives
   * `src` instead. Exactly one of `html` and `src`.
   */
  html?: string;
  /**
   * The http(s) URL of the view's document, served by the host from an origin of its own with the view's CSP in the
   * response header (`buildCsp`); the bridge loads it into the iframe (sandboxed to scripts only, as with `html`)
   * and applies no CSP itself. Exactly one of `html` and `src`.
   */
  src?: string;
  /** The resource's `_meta.ui`: its CSP and permissions. */
  resourceMeta?: UiResourceMeta;
  hostInfo: { name: string; version: string };
  /** Sent in the `ui/initialize` result (theme, locale, display mode, container dimensions…). */
  hostContext?: Record<string, unknown>;
  /** The tool call that opened the view: sent as `ui/notifications/tool-input` once the view is initialised. */
  toolInput?: Record<string, unknown>;
  consent?: AppConsentHooks;
  limits?: AppBridgeLimits;
  /** Display modes the host offers (default `["inline"]`). */
  displayModes?: UiDisplayMode[];
  /** The view asked for another size (after the bridge applied it to the iframe, within `maxHeight`). */
  onSizeChange?: (size: { width?: number; height?: number }) => void;
  /** A `notifications/message` from the view. */
  onLog?: (params: Record<string, unknown>) => void;
  /** The view misbehaved; reported once per kind until the next message of another kind. */
  onProblem?: (problem: AppBridgeProblem, detail: string) => void;
  /** The window the bridge listens on (default: the iframe's owner). */
  window?: Window;
}
