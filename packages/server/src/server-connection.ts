/**
 * One transport served by a server: a JSON-RPC peer, the legacy session `initialize` may open on it, and the
 * listen streams opened on it. Requests carrying the 2026-07-28 `_meta` are served statelessly on the same
 * connection. Every request goes through the server's router; this file only wires the peer to it and owns what
 * lives and dies with the connection.
 */
import type { JsonObject } from '@wiremcp/protocol';
import { endOperation, startOperation, startSession, type Instrumentation, type MessageInfo, type Transport } from '@wiremcp/jsonrpc';
import {
  openLegacySession,
  restoreLegacySession,
  type LegacyHost,
  type LegacySession,
  type LegacySessionRestore,
  type LegacySessionState,
} from './legacy-session.js';
import type { ListenStream } from './listen-streams.js';
import type { RequestOrigin } from './method-table.js';
import type { Outcome, ServerPeer, ServerRequestContext, WireParams } from './server-peer.js';
import type { ConnectOptions } from './mcp-server.js';

/** One transport served by an `McpServer` (what `connect` returns). */
export interface ServerConnection {
  /** The JSON-RPC engine of this connection (for diagnostics: requests in flight, the transport). */
  readonly peer: ServerPeer;
  /** The legacy session, once `initialize` succeeded. */
  readonly session: LegacySession | undefined;
  /**
   * Ends the connection's listen streams (`notifications/cancelled`, then each one's response), waits up to
   * `graceMs` (default 1 000) for requests in progress, then closes the transport.
   */
  close(graceMs?: number): Promise<void>;
  /**
   * Brings the legacy session to a state another process recorded (a session shared through a session store, changed
   * by a request served elsewhere): its log level, `initialized`, and its subscriptions — those no longer recorded
   * end (`onUnsubscribe`), new ones start (`onSubscribe`, as for a restored session). Throws `INVALID_ARGUMENT` for a
   * bad log level; does nothing before `initialize` or once closed.
   */
  refreshSession(state: LegacySessionRestore): void;
}

/** What a connection needs from its server. */
export interface ConnectionHost extends LegacyHost {
  readonly router: { serve(method: string, params: WireParams, rpc: ServerRequestContext, origin: RequestOrigin): Outcome<JsonObject> };
  /** Observes the notifications the connection receives, when set. */
  readonly instrumentation: Instrumentation | undefined;
}

/** The server's hooks a connection calls. */
export interface ConnectionEvents {
  /** A legacy client sent `notifications/initialized`. */
  initialized(connection: ServerConnection): void;
  /** A legacy client sent `notifications/roots/list_changed`. */
  rootsListChanged(connection: ServerConnection): void;
  /** The transport closed. */
  closed(connection: ServerConnection): void;
}

/** What the router sees of a connection: a {@link RequestOrigin} whose session `initialize` sets. */
interface ConnectionOrigin extends RequestOrigin {
  session: LegacySessionState | undefined;
}

/** The {@link ServerConnection} implementation. */
export class Connection implements ServerConnection {
  readonly peer: ServerPeer;
  readonly #listens = new Set<ListenStream>();
  /** What the router sees of this connection; `session` is set by `initialize`. */
  readonly #origin: ConnectionOrigin;
  #restored = false;
  /** Ends the observation of the session (instrumentation), when one was started. */
  #endSession: (() => void) | undefined;

  readonly #holdClose: (() => Promise<void>) | undefined;

  constructor(host: ConnectionHost, events: ConnectionEvents, peer: ServerPeer, options: ConnectOptions = {}) {
    this.peer = peer;
    const { restore, relayed } = options;
    this.#holdClose = options.holdClose;
    const origin: ConnectionOrigin = {
      session: undefined,
      listens: this.#listens,
      initialize: (params, rpc) => {
        const { session, result } = openLegacySession(host, params, rpc, peer, origin.session);
        session.relayed = relayed;
        origin.session = session;
        host.subscribers.add(session);
        this.#observeSession(host, session.protocolVersion, rpc.info?.sessionId);
        return result;
      },
    };
    this.#origin = origin;
    if (restore !== undefined) {
      origin.session = restoreLegacySession(host, restore, peer);
      origin.session.relayed = relayed;
      this.#restored = true;
      host.subscribers.add(origin.session);
      this.#observeSession(host, origin.session.protocolVersion, undefined);
    }
    const instrumentation = host.instrumentation;
    if (instrumentation) peer.onnotification = observeNotifications(instrumentation, origin, (error) => host.report(error, {}));
    peer.setFallbackRequestHandler((method, params, rpc) => host.router.serve(method, params, rpc, this.#origin));
    peer.setNotificationHandler('notifications/initialized', () => {
      if (!this.#origin.session) return;
      this.#origin.session.initialized = true;
      events.initialized(this);
    });
    peer.setNotificationHandler('notifications/roots/list_changed', () => {
      if (this.#origin.session) events.rootsListChanged(this);
    });
    // stdin EOF is a stdio client asking the server to shut down; stdout is still read until the server exits.
    peer.oninputend = () => this.#endListens('the server is shutting down');
    peer.onclose = () => {
      this.#endSession?.();
      const session = this.#origin.session;
      if (session) {
        host.subscribers.delete(session);
        session.close();
      }
      events.closed(this);
    };
  }

  #observeSession(host: ConnectionHost, protocolVersion: string, sessionId: string | undefined): void {
    const instrumentation = host.instrumentation;
    if (instrumentation === undefined) return;
    this.#endSession?.();
    const report = (error: unknown): void => host.report(error, {});
    this.#endSession = startSession(
      instrumentation,
      { side: 'server', protocolVersion, ...(sessionId === undefined ? {} : { sessionId }) },
      report,
    );
  }

  get session(): LegacySession | undefined {
    return this.#origin.session;
  }

  refreshSession(state: LegacySessionRestore): void {
    this.#origin.session?.refresh(state);
  }

  /** Connects the peer to `transport`. */
  async start(transport: Transport): Promise<void> {
    await this.peer.connect(transport);
    // A restored session's subscriptions start now, when their hooks can talk to the client.
    if (this.#restored) this.#origin.session?.startRestoredSubscriptions();
  }

  async close(graceMs = 1000): Promise<void> {
    this.#endListens('the server is closing');
    await this.#holdClose?.().catch(() => {});
    if (this.peer.inflightCount > 0) {
      let timer: ReturnType<typeof setTimeout> | undefined;
      await Promise.race([this.peer.drain(), new Promise<void>((resolve) => (timer = setTimeout(resolve, graceMs)))]);
      clearTimeout(timer);
    }
    await this.peer.close();
  }

  /**
   * Tears down every open listen stream: the spec asks a server that tears one down to send
   * `notifications/cancelled` for the listen request (stdio) and, when ending gracefully, its response.
   */
  #endListens(reason: string): void {
    for (const stream of [...this.#listens]) stream.end(reason);
  }
}

/** Observes each received notification as an operation that ends as soon as it arrives. */
function observeNotifications(
  instrumentation: Instrumentation,
  origin: ConnectionOrigin,
  report: (error: unknown) => void,
): (method: string, params: Record<string, unknown> | undefined, info: MessageInfo | undefined) => void {
  return (method, params, info) => {
    const operation = {
      side: 'server',
      kind: 'notification',
      method,
      params,
      protocolVersion: origin.session?.protocolVersion,
      sessionId: info?.sessionId,
      info,
    } as const;
    const observer = startOperation(instrumentation, operation, report);
    if (observer !== undefined) endOperation(observer, { result: undefined }, report);
  };
}
