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
import { implementationFor } from './capabilities.js';
import type { RequestScope } from './handler-context.js';
import type { ServerPeer, ServerRequestContext, WireParams } from './server-peer.js';
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
}

/** The session of one connection; it hears server-wide events and forwards what the client asked for. */
export class LegacySessionState implements LegacySession, Subscriber {
  readonly era = 'legacy' as const;
  logLevel: LogLevel | undefined = 'debug';
  initialized = false;
  readonly subscriptions = new Set<string>();
  readonly #peer: ServerPeer;

  constructor(
    peer: ServerPeer,
    readonly protocolVersion: LegacyProtocolVersion,
    readonly clientCapabilities: Readonly<Spec2025_11_25.ClientCapabilities>,
    readonly clientInfo: Implementation | undefined,
    readonly serverCapabilities: Readonly<Record<string, unknown>>,
  ) {
    this.#peer = peer;
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
    version,
    state.clientCapabilities as Spec2025_11_25.ClientCapabilities,
    state.clientInfo as Implementation | undefined,
    host.capabilitiesFor(version),
  );
  session.logLevel = state.logLevel ?? 'debug';
  session.initialized = state.initialized ?? true;
  for (const uri of state.subscriptions ?? []) if (typeof uri === 'string') session.subscriptions.add(uri);
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

/** Serves `resources/subscribe` and `resources/unsubscribe`. */
export function setSubscription(
  params: WireParams,
  session: LegacySessionState,
  subscribed: boolean,
): EraNeutralResult<'resources/subscribe'> {
  const uri = params?.uri;
  if (typeof uri !== 'string') throw invalidParams('Invalid params: "uri" must be a string');
  if (subscribed) session.subscriptions.add(uri);
  else session.subscriptions.delete(uri);
  return {};
}
