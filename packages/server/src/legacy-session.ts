/**
 * The legacy (initialize) era on one connection: the handshake that opens a session, the session's state (the
 * negotiated revision, the client's capabilities, its log level and resource subscriptions), and the session as
 * a subscriber of the server-wide notifications.
 */
import {
  ErrorCode,
  hasCapability,
  invalidParams,
  invalidRequest,
  isLogLevel,
  LocalError,
  negotiateLegacyVersion,
  quoteInput,
  RpcError,
  shouldLog,
  supportsBatching,
  truncateInput,
  type EraNeutralResult,
  type LegacyProtocolVersion,
  type LogLevel,
  type ProtocolVersion,
  type Spec2025_11_25,
} from '@wiremcp/protocol';
import { RequestContext, type InternalErrorReporter } from '@wiremcp/jsonrpc';
import { implementationFor } from './capabilities.js';
import { RequestHandlerContext, type HandlerContext, type RequestScope } from './handler-context.js';
import type { Outcome, ServerPeer, ServerRequestContext, WireParams } from './server-peer.js';
import { endSubscription, refusal, startSubscription, type SubscriptionHooks } from './subscription-hooks.js';
import type { ListKind, Subscriber, SubscriberRegistry } from './subscriber-registry.js';
import type { Implementation } from './types.js';

/** The state of a legacy (initialize) session on one connection. */
export interface LegacySession extends RequestScope {
  readonly era: 'legacy';
  readonly protocolVersion: LegacyProtocolVersion;
  /** The minimum level of server-wide and per-request log messages (`logging/setLevel`; all until set). */
  readonly logLevel: LogLevel | undefined;
  /** True once `notifications/initialized` arrived. */
  readonly initialized: boolean;
  /** The server capabilities announced in the initialize result. */
  readonly serverCapabilities: Readonly<Record<string, unknown>>;
  /** URIs the client subscribed to with `resources/subscribe`. */
  readonly subscriptions: ReadonlySet<string>;
}

/** What opening a session needs from the server. */
export interface LegacyHost {
  readonly info: Implementation;
  readonly instructions: string | undefined;
  readonly versions: readonly ProtocolVersion[];
  readonly legacyVersions: readonly LegacyProtocolVersion[];
  capabilitiesFor(version: ProtocolVersion): Readonly<Record<string, unknown>>;
  readonly subscribers: SubscriberRegistry;
  /** Compiles tool schemas soon after a handshake, off the handshake's own path. */
  scheduleWarmUp(): void;
  /** The author's subscription hooks. */
  readonly subscriptionHooks: SubscriptionHooks;
  /** Receives internal errors (a failing `onUnsubscribe`). */
  readonly report: InternalErrorReporter;
}

const DONE: EraNeutralResult<'resources/subscribe'> = Object.freeze({});
const NO_SUBSCRIPTIONS: ReadonlySet<string> = new Set();

/** The session of one connection; it hears server-wide events and forwards what the client asked for. */
export class LegacySessionState implements LegacySession, Subscriber {
  readonly era = 'legacy' as const;
  logLevel: LogLevel | undefined = 'debug';
  initialized = false;
  #subscriptions: Set<string> | undefined;
  readonly #peer: ServerPeer;
  readonly #host: Pick<LegacyHost, 'subscriptionHooks' | 'report'>;
  /** The URIs subscribed to (see {@link LegacySession.subscriptions}). */
  get subscriptions(): ReadonlySet<string> {
    return this.#subscriptions ?? NO_SUBSCRIPTIONS;
  }
  // These three are made on first use: most sessions never subscribe, and an idle session should cost little heap.
  /** The request that subscribed to each URI (what `onUnsubscribe` gets back). */
  #contexts: Map<string, HandlerContext> | undefined;
  /** Subscriptions whose `onSubscribe` has not settled yet. */
  #pending: Map<string, Promise<void>> | undefined;
  #closed = false;
  /** See `ConnectOptions.relayed`. */
  relayed: (() => boolean) | undefined;

