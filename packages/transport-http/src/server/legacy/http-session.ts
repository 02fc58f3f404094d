/**
 * One legacy Streamable HTTP session (2025-03-26 … 2025-11-25): its id, the principal it is bound to, the server
 * connection serving it, and the POST, GET and DELETE requests made in it. Its state is written to the session store
 * when it opens and whenever it changes, so another process can serve it again.
 */
import type { MessageInfo } from '@wiremcp/jsonrpc';
import { messageKind, MessageKind } from '@wiremcp/jsonrpc';
import { supportsBatching, type RequestId, type RpcRequest } from '@wiremcp/protocol';
import type { EventStore } from '../event-store.js';
import { httpMessageInfo } from '../message-info.js';
import { emptyResponse, rpcErrorResponse } from '../responses.js';
import type { HttpServable, HttpServedConnection, LegacySessionSnapshot } from '../servable.js';
import type { SessionState, SessionStore } from '../session-store.js';
import type { SsePool } from '../sse-connection.js';
import { PostExchange } from './post-exchange.js';
import { SessionTransport, type SessionTransportBus } from './session-transport.js';
import type { HttpReply, HttpRequest } from '../adapter-contract.js';

/** What a session needs from the handler. */
export interface SessionHost {
  readonly server: HttpServable;
  readonly pool: SsePool;
  readonly store: EventStore | undefined;
  readonly sessionStore: SessionStore;
  readonly maxStreamsPerSession: number;
  readonly maxQueuedEvents: number;
  readonly retryMs: number;
  readonly report: (error: unknown) => void;
  now(): number;
  newStreamId(): string;
  /** The session's transport closed: forget it. */
  ended(session: HttpSession): void;
  /** The bus to the other processes, when sessions are shared (see `SessionBus`). */
  readonly bus?: SessionTransportBus;
  /** How often the process running a stream resumed here is checked, in ms. */
  readonly ownerCheckMs: number;
}

/** Methods after whose answer the session's recorded state may have changed. */
const STATEFUL = new Set(['logging/setLevel', 'resources/subscribe', 'resources/unsubscribe']);

/** The body of one POST in a session, already classified. */
export interface SessionPost {
  readonly body: unknown;
  /** The requests in it (one, or several in a 2025-03-26 batch). */
  readonly requests: readonly RpcRequest[];
  /** The ids of {@link requests}, in order. */
  readonly ids: readonly RequestId[];
  /** Every method in it, for the state bookkeeping. */
  readonly methods: readonly string[];
  /** True when one of {@link methods} may change the session's recorded state (it is recorded after the answer). */
  readonly stateful: boolean;
}

/** See the module comment. */
export class HttpSession {
  readonly id: string;
  readonly principalKey: string | undefined;
  readonly createdAt: number;
  lastActivityAt: number;
  readonly transport: SessionTransport;
  #connection: HttpServedConnection | undefined;
  readonly #host: SessionHost;
  #closing: Promise<void> | undefined;
  #keepsShared = false;
  #deletedFromStore = false;
  /** A drain's hand-over of the standalone stream (see `end`), which the server's own `close` waits for too. */
  #handingOver: Promise<void> | undefined;
  /** See `LiveSession.verifiedEpoch` (set when sessions are shared). */
  verifiedEpoch: number | undefined;

  constructor(host: SessionHost, id: string, principalKey: string | undefined, createdAt?: number) {
    this.#host = host;
    this.id = id;
    this.principalKey = principalKey;
    this.createdAt = createdAt ?? host.now();
    this.lastActivityAt = host.now();
    this.transport = new SessionTransport({
      sessionId: id,
      store: host.store,
      pool: host.pool,
      maxStreamsPerSession: host.maxStreamsPerSession,
      maxQueuedEvents: host.maxQueuedEvents,
      retryMs: host.retryMs,
      report: host.report,
      primes: () => host.store !== undefined && (this.protocolVersion ?? '') >= '2025-11-25',
      newStreamId: () => host.newStreamId(),
      closed: () => this.#ended(),
      keptElsewhere: () => this.#keepsShared,
      ownerCheckMs: host.ownerCheckMs,
      ...(host.bus === undefined ? {} : { bus: host.bus }),
    });
  }

