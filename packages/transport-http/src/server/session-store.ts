/**
 * Where the state of legacy sessions (2025-03-26 … 2025-11-25 Streamable HTTP) is recorded: everything needed to
 * serve a session again on a process that did not open it — its id, the negotiated revision, what the client
 * declared, its log level and resource subscriptions, and the principal it is bound to. The live part of a session
 * (its connection, its open streams) stays in the process serving it.
 */

/** The recorded state of one legacy session. Plain data: it serialises as JSON. */
export interface SessionState {
  /** The `Mcp-Session-Id`. */
  readonly id: string;
  /** The negotiated legacy revision. */
  readonly protocolVersion: string;
  /** The client's capabilities, as declared in `initialize`. */
  readonly clientCapabilities: Readonly<Record<string, unknown>>;
  /** The client's `clientInfo`, as sent in `initialize`. */
  readonly clientInfo?: Readonly<Record<string, unknown>>;
  /** The level set with `logging/setLevel`, when set. */
  readonly logLevel?: string;
  /** The URIs subscribed to with `resources/subscribe`. */
  readonly subscriptions: readonly string[];
  /** True once `notifications/initialized` arrived. */
  readonly initialized: boolean;
  /** The key of the authenticated principal the session is bound to, when authentication is on. */
  readonly principalKey?: string;
  /** When the session was opened (ms since the epoch). */
  readonly createdAt: number;
  /**
   * For a 2024-11-05 HTTP+SSE session (`protocolVersion` `2024-11-05`): the process holding its SSE stream (its tag
   * on the bus). The session lives as long as that stream; a message POSTed to another process is handed to it.
   */
  readonly sseHolder?: string;
}

/**
 * A store of session states. The handler writes a session's state when it opens and whenever the state changes
 * (`notifications/initialized`, `logging/setLevel`, `resources/(un)subscribe`), `touch`es active sessions at most
 * once per sweep, deletes ended ones, and calls `get` only for a session id this process does not serve.
 *
 * A shared implementation (several processes behind one address) must:
 * - make `set` visible to every process before the response that carries a new `Mcp-Session-Id` is sent (the
 *   client's next request may reach another process);
 * - expire a record that is not `touch`ed or `set` for the handler's `sessionIdleTimeoutMs`, and return
 *   `undefined` for it afterwards (the client then gets 404 and initializes again);
 * - make `delete` final: a deleted id is never served again anywhere;
 * - fail (throw or reject) rather than pretend: the handler answers 503 with `Retry-After` when `set` or `delete`
 *   fails, and acknowledges nothing it could not record;
 * - and, for delivery across processes, pair with an {@link EventStore} shared the same way and a `SessionBus`
 *   (the handler's `bus` option), which carries answers, cancellations and standalone-stream messages to the
 *   process they belong to.
 *
 * `origin` names the process making the change (the handler's tag on the bus), for a store that announces it.
 */
export interface SessionStore {
  get(id: string): SessionState | undefined | Promise<SessionState | undefined>;
  set(state: SessionState, origin?: string): void | Promise<void>;
  touch(id: string): void | Promise<void>;
  delete(id: string, origin?: string): void | Promise<void>;
  /**
   * True when `set` and `delete` announce the change on the deployment's bus themselves, in the same atomic step as
   * the change (a `state` message carrying the state, an `ended` message, each with the `origin` given): a change
   * that completes late (a store that timed out, then answered) is still announced, so no process keeps serving a
   * copy of a session that was deleted or changed. The handler then publishes nothing more about it.
   */
  readonly announcesChanges?: boolean;
}

/** The default {@link SessionStore}: a map in this process's memory (the handler caps its size with `maxSessions`). */
export class MemorySessionStore implements SessionStore {
  readonly #states = new Map<string, SessionState>();

  /** States held (for diagnostics and tests). */
  get size(): number {
    return this.#states.size;
  }

  get(id: string): SessionState | undefined {
    return this.#states.get(id);
  }

  set(state: SessionState): void {
    this.#states.set(state.id, state);
  }

  touch(): void {
    // Expiry is the handler's own sweep in a single process.
  }

  delete(id: string): void {
    this.#states.delete(id);
  }
}