  constructor(
    peer: ServerPeer,
    host: Pick<LegacyHost, 'subscriptionHooks' | 'report'>,
    readonly protocolVersion: LegacyProtocolVersion,
    readonly clientCapabilities: Readonly<Spec2025_11_25.ClientCapabilities>,
    readonly clientInfo: Implementation | undefined,
    readonly serverCapabilities: Readonly<Record<string, unknown>>,
  ) {
    this.#peer = peer;
    this.#host = host;
  }

  /** True while the transport says this session hears the events of other processes (see `ConnectOptions.relayed`). */
  get hearsOtherProcesses(): boolean {
    return this.relayed?.() === true;
  }

  /** See `ServerConnection.refreshSession`. */
  refresh(state: LegacySessionRestore): void {
    if (this.#closed) return;
    if (state.logLevel !== undefined && !isLogLevel(state.logLevel)) {
      throw new LocalError('INVALID_ARGUMENT', `Cannot refresh a session with log level ${quoteInput(state.logLevel)}`);
    }
    this.logLevel = state.logLevel ?? 'debug';
    if (state.initialized !== undefined) this.initialized = state.initialized;
    const recorded = new Set<string>();
    for (const uri of state.subscriptions ?? []) if (typeof uri === 'string') recorded.add(uri);
    for (const uri of [...this.subscriptions]) if (!recorded.has(uri)) void this.unsubscribe(uri);
    let added = false;
    for (const uri of recorded) {
      if (this.subscriptions.has(uri) || this.#pending?.has(uri)) continue;
      this.restoreSubscription(uri);
      added = true;
    }
    if (added) this.startRestoredSubscriptions();
  }

  /** `resources/subscribe`: once per URI, after `onSubscribe` accepted it. */
  subscribe(uri: string, context: HandlerContext): Outcome<EraNeutralResult<'resources/subscribe'>> {
    if (this.subscriptions.has(uri)) return DONE;
    const pending = this.#pending?.get(uri);
    if (pending) return pending.then(() => DONE);
    const settled = this.#start(uri, context, (error) => {
      throw refusal(uri, error);
    });
    return settled === undefined ? DONE : settled.then(() => DONE);
  }