  /** The negotiated revision, once initialized. */
  get protocolVersion(): string | undefined {
    return this.#connection?.session?.protocolVersion;
  }

  /**
   * True when the session ended here only (this process's copy was dropped), not everywhere: its recorded state and
   * events stay in the shared stores, for the other processes.
   */
  get keepsShared(): boolean {
    return this.#keepsShared;
  }

  /** True once a DELETE removed its record from the session store. */
  get deletedFromStore(): boolean {
    return this.#deletedFromStore;
  }

  /** True once this copy started to end (see `LiveSession.closing`). */
  get closing(): boolean {
    return this.#closing !== undefined;
  }

  /**
   * Drops this process's copy of a shared session (idle here, changed elsewhere, or this process shutting down,
   * which gives requests in progress `graceMs`); the shared state stays.
   */
  forget(graceMs = 0): Promise<void> {
    if (this.#closing === undefined) this.#keepsShared = true;
    return this.end(graceMs);
  }

  /** True while a request is being answered or a stream is open. */
  get busy(): boolean {
    return this.transport.busy;
  }

  /** Connects the server (restoring a recorded session when given one). */
  async connect(restore?: LegacySessionSnapshot): Promise<void> {
    // With a bus, the copy holding the standalone stream hears the other processes' list changes and resource
    // updates, and only it: each reaches the session once.
    const relayed = this.#host.bus === undefined ? undefined : () => this.transport.holdsStandalone;
    const holdClose = (): Promise<void> => this.#handingOver ?? Promise.resolve();
    const options = { ...(restore === undefined ? {} : { restore }), ...(relayed === undefined ? {} : { relayed, holdClose }) };
    this.#connection = await this.#host.server.connect(this.transport, options);
  }

  /** Brings this copy to a state recorded by another process (failures reported). */
  refresh(state: SessionState): void {
    try {
      this.#connection?.refreshSession?.(snapshotOf(state));
    } catch (error) {
      this.#host.report(error);
    }
  }

  /**
   * Serves a DELETE: the record is deleted from the session store first — when that fails, nothing ends and the
   * answer is 503 — then the session ends here, and the other processes drop their copies.
   */
  async delete(): Promise<HttpReply> {
    const bus = this.#host.bus;
    try {
      await this.#host.sessionStore.delete(this.id, bus?.origin);
    } catch (error) {
      this.#host.report(error);
      return storeUnavailable(null);
    }
    this.#deletedFromStore = true;
    await this.end();
    if (bus !== undefined && this.#host.sessionStore.announcesChanges !== true) {
      bus.publish({ kind: 'ended', origin: bus.origin, sessionId: this.id });
    }
    return emptyResponse(200);
  }

  /**
   * Serves the `initialize` POST that opens this session. Resolves with the response and whether the session
   * opened (the response then carries `Mcp-Session-Id`, and the state is stored first).
   */
  async initialize(request: RpcRequest, info: MessageInfo): Promise<{ response: HttpReply; opened: boolean }> {
    const exchange = new PostExchange(this.transport, [request.id], { 'mcp-session-id': this.id });
    this.transport.register(exchange);
    this.transport.deliver(request, info);
    const response = await exchange.response;
    if (this.#connection?.session === undefined) {
      response.headers.delete('mcp-session-id');
      await this.end(0);
      return { response, opened: false };
    }
    try {
      await this.#host.sessionStore.set(this.state(), this.#host.bus?.origin);
    } catch (error) {
      // Not recorded, so not servable by another process: the session does not open.
      this.#host.report(error);
      await this.end(0);
      return { response: storeUnavailable(request.id), opened: false };
    }
    return { response, opened: true };
  }

  /** Serves a POST of the session (after the caller checked batching, duplicates and authorization). */
  post(request: HttpRequest, post: SessionPost, auth: unknown, clientAddress?: string): Promise<HttpReply> {
    this.lastActivityAt = this.#host.now();
    const transport = this.transport;
    if (post.requests.length === 0) {
      transport.deliver(
        post.body,
        httpMessageInfo(request, auth, { sessionId: this.id, principalKey: this.principalKey }, { clientAddress }),
      );
      // Recorded before the 202, so the client's next request finds the session initialized on any process.
      if (post.methods.includes('notifications/initialized')) {
        return this.#record().then((recorded) => (recorded ? emptyResponse(202) : storeUnavailable(null)));
      }
      return Promise.resolve(emptyResponse(202));
    }
    const exchange = new PostExchange(transport, post.ids);
    const closeSseStream = this.#host.store === undefined ? undefined : () => exchange.disconnect();
    const closeStandaloneSseStream = this.#host.store === undefined ? undefined : () => transport.disconnectStandalone();
    transport.register(exchange);
    transport.deliver(
      post.body,
      httpMessageInfo(
        request,
        auth,
        { sessionId: this.id, principalKey: this.principalKey, closeSseStream, closeStandaloneSseStream },
        { clientAddress },
      ),
    );
    if (post.stateful) {
      return exchange.response.then(async (response) => {
        if (await this.#record()) return response;
        // Not recorded: the change is not acknowledged (the stream, if it was one, is dropped unread).
        if (typeof response.body === 'object') await response.body.cancel().catch(() => {});
        return storeUnavailable(post.requests.length === 1 ? post.requests[0]!.id : null);
      });
    }
    return exchange.response;
  }

  /** Why a POST cannot be served as it is (`undefined` when it can): a batch outside 2025-03-26, a duplicate id. */
  postRefusal(post: SessionPost): HttpReply | undefined {
    if (Array.isArray(post.body) && !supportsBatching(this.protocolVersion)) {
      return rpcErrorResponse(400, null, -32600, 'Invalid request: JSON-RPC batches are not supported by the negotiated protocol version');
    }
    const requests = post.requests;
    if (requests.length === 1) {
      const id = requests[0]!.id;
      return this.transport.hasRequest(id)
        ? rpcErrorResponse(400, id, -32600, 'Invalid request: this id is already in use by a request in progress')
        : undefined;
    }
    const seen = new Set<RequestId>();
    for (const { id } of requests) {
      if (seen.has(id) || this.transport.hasRequest(id)) {
        return rpcErrorResponse(400, id, -32600, 'Invalid request: this id is already in use by a request in progress');
      }
      seen.add(id);
    }
    return undefined;
  }

  /** Serves a GET: the standalone stream, or a resumption with `Last-Event-ID`. */
  async get(request: HttpRequest): Promise<HttpReply> {
    this.lastActivityAt = this.#host.now();
    const refusal = this.transport.streamRefusal();
    if (refusal !== undefined)
      return rpcErrorResponse(refusal.status, null, -32600, refusal.message, undefined, retryAfter(refusal.status));
    const lastEventId = request.headers.get('last-event-id');
    if (lastEventId !== null && this.#host.store !== undefined) {
      const resumed = await this.transport.resume(lastEventId.trim());
      return resumed ?? rpcErrorResponse(400, null, -32600, 'Cannot resume: the event id is unknown or its events are no longer kept');
    }
    if (this.transport.standaloneConnected) {
      return rpcErrorResponse(409, null, -32600, 'Conflict: this session already has a standalone SSE stream open');
    }
    return this.transport.openStandalone().response;
  }

  /** Ends the session: listen streams ended, requests in progress given `graceMs`, then everything closed. */
  end(graceMs = 1000): Promise<void> {
    this.#closing ??= (async () => {
      try {
        // Dropped while the session lives on elsewhere (a drain): the standalone stream's client resumes on another
        // process, and this copy keeps its events until that process took the stream over (no event between).
        const started = this.#host.now();
        if (this.#keepsShared && graceMs > 0) await (this.#handingOver = this.transport.handOverStandalone(graceMs));
        if (this.#connection) await this.#connection.close(Math.max(0, graceMs - (this.#host.now() - started)));
      } finally {
        await this.transport.close();
      }
    })();
    return this.#closing;
  }

  /** The recorded state (what a {@link SessionStore} keeps). */
  state(): SessionState {
    const session = this.#connection?.session;
    const state: SessionState = {
      id: this.id,
      protocolVersion: session?.protocolVersion ?? '',
      clientCapabilities: (session?.clientCapabilities ?? {}) as Readonly<Record<string, unknown>>,
      subscriptions: [...(session?.subscriptions ?? [])],
      initialized: session?.initialized ?? false,
      createdAt: this.createdAt,
    };
    const extra = state as { clientInfo?: unknown; logLevel?: string; principalKey?: string };
    if (session?.clientInfo !== undefined) extra.clientInfo = session.clientInfo;
    if (session?.logLevel !== undefined) extra.logLevel = session.logLevel;
    if (this.principalKey !== undefined) extra.principalKey = this.principalKey;
    return state;
  }

  /**
   * Records the state, then tells the other processes it changed; false when the store failed (reported). This copy
   * is then dropped: it holds a change the store does not, and the next request restores the recorded state.
   */
  async #record(): Promise<boolean> {
    if (this.transport.isClosed) return true;
    const bus = this.#host.bus;
    const state = this.state();
    try {
      await this.#host.sessionStore.set(state, bus?.origin);
    } catch (error) {
      this.#host.report(error);
      if (bus !== undefined) void this.forget();
      return false;
    }
    if (bus !== undefined && this.#host.sessionStore.announcesChanges !== true) {
      bus.publish({ kind: 'state', origin: bus.origin, sessionId: this.id, state });
    }
    return true;
  }

  #ended(): void {
    this.#host.ended(this);
  }
}

