/**
 * Era detection and the opening handshake, per the 2026-07-28 backward-compatibility rules for a dual-era client:
 *
 * 1. send `server/discover` with the modern `_meta`: a `DiscoverResult` means modern;
 * 2. `-32022` UnsupportedProtocolVersion is a recognised modern error: retry with a mutually supported modern
 *    version from `data.supported` — or, if it lists only legacy versions we speak, use `initialize`;
 * 3. any other error, a timeout, or a success that is not a `DiscoverResult` means legacy: `initialize` with the
 *    newest legacy version, then `notifications/initialized`. The fallback is deliberately not keyed to one error
 *    code: legacy servers answer `-32601`, `-32602`, or nothing at all.
 *
 * A cached era skips the probe (legacy: straight to `initialize`; modern: no discover at all while the cached
 * discover result is fresh per its `ttlMs`). When a cached legacy guess fails with an error answer, the client
 * probes from scratch.
 *
 * Each attempt asks the {@link HandshakeLink} for the peer to use: over one transport (stdio) every attempt gets
 * the same peer; with a transport factory (HTTP) each era may get its own transport — and then a modern attempt
 * that fails at the transport level also falls back, and a failed `initialize` may be retried over another
 * legacy transport (Streamable HTTP, then the 2024-11-05 HTTP+SSE transport) for as long as the link allows.
 */
import {
  ErrorCode,
  isLegacyProtocolVersion,
  isLocalError,
  LocalError,
  MetaKey,
  pickModernVersion,
  RpcError,
  supportsBatching,
  type Era,
  type RequestMetaObject,
  type Spec2025_11_25,
} from '@wiremcp/protocol';
import { clientCapabilitiesFor } from './capabilities.js';
import type { CachedEra } from './era-cache.js';
import { buildModernMeta } from './modern-meta.js';
import type { ElicitationOptions, EraPreference, InputHandlers } from './options.js';
import type { ClientCapabilities, ClientPeer, DiscoverResult, Implementation, InitializeResult, ServerCapabilities } from './types.js';

/** Where handshake attempts run; see the module comment. */
export interface HandshakeLink {
  /** The peer for an attempt of `era`, over the transport for it; `previousError` says why the last attempt failed. */
  peer(era: Era, previousError?: unknown): Promise<ClientPeer>;
  /** True when attempts may run over different transports (a transport factory). */
  readonly switchable: boolean;
  /** True when another legacy attempt may follow a failed `initialize`. */
  canRetryLegacy(): boolean;
}

/** What the handshake needs to know about the client. */
export interface HandshakeSettings {
  readonly era: EraPreference;
  readonly clientInfo: Implementation;
  readonly handlers: InputHandlers | undefined;
  readonly capabilities: ClientCapabilities | undefined;
  readonly elicitation?: ElicitationOptions;
  /** Version asked for in `initialize`. */
  readonly legacyVersion: string;
  /** Version put in `_meta` first. */
  readonly modernVersion: string;
  /** Every version the client accepts. */
  readonly accepted: readonly string[];
  readonly probeTimeoutMs: number;
  readonly requestTimeoutMs: number;
}

/** The outcome of the handshake. */
export interface Negotiated {
  readonly era: Era;
  readonly protocolVersion: string;
  readonly serverCapabilities: ServerCapabilities;
  readonly serverInfo: Implementation | undefined;
  readonly instructions: string | undefined;
  /** Modern: the discover result (for the era cache). */
  readonly discover?: DiscoverResult;
}

/** Runs the handshake. Rejects with RpcError or LocalError; the caller closes on failure. */
export async function negotiate(
  link: HandshakeLink,
  settings: HandshakeSettings,
  cached: CachedEra | undefined,
  now = Date.now(),
): Promise<Negotiated> {
  if (settings.era === 'legacy') return initializeOver(link, settings, settings.legacyVersion, undefined);
  if (cached && settings.era === 'auto') {
    if (cached.era === 'legacy') {
      try {
        return await initialize(await link.peer('legacy'), settings, settings.legacyVersion);
      } catch (error) {
        // The server answered, but not as a legacy server would: the cached guess is stale, probe again.
        if (!(error instanceof RpcError)) throw error;
        return probe(link, settings, false, settings.modernVersion, error);
      }
    }
    if (cached.discover && now < cached.discover.freshUntil && settings.accepted.includes(cached.protocolVersion)) {
      return fromDiscover(cached.discover.result, cached.protocolVersion);
    }
    if (settings.accepted.includes(cached.protocolVersion)) return probe(link, settings, true, cached.protocolVersion);
  }
  return probe(link, settings, settings.era === 'auto');
}

