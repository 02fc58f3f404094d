/**
 * Turning {@link ClientOptions} into the fixed settings of a client: versions to ask for and accept, timeouts,
 * bounds. Done once, in the constructor, so that bad options fail early and calls read plain fields.
 */
import { eraOf, isProtocolVersion, LocalError, PROTOCOL_VERSIONS, type ProtocolVersion } from '@wiremcp/protocol';
import type { Instrumentation } from '@wiremcp/jsonrpc';
import type { HandshakeSettings } from './handshake.js';
import { wrapElicitationHandler } from './elicitation.js';
import { DEFAULT_MAX_INPUT_ROUNDS } from './mrtr.js';
import type { ClientOptions, EraPreference } from './options.js';
import { DEFAULT_MAX_PAGES } from './pagination.js';
import type { Implementation } from './types.js';

/** Default timeout of requests. */
export const DEFAULT_REQUEST_TIMEOUT_MS = 60_000;
/** Default time to wait for the answer to the `server/discover` probe. */
export const DEFAULT_PROBE_TIMEOUT_MS = 3_000;

/** The resolved settings of a client. */
export interface ClientSettings extends HandshakeSettings {
  readonly validateToolOutput: boolean;
  readonly enforceCapabilities: boolean;
  readonly cacheResults: boolean;
  readonly maxPages: number;
  readonly maxInputRounds: number;
  readonly instrumentation: Instrumentation | undefined;
}

function newest(versions: readonly ProtocolVersion[], era: 'legacy' | 'modern'): ProtocolVersion | undefined {
  let best: ProtocolVersion | undefined;
  for (const version of versions) if (eraOf(version) === era && (best === undefined || version > best)) best = version;
  return best;
}

function positive(value: number | undefined, fallback: number, name: string, allowZero: boolean): number {
  if (value === undefined) return fallback;
  if (typeof value !== 'number' || Number.isNaN(value) || value < 0 || (!allowZero && value === 0)) {
    throw new LocalError('INVALID_ARGUMENT', `Option '${name}' must be a ${allowZero ? 'non-negative' : 'positive'} number`);
  }
  return value;
}

/** Validates the options and resolves defaults; throws `INVALID_ARGUMENT` for unusable ones. */
export function resolveSettings(clientInfo: Implementation, options: ClientOptions): ClientSettings {
  if (typeof clientInfo?.name !== 'string' || typeof clientInfo.version !== 'string') {
    throw new LocalError('INVALID_ARGUMENT', 'McpClient needs clientInfo with a string name and version');
  }
  const supported = [...(options.supportedVersions ?? PROTOCOL_VERSIONS)];
  for (const version of supported) {
    if (!isProtocolVersion(version))
      throw new LocalError('INVALID_ARGUMENT', `Unknown protocol version ${JSON.stringify(version)} in supportedVersions`);
  }
  const pinned = options.protocolVersion;
  if (pinned !== undefined) {
    if (!isProtocolVersion(pinned)) throw new LocalError('INVALID_ARGUMENT', `Unknown protocol version ${JSON.stringify(pinned)}`);
    if (!supported.includes(pinned)) throw new LocalError('INVALID_ARGUMENT', `protocolVersion ${pinned} is not in supportedVersions`);
  }
  const legacy = pinned !== undefined && eraOf(pinned) === 'legacy' ? pinned : newest(supported, 'legacy');
  const modern = pinned !== undefined && eraOf(pinned) === 'modern' ? pinned : newest(supported, 'modern');
  let era: EraPreference = options.era ?? 'auto';
  if (era !== 'auto' && era !== 'legacy' && era !== 'modern')
    throw new LocalError('INVALID_ARGUMENT', `Unknown era ${JSON.stringify(era)}`);
  if ((era === 'legacy' && !legacy) || (era === 'modern' && !modern)) {
    throw new LocalError('INVALID_ARGUMENT', `era '${era}' was requested but supportedVersions has no ${era} version`);
  }
  // With only one era supported, there is nothing to detect.
  if (era === 'auto' && !modern) era = 'legacy';
  if (era === 'auto' && !legacy) era = 'modern';
  return {
    era,
    clientInfo,
    handlers: options.handlers?.elicitation
      ? { ...options.handlers, elicitation: wrapElicitationHandler(options.handlers.elicitation, options.elicitation) }
      : options.handlers,
    capabilities: options.capabilities,
    elicitation: options.elicitation,
    legacyVersion: legacy ?? '',
    modernVersion: modern ?? '',
    accepted: supported,
    probeTimeoutMs: positive(options.probeTimeoutMs, DEFAULT_PROBE_TIMEOUT_MS, 'probeTimeoutMs', false),
    requestTimeoutMs: positive(options.requestTimeoutMs, DEFAULT_REQUEST_TIMEOUT_MS, 'requestTimeoutMs', true),
    validateToolOutput: options.validateToolOutput !== false,
    enforceCapabilities: options.enforceCapabilities !== false,
    cacheResults: options.cacheResults !== false,
    maxPages: positive(options.maxPages, DEFAULT_MAX_PAGES, 'maxPages', false),
    maxInputRounds: positive(options.maxInputRounds, DEFAULT_MAX_INPUT_ROUNDS, 'maxInputRounds', false),
    instrumentation: options.instrumentation,
  };
}
