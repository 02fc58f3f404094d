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
} from '@wiremcp/protocol';
import type { Peer } from '@wiremcp/jsonrpc';
import { clientCapabilitiesFor } from './capabilities.js';
import type { CachedEra } from './era-cache.js';
import { buildModernMeta } from './modern-meta.js';
import type { EraPreference, InputHandlers } from './options.js';
import type { ClientCapabilities, DiscoverResult, Implementation, InitializeResult, ServerCapabilities } from './protocol-types.js';

/** What the handshake needs to know about the client. */
export interface HandshakeSettings {
  readonly era: EraPreference;
  readonly clientInfo: Implementation;
  readonly handlers: InputHandlers | undefined;
  readonly capabilities: ClientCapabilities | undefined;
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

/** Runs the handshake on a connected peer. Rejects with RpcError or LocalError; the caller closes on failure. */
export async function negotiate(
  peer: Peer,
  settings: HandshakeSettings,
  cached: CachedEra | undefined,
  now = Date.now(),
): Promise<Negotiated> {
  if (settings.era === 'legacy') return initialize(peer, settings, settings.legacyVersion);
  if (cached && settings.era === 'auto') {
    if (cached.era === 'legacy') {
      try {
        return await initialize(peer, settings, settings.legacyVersion);
      } catch (error) {
        // The server answered, but not as a legacy server would: the cached guess is stale, probe again.
        if (!(error instanceof RpcError)) throw error;
        return probe(peer, settings, false);
      }
    }
    if (cached.discover && now < cached.discover.freshUntil && settings.accepted.includes(cached.protocolVersion)) {
      return fromDiscover(cached.discover.result, cached.protocolVersion);
    }
    if (settings.accepted.includes(cached.protocolVersion)) return probe(peer, settings, true, cached.protocolVersion);
  }
  return probe(peer, settings, settings.era === 'auto');
}

async function probe(peer: Peer, settings: HandshakeSettings, allowLegacy: boolean, first = settings.modernVersion): Promise<Negotiated> {
  const tried = new Set<string>();
  let version = first;
  for (;;) {
    tried.add(version);
    const meta = buildModernMeta(
      version,
      clientCapabilitiesFor(settings.handlers, version, settings.capabilities),
      settings.clientInfo,
      undefined,
    );
    let result: unknown;
    try {
      result = await peer.request(
        'server/discover',
        { _meta: meta },
        {
          timeoutMs: settings.era === 'auto' ? settings.probeTimeoutMs : settings.requestTimeoutMs,
        },
      );
    } catch (error) {
      if (error instanceof RpcError) {
        if (error.code === ErrorCode.UnsupportedProtocolVersion) {
          const supported = supportedList(error.data);
          const next = pickModernVersion(supported, settings.accepted);
          if (next !== undefined && !tried.has(next)) {
            version = next;
            continue;
          }
          const legacy = legacyChoice(supported, settings);
          if (legacy !== undefined && settings.era !== 'modern') return initialize(peer, settings, legacy);
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
        if (allowLegacy) return initialize(peer, settings, settings.legacyVersion);
        throw notModern(error);
      }
      if (allowLegacy && isLocalError(error, 'REQUEST_TIMEOUT')) return initialize(peer, settings, settings.legacyVersion);
      if (!allowLegacy && settings.era === 'modern' && isLocalError(error, 'REQUEST_TIMEOUT')) throw notModern(error);
      throw error;
    }
    if (!isDiscoverResult(result)) {
      if (allowLegacy) return initialize(peer, settings, settings.legacyVersion);
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

async function initialize(peer: Peer, settings: HandshakeSettings, requested: string): Promise<Negotiated> {
  const capabilities = clientCapabilitiesFor(settings.handlers, requested, settings.capabilities);
  const result = (await peer.request(
    'initialize',
    { protocolVersion: requested, capabilities, clientInfo: settings.clientInfo },
    // The spec forbids cancelling initialize: give up quietly on timeout.
    { timeoutMs: settings.requestTimeoutMs, sendCancelledNotification: false },
  )) as Partial<InitializeResult>;
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
