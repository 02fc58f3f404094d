/**
 * Protocol revisions and the two eras.
 *
 * Legacy revisions open a session with `initialize`; the modern revision (2026-07-28) is stateless and carries
 * version, client capabilities and client identity in every request's `_meta`.
 */

/** Every dated MCP revision wiremcp speaks, oldest first. */
export const PROTOCOL_VERSIONS = ['2024-11-05', '2025-03-26', '2025-06-18', '2025-11-25', '2026-07-28'] as const;

/** A dated MCP revision that wiremcp implements. */
export type ProtocolVersion = (typeof PROTOCOL_VERSIONS)[number];

/** Revisions negotiated with an `initialize` handshake, oldest first. */
export const LEGACY_PROTOCOL_VERSIONS = ['2024-11-05', '2025-03-26', '2025-06-18', '2025-11-25'] as const;

/** A revision of the legacy (session, `initialize`) era. */
export type LegacyProtocolVersion = (typeof LEGACY_PROTOCOL_VERSIONS)[number];

/** Revisions of the modern (stateless, per-request `_meta`) era, oldest first. */
export const MODERN_PROTOCOL_VERSIONS = ['2026-07-28'] as const;

/** A revision of the modern era. */
export type ModernProtocolVersion = (typeof MODERN_PROTOCOL_VERSIONS)[number];

/** The newest revision wiremcp speaks. */
export const LATEST_PROTOCOL_VERSION: ProtocolVersion = '2026-07-28';

/** The newest legacy revision: what a legacy `initialize` is answered with when the requested one is unknown. */
export const LATEST_LEGACY_PROTOCOL_VERSION: LegacyProtocolVersion = '2025-11-25';

/** The version a Streamable HTTP server assumes when a legacy request carries no `MCP-Protocol-Version` header. */
export const DEFAULT_HTTP_LEGACY_PROTOCOL_VERSION: LegacyProtocolVersion = '2025-03-26';

/** `legacy` (initialize handshake, sessions) or `modern` (stateless, per-request `_meta`). */
export type Era = 'legacy' | 'modern';

const KNOWN = new Set<string>(PROTOCOL_VERSIONS);
const MODERN = new Set<string>(MODERN_PROTOCOL_VERSIONS);

/** True when `value` names a revision wiremcp implements. */
export function isProtocolVersion(value: unknown): value is ProtocolVersion {
  return typeof value === 'string' && KNOWN.has(value);
}

/** True when `value` is a legacy revision wiremcp implements. */
export function isLegacyProtocolVersion(value: unknown): value is LegacyProtocolVersion {
  return typeof value === 'string' && KNOWN.has(value) && !MODERN.has(value);
}

/** True when `value` is a modern revision wiremcp implements. */
export function isModernProtocolVersion(value: unknown): value is ModernProtocolVersion {
  return typeof value === 'string' && MODERN.has(value);
}

/**
 * The era of a revision. Unknown dated strings are classified by date: anything from 2026-07-28 on is modern,
 * because every revision since then keeps the stateless model.
 */
export function eraOf(version: string): Era {
  return version >= '2026-07-28' ? 'modern' : 'legacy';
}

/**
 * Orders two `YYYY-MM-DD` revision strings (negative when `a` is older). Revision identifiers are dates, so a
 * string comparison is a chronological one.
 */
export function compareProtocolVersions(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

/**
 * The legacy version a server answers `initialize` with: the requested one when supported, otherwise the newest
 * supported legacy revision (the client then decides whether it can speak it). `supported` defaults to every
 * legacy revision wiremcp implements.
 */
export function negotiateLegacyVersion(
  requested: unknown,
  supported: readonly LegacyProtocolVersion[] = LEGACY_PROTOCOL_VERSIONS,
): LegacyProtocolVersion {
  if (typeof requested === 'string') {
    for (const version of supported) if (version === requested) return version;
  }
  let newest = supported[0] ?? LATEST_LEGACY_PROTOCOL_VERSION;
  for (const version of supported) if (version > newest) newest = version;
  return newest;
}

/**
 * The modern version a client should retry with after a `-32022` error: the newest entry of the server's
 * `supported` list that the client also speaks, or `undefined` when there is none.
 */
export function pickModernVersion(
  serverSupported: readonly string[],
  clientSupported: readonly string[] = MODERN_PROTOCOL_VERSIONS,
): string | undefined {
  let best: string | undefined;
  for (const version of serverSupported) {
    if (eraOf(version) === 'modern' && clientSupported.includes(version) && (best === undefined || version > best)) {
      best = version;
    }
  }
  return best;
}

/** JSON-RPC batches (arrays of messages) exist only in 2025-03-26. */
export function supportsBatching(version: string | undefined): boolean {
  return version === '2025-03-26';
}