/** `initialize` over the link's legacy transport; with a factory, failures may move on to another legacy transport. */
async function initializeOver(link: HandshakeLink, settings: HandshakeSettings, version: string, cause: unknown): Promise<Negotiated> {
  let previous = cause;
  for (;;) {
    try {
      return await initialize(await link.peer('legacy', previous), settings, version);
    } catch (error) {
      if (!link.canRetryLegacy()) throw error;
      previous = error;
    }
  }
}

async function probe(
  link: HandshakeLink,
  settings: HandshakeSettings,
  allowLegacy: boolean,
  first = settings.modernVersion,
  cause?: unknown,
): Promise<Negotiated> {
  let peer: ClientPeer;
  try {
    peer = await link.peer('modern', cause);
  } catch (error) {
    // The transport of the modern attempt could not even start: another one may speak the legacy era.
    if (allowLegacy && link.switchable) return initializeOver(link, settings, settings.legacyVersion, error);
    throw error;
  }
  // Versions sent, with how often: a server that refuses a version it lists as supported gets one more try with it
  // (a transient refusal, or a gateway in front of it), never a loop.
  const tried = new Map<string, number>();
  let version = first;
  for (;;) {
    tried.set(version, (tried.get(version) ?? 0) + 1);
    const meta = buildModernMeta(
      version,
      clientCapabilitiesFor(settings.handlers, version, settings.capabilities, settings.elicitation),
      settings.clientInfo,
      undefined,
    );
    let result: unknown;
    try {
      result = await peer.request(
        'server/discover',
        { _meta: meta as RequestMetaObject },
        { timeoutMs: settings.era === 'auto' ? settings.probeTimeoutMs : settings.requestTimeoutMs },
      );
    } catch (error) {
      if (error instanceof RpcError) {
        if (error.code === ErrorCode.UnsupportedProtocolVersion) {
          const supported = supportedList(error.data);
          const next = pickModernVersion(supported, settings.accepted);
          if (next !== undefined && (tried.get(next) ?? 0) < 2) {
            version = next;
            continue;
          }
          const legacy = legacyChoice(supported, settings);
          if (legacy !== undefined && settings.era !== 'modern') return initializeOver(link, settings, legacy, error);
          throw new LocalError(
            'UNSUPPORTED_PROTOCOL_VERSION',
            `The server supports none of the versions this client speaks (it supports ${supported.join(', ') || 'nothing it named'})`,
            {
              cause: error,
              details: { supported, requested: version },
            },
          );
        }
        // Other recognised modern errors: the server is modern but refuses this client; nothing to fall back to.
        if (error.code === ErrorCode.HeaderMismatch || error.code === ErrorCode.MissingRequiredClientCapability) throw error;
        if (allowLegacy) return initializeOver(link, settings, settings.legacyVersion, error);
        throw notModern(error);
      }
      // A timeout means legacy; with a transport per era, so does a transport that failed the modern attempt.
      if (allowLegacy && (isLocalError(error, 'REQUEST_TIMEOUT') || link.switchable)) {
        return initializeOver(link, settings, settings.legacyVersion, error);
      }
      if (!allowLegacy && settings.era === 'modern' && isLocalError(error, 'REQUEST_TIMEOUT')) throw notModern(error);
      throw error;
    }
    if (!isDiscoverResult(result)) {
      if (allowLegacy) return initializeOver(link, settings, settings.legacyVersion, result);
      throw new LocalError('INVALID_RESULT', 'The server answered server/discover with something that is not a DiscoverResult', {
        details: result,
      });
    }
    const type = result.resultType;
    if (type !== undefined && type !== 'complete') {
      throw new LocalError('INVALID_RESULT', `server/discover answered resultType ${JSON.stringify(type)}`, { details: result });
    }
    return fromDiscover(result, version);
  }
}