/** The 503 for a session store that cannot be reached (Redis down): the client retries later. */
export function storeUnavailable(id: RequestId | null): HttpReply {
  return rpcErrorResponse(503, id, -32603, 'Service unavailable: the session store cannot be reached; try again later', undefined, {
    'retry-after': '1',
  });
}

/** `Retry-After` for a refusal that will pass later. */
export function retryAfter(status: number): Record<string, string> | undefined {
  return status === 503 || status === 429 ? { 'retry-after': '5' } : undefined;
}

/** The snapshot a recorded state restores (what `connect(transport, { restore })` is given). */
export function snapshotOf(state: SessionState): LegacySessionSnapshot {
  return {
    protocolVersion: state.protocolVersion,
    clientCapabilities: state.clientCapabilities,
    clientInfo: state.clientInfo,
    logLevel: state.logLevel as LegacySessionSnapshot['logLevel'],
    subscriptions: state.subscriptions,
    initialized: state.initialized,
  };
}

const NONE: readonly never[] = Object.freeze([]);

/** Classifies a POST body of a session (`undefined` when an element is not a valid message). */
export function classifyPost(body: unknown): SessionPost | undefined {
  if (!Array.isArray(body)) {
    // One message (every revision but 2025-03-26 sends only these): no list is built to walk it.
    const kind = messageKind(body);
    if (kind === MessageKind.Invalid) return undefined;
    if (kind !== MessageKind.Request && kind !== MessageKind.Notification)
      return { body, requests: NONE, ids: NONE, methods: NONE, stateful: false };
    const method = (body as { method: string }).method;
    const request = kind === MessageKind.Request ? (body as RpcRequest) : undefined;
    return {
      body,
      requests: request === undefined ? NONE : [request],
      ids: request === undefined ? NONE : [request.id],
      methods: [method],
      stateful: STATEFUL.has(method),
    };
  }
  const requests: RpcRequest[] = [];
  const ids: RequestId[] = [];
  const methods: string[] = [];
  let stateful = false;
  for (const message of body) {
    const kind = messageKind(message);
    if (kind === MessageKind.Invalid) return undefined;
    if (kind === MessageKind.Request) {
      requests.push(message as RpcRequest);
      ids.push((message as RpcRequest).id);
    }
    if (kind === MessageKind.Request || kind === MessageKind.Notification) {
      const method = (message as { method: string }).method;
      methods.push(method);
      stateful ||= STATEFUL.has(method);
    }
  }
  return { body, requests, ids, methods, stateful };
}
