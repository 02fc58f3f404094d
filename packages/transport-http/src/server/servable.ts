/**
 * What the HTTP handler needs from the things it is given, described structurally so that this package depends on
 * neither `@wiremcp/server` nor `@wiremcp/auth`: a client-only user installs neither. `McpServer` satisfies
 * {@link HttpServable}; `createRequestAuthenticator` of `@wiremcp/auth/server` satisfies {@link HttpAuthenticator}.
 */
import type { LogLevel, RequestTarget, RpcNotification, RpcResponse } from '@wiremcp/protocol';
import type { MessageInfo, Transport } from '@wiremcp/jsonrpc';

/** What `dispatch` is given besides the message (the shape of `@wiremcp/server`'s `DispatchExchange`). */
export interface HttpDispatchExchange {
  readonly info?: MessageInfo;
  readonly signal?: AbortSignal;
  /** Cancellation without an `AbortSignal` (see `DispatchExchange.cancellable`); a servable may use either. */
  cancellable?(cancel: (reason: unknown) => void): void;
  notify(message: RpcNotification): void | Promise<void>;
}

/**
 * The state of a legacy session as a server holds it (the shape of `@wiremcp/server`'s `LegacySession`): what
 * {@link SessionState} records, and what `connect(transport, { restore })` gives back to a server on another
 * process.
 */
export interface LegacySessionSnapshot {
  readonly protocolVersion: string;
  readonly clientCapabilities: object;
  readonly clientInfo: object | undefined;
  readonly logLevel: LogLevel | undefined;
  readonly subscriptions: ReadonlySet<string> | readonly string[];
  readonly initialized: boolean;
}

/** One connection a server serves (the shape of `@wiremcp/server`'s `ServerConnection`). */
export interface HttpServedConnection {
  /** The legacy session once `initialize` succeeded (or once restored). */
  readonly session: LegacySessionSnapshot | undefined;
  /** Ends the connection gracefully: listen streams ended, requests in progress given `graceMs`. */
  close(graceMs?: number): Promise<void>;
  /**
   * Brings the legacy session to a state another process recorded (`ServerConnection.refreshSession`). Optional:
   * without it a copy in use keeps its state until it is dropped.
   */
  refreshSession?(state: LegacySessionSnapshot): void;
}

/** A tool's definition, as far as the handler reads it (`x-mcp-header` annotations of its `inputSchema`). */
export interface HttpToolDefinition {
  readonly inputSchema?: unknown;
}

/**
 * The MCP server the handler serves (`McpServer` of `@wiremcp/server`): `dispatch` serves each 2026-07-28 POST,
 * `connect` serves each legacy session over a transport of this package's making.
 */
export interface HttpServable {
  dispatch(message: unknown, exchange: HttpDispatchExchange): Promise<RpcResponse | undefined>;
  /**
   * Serves a transport. With `options.restore`, the connection starts with that legacy session already open
   * (a session created on another process, rehydrated from a shared {@link SessionStore}). While `options.relayed`
   * returns true, the session also hears the list changes and resource updates of the other processes (this process
   * holds its standalone stream). `options.holdClose`: what the server's own `close` waits for before closing the
   * transport (a draining process handing the session's standalone stream over to another one).
   */
  connect(
    transport: Transport,
    options?: { restore?: LegacySessionSnapshot; relayed?: () => boolean; holdClose?: () => Promise<void> },
  ): Promise<HttpServedConnection>;
  /**
   * The definition of an enabled tool, for checking `Mcp-Param-*` headers against `x-mcp-header` annotations.
   * Optional: without it those headers are not checked.
   */
  tool?(name: string): HttpToolDefinition | undefined;
  /**
   * Relays server-wide events between processes (`McpServer.relayEvents`): the handler, given a `bus`, publishes
   * what `publish` receives and delivers the other processes' events. Optional: without it listen streams hear
   * only the events of their own process.
   */
  relayEvents?(publish: (event: object) => void): HttpEventRelay;
  /**
   * The operation that created a task, when the caller `info` describes (a legacy session's id and principal key,
   * or nothing for a 2026-07-28 request) may see the task in `era`: its follow-ups are authorized against that
   * operation too. Optional: without it a follow-up is authorized as the method it is.
   */
  taskOrigin?(taskId: string, era: 'legacy' | 'modern', info: MessageInfo): Promise<HttpTaskOrigin | undefined>;
}

/** What {@link HttpServable.taskOrigin} returns: the method that created a task and what it acted on. */
export interface HttpTaskOrigin {
  readonly method: string;
  readonly targets: readonly RequestTarget[];
}

/** The relay {@link HttpServable.relayEvents} returns (`ServerEventRelay` of `@wiremcp/server`). */
export interface HttpEventRelay {
  deliver(event: unknown): void;
  stop(): void;
  /**
   * The id of the server event whose notifications are being sent at this moment (raised here, or delivered), else
   * `undefined`. Optional: without it a standalone stream handed over between processes may carry an event raised
   * on the releasing process in the hand-over's window twice (under two event ids).
   */
  readonly current?: string | undefined;
}

/** What the handler tells the authenticator about a request (`AuthenticateContext` of `@wiremcp/auth/server`). */
export interface HttpAuthContext {
  /** The public URL of the MCP endpoint the request addressed. */
  readonly resource: URL;
  /** The JSON-RPC method of the operation to authorize, read from the validated body (`authorize` only). */
  readonly method?: string;
  /** What the operation acts on (`requestTargets` of `@wiremcp/protocol`, task origins resolved). */
  readonly targets?: readonly RequestTarget[];
  /**
   * What the headers announce before the body is read (`authenticate` only): it chooses which scopes a refusal's
   * challenge names, and decides nothing.
   */
  readonly announced?: { readonly method: string; readonly targets?: readonly RequestTarget[] };
}

/** The outcome of {@link HttpAuthenticator.authenticate}: the caller, or the response to send instead. */
export type HttpAuthResult =
  { readonly principal: unknown; readonly headers?: Readonly<Record<string, string>> } | { readonly response: Response };

/**
 * The resource-server hook (`RequestAuthenticator` of `@wiremcp/auth/server`). The handler routes
 * `protectedResourceMetadata` first, calls `authenticate` for every request before its body is read (the token, and
 * the scopes every request needs; never an operation's), and `authorize` once for every message the request carries,
 * from its validated body, on every route (see `authorize.ts`).
 */
export interface HttpAuthenticator {
  authenticate(request: Request, context: HttpAuthContext): Promise<HttpAuthResult>;
  authorize(principal: unknown, context: HttpAuthContext): Response | undefined;
  protectedResourceMetadata(request: Request): Response | undefined;
}