/** The negotiated state described by a discover result. */
export function fromDiscover(result: DiscoverResult, protocolVersion: string): Negotiated {
  const info = result._meta?.[MetaKey.serverInfo];
  return {
    era: 'modern',
    protocolVersion,
    serverCapabilities: result.capabilities,
    serverInfo: typeof info === 'object' && info !== null ? (info as Implementation) : undefined,
    instructions: typeof result.instructions === 'string' ? result.instructions : undefined,
    discover: result,
  };
}

async function initialize(peer: ClientPeer, settings: HandshakeSettings, requested: string): Promise<Negotiated> {
  // A legacy revision's capabilities have the 2025-11-25 shape (clientCapabilitiesFor shapes them by revision).
  const capabilities = clientCapabilitiesFor(
    settings.handlers,
    requested,
    settings.capabilities,
    settings.elicitation,
  ) as Spec2025_11_25.ClientCapabilities;
  // What came back is the server's: every field is checked before it is used.
  const result: Partial<InitializeResult> = await peer.request(
    'initialize',
    { protocolVersion: requested, capabilities, clientInfo: settings.clientInfo },
    // The spec forbids cancelling initialize: give up quietly on timeout.
    { timeoutMs: settings.requestTimeoutMs, sendCancelledNotification: false },
  );
  const version = result.protocolVersion;
  if (typeof version !== 'string') {
    throw new LocalError('INVALID_RESULT', 'The initialize result has no protocolVersion', { details: result });
  }
  if (!isLegacyProtocolVersion(version) || !settings.accepted.includes(version)) {
    throw new LocalError(
      'UNSUPPORTED_PROTOCOL_VERSION',
      `The server answered initialize with protocol version ${JSON.stringify(version)}, which this client does not speak`,
      {
        details: { requested, answered: version, accepted: settings.accepted },
      },
    );
  }
  const serverCapabilities = typeof result.capabilities === 'object' && result.capabilities !== null ? result.capabilities : {};
  peer.acceptBatches = supportsBatching(version);
  await peer.notify('notifications/initialized');
  return {
    era: 'legacy',
    protocolVersion: version,
    serverCapabilities,
    serverInfo: typeof result.serverInfo === 'object' && result.serverInfo !== null ? result.serverInfo : undefined,
    instructions: typeof result.instructions === 'string' ? result.instructions : undefined,
  };
}

function isDiscoverResult(value: unknown): value is DiscoverResult {
  if (typeof value !== 'object' || value === null) return false;
  const { supportedVersions, capabilities } = value as Record<string, unknown>;
  return Array.isArray(supportedVersions) && typeof capabilities === 'object' && capabilities !== null && !Array.isArray(capabilities);
}

function supportedList(data: unknown): string[] {
  const supported = (data as { supported?: unknown } | undefined)?.supported;
  return Array.isArray(supported) ? supported.filter((v): v is string => typeof v === 'string') : [];
}

/** The legacy version to initialize with when `-32022` lists legacy versions only: ours if listed, else the newest shared one. */
function legacyChoice(supported: readonly string[], settings: HandshakeSettings): string | undefined {
  if (supported.includes(settings.legacyVersion)) return settings.legacyVersion;
  let best: string | undefined;
  for (const version of supported) {
    if (isLegacyProtocolVersion(version) && settings.accepted.includes(version) && (best === undefined || version > best)) best = version;
  }
  return best;
}

function notModern(cause: unknown): LocalError {
  const how = cause instanceof RpcError ? `answered server/discover with ${cause.code} ${cause.message}` : 'did not answer server/discover';
  return new LocalError(
    'UNSUPPORTED_PROTOCOL_VERSION',
    `The server ${how}: it does not speak the modern era (era: 'modern' was requested)`,
    { cause },
  );
}