  /** `resources/unsubscribe` (after a pending subscription to the same URI settled). */
  unsubscribe(uri: string): Outcome<EraNeutralResult<'resources/unsubscribe'>> {
    const pending = this.#pending?.get(uri);
    if (pending) {
      const again = () => this.unsubscribe(uri);
      return pending.then(again, again);
    }
    const context = this.#contexts?.get(uri);
    if (!this.#subscriptions?.delete(uri) || !context) return DONE;
    this.#contexts!.delete(uri);
    endSubscription(this.#host.subscriptionHooks, uri, context, this.#host.report);
    return DONE;
  }

  /** The connection closed: every subscription ends (`onUnsubscribe` for each). */
  close(): void {
    if (this.#closed) return;
    this.#closed = true;
    for (const [uri, context] of this.#contexts ?? []) endSubscription(this.#host.subscriptionHooks, uri, context, this.#host.report);
    this.#contexts?.clear();
    this.#subscriptions?.clear();
  }

  #add(uri: string, context: HandlerContext): void {
    this.restoreSubscription(uri);
    (this.#contexts ??= new Map()).set(uri, context);
  }

  /** Marks `uri` subscribed. */
  restoreSubscription(uri: string): void {
    (this.#subscriptions ??= new Set()).add(uri);
  }

  /**
   * Starts the subscriptions recorded by another process (a restored session, once its connection is up): each
   * counted from the start, so no update is missed, and `onSubscribe` runs for each as for a new one, so the author
   * sets up here what it needs (a file watcher). Its context is a synthetic `resources/subscribe` on this
   * connection (its `listRoots` asks this session's client). A refusal ends the subscription and is reported; an
   * accepted one ends with `onUnsubscribe` like any other (unsubscribe, or this copy of the session dropped).
   */
  startRestoredSubscriptions(): void {
    let count = 0;
    for (const uri of [...this.subscriptions]) {
      if (this.#contexts?.has(uri) || this.#pending?.has(uri)) continue;
      count += 1;
      const id = `restored-subscription-${count}`;
      const rpc: ServerRequestContext = new RequestContext(this.#peer, id, 'resources/subscribe', { uri }, undefined, undefined);
      void this.#start(uri, new RequestHandlerContext(rpc, this, undefined), (error) => {
        this.#subscriptions?.delete(uri);
        this.#host.report(error, { method: 'onSubscribe' });
      });
    }
  }

  /**
   * Runs `onSubscribe` for `uri`: the subscription is added once it accepts (or ended at once if the connection closed
   * meanwhile); `refused` handles a refusal. `undefined` when there is no hook to wait for (added already); else the
   * pending start, which other requests for the URI wait on.
   */
  #start(uri: string, context: HandlerContext, refused: (error: unknown) => void): Promise<void> | undefined {
    const hooks = this.#host.subscriptionHooks;
    const started = startSubscription(hooks, uri, context);
    if (!started) {
      this.#add(uri, context);
      return undefined;
    }
    const settled = started.then(() => {
      // The connection closed meanwhile: the subscription ends as soon as it started.
      if (this.#closed) endSubscription(hooks, uri, context, this.#host.report);
      else this.#add(uri, context);
    }, refused);
    const pendings = (this.#pending ??= new Map());
    pendings.set(uri, settled);
    const forget = (): void => void pendings.delete(uri);
    settled.then(forget, forget);
    return settled;
  }

  listChanged(kind: ListKind): void {
    if (this.initialized && hasCapability(this.serverCapabilities, [kind, 'listChanged'])) {
      this.#peer.notify(`notifications/${kind}/list_changed`).catch(() => {});
    }
  }

  resourceUpdated(uri: string): void {
    if (this.subscriptions.has(uri)) this.#peer.notify('notifications/resources/updated', { uri }).catch(() => {});
  }

  log(level: LogLevel, data: unknown, logger: string | undefined): void {
    const minimum = this.logLevel;
    if (minimum === undefined || !hasCapability(this.serverCapabilities, ['logging']) || !shouldLog(level, minimum)) return;
    this.#peer.notify('notifications/message', logger === undefined ? { level, data } : { level, logger, data }).catch(() => {});
  }
}

/**
 * Serves `initialize`: negotiates the revision and opens the session of the connection, or refuses (inside a
 * batch, on a connection already initialized, malformed params, or a server that speaks no legacy revision).
 */
export function openLegacySession(
  host: LegacyHost,
  params: WireParams,
  rpc: ServerRequestContext,
  peer: ServerPeer,
  existing: LegacySessionState | undefined,
): { session: LegacySessionState; result: EraNeutralResult<'initialize'> } {
  if (rpc.info?.inBatch) throw invalidRequest('Invalid request: initialize must not be part of a JSON-RPC batch');
  if (existing) throw invalidRequest('Invalid request: this connection is already initialized');
  const requested = params?.protocolVersion;
  if (typeof requested !== 'string') throw invalidParams('Invalid params: "protocolVersion" must be a string');
  const capabilities = params?.capabilities;
  if (capabilities !== undefined && (typeof capabilities !== 'object' || capabilities === null || Array.isArray(capabilities))) {
    throw invalidParams('Invalid params: "capabilities" must be an object');
  }
  if (host.legacyVersions.length === 0) throw noLegacyRevision(host.versions, requested, 'this server');
  const version = negotiateLegacyVersion(requested, host.legacyVersions);
  const serverCapabilities = host.capabilitiesFor(version);
  const clientInfo = params?.clientInfo;
  const session = new LegacySessionState(
    peer,
    host,
    version,
    (capabilities ?? {}) as Spec2025_11_25.ClientCapabilities,
    typeof clientInfo === 'object' && clientInfo !== null ? (clientInfo as Implementation) : undefined,
    serverCapabilities,
  );
  peer.acceptBatches = supportsBatching(version);
  host.scheduleWarmUp();
  const result: EraNeutralResult<'initialize'> = {
    protocolVersion: version,
    capabilities: serverCapabilities,
    serverInfo: implementationFor(host.info, version),
  };
  if (host.instructions !== undefined) result.instructions = host.instructions;
  return { session, result };
}

/**
 * A legacy session recorded elsewhere (a session store shared by several processes), to serve again on a new
 * connection without a handshake: what `initialize` negotiated and what the client set since.
 */
export interface LegacySessionRestore {
  /** The negotiated legacy revision; it must be one this server speaks. */
  readonly protocolVersion: string;
  /** The client's capabilities, as declared in `initialize`. */
  readonly clientCapabilities: object;
  /** The client's `clientInfo`, as sent in `initialize`. */
  readonly clientInfo?: object | undefined;
  /** The level set with `logging/setLevel` (default: all levels). */
  readonly logLevel?: LogLevel | undefined;
  /** URIs subscribed to with `resources/subscribe`. */
  readonly subscriptions?: Iterable<string>;
  /** Whether `notifications/initialized` arrived (default true). */
  readonly initialized?: boolean;
}

/**
 * Opens the session of a connection from a recorded one (no handshake). Throws `INVALID_ARGUMENT` for a revision
 * this server does not speak (legacy) or a bad log level.
 */
export function restoreLegacySession(host: LegacyHost, state: LegacySessionRestore, peer: ServerPeer): LegacySessionState {
  const version = state.protocolVersion as LegacyProtocolVersion;
  if (!host.legacyVersions.includes(version)) {
    throw new LocalError(
      'INVALID_ARGUMENT',
      `Cannot restore a session of protocol version ${quoteInput(state.protocolVersion)}: not spoken here`,
    );
  }
  if (state.logLevel !== undefined && !isLogLevel(state.logLevel)) {
    throw new LocalError('INVALID_ARGUMENT', `Cannot restore a session with log level ${quoteInput(state.logLevel)}`);
  }
  const session = new LegacySessionState(
    peer,
    host,
    version,
    state.clientCapabilities as Spec2025_11_25.ClientCapabilities,
    state.clientInfo as Implementation | undefined,
    host.capabilitiesFor(version),
  );
  session.logLevel = state.logLevel ?? 'debug';
  session.initialized = state.initialized ?? true;
  // Their hooks run once the connection is up (`startRestoredSubscriptions`).
  for (const uri of state.subscriptions ?? []) if (typeof uri === 'string') session.restoreSubscription(uri);
  peer.acceptBatches = supportsBatching(version);
  return session;
}

/**
 * The `-32022` answer to `initialize` where no legacy revision is spoken (a modern-only server, or an exchange
 * that cannot hold a session): the error is a legacy client's only diagnostic, so it names what is spoken.
 */
export function noLegacyRevision(versions: readonly ProtocolVersion[], requested: unknown, who: string): RpcError {
  const spoken = versions.length > 0 ? `speaks ${versions.join(', ')} only (no initialize)` : 'speaks no revision without a session';
  return new RpcError(ErrorCode.UnsupportedProtocolVersion, `Unsupported protocol version: ${who} ${spoken}`, {
    supported: [...versions].reverse(),
    requested: typeof requested === 'string' ? truncateInput(requested) : requested,
  });
}

/** Serves `logging/setLevel`. */
export function setLogLevel(params: WireParams, session: LegacySessionState): EraNeutralResult<'logging/setLevel'> {
  const level = params?.level;
  if (!isLogLevel(level)) throw invalidParams(`Invalid params: unknown log level ${quoteInput(level)}`);
  session.logLevel = level;
  return {};
}

/** Serves `resources/subscribe` and `resources/unsubscribe`; `context` is the request's own. */
export function setSubscription(
  params: WireParams,
  session: LegacySessionState,
  subscribed: boolean,
  context: HandlerContext,
): Outcome<EraNeutralResult<'resources/subscribe'>> {
  const uri = params?.uri;
  if (typeof uri !== 'string') throw invalidParams('Invalid params: "uri" must be a string');
  return subscribed ? session.subscribe(uri, context) : session.unsubscribe(uri);
}
