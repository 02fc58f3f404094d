/**
 * The 2026-07-28 request envelope on the server: a request's `_meta` read into a scope (the envelope rule itself is
 * `readModernEnvelope` of `@wiremcp/protocol`), and results stamped. Which methods
 * belong to one era only comes from the method table of `@wiremcp/protocol` (`LEGACY_ONLY_METHODS`,
 * `MODERN_ONLY_METHODS`, `INPUT_REQUIRED_METHODS`, `CACHEABLE_METHODS`).
 */
import {
  ErrorCode,
  invalidParams,
  isEnvelopeProblem,
  MetaKey,
  readModernEnvelope,
  RpcError,
  truncateInput,
  type ClientCapabilities,
  type JsonObject,
  type ProtocolVersion,
} from '@wiremcp/protocol';
import { preserialize } from '@wiremcp/jsonrpc';
import type { RequestScope } from './handler-context.js';
import type { CacheHint, Implementation } from './types.js';

/**
 * Reads the scope of a modern request: the envelope rules of `readModernEnvelope` (`@wiremcp/protocol`; a broken
 * envelope is `-32602`), then whether this server speaks the version (`-32022`, listing every version it speaks).
 */
export function modernScope(
  meta: Record<string, unknown> | undefined,
  supportedModern: readonly ProtocolVersion[],
  supportedAll: readonly ProtocolVersion[],
): RequestScope {
  const envelope = readModernEnvelope(meta);
  if (isEnvelopeProblem(envelope)) throw invalidParams(envelope.problem);
  const version = envelope.protocolVersion;
  // The server's own copy of the version string from here on: later lookups by it compare one pointer.
  const known = (supportedModern as readonly string[]).indexOf(version);
  if (known === -1) {
    throw new RpcError(ErrorCode.UnsupportedProtocolVersion, 'Unsupported protocol version', {
      supported: [...supportedAll].reverse(),
      requested: truncateInput(version),
    });
  }
  return {
    era: 'modern',
    protocolVersion: supportedModern[known]!,
    clientCapabilities: envelope.clientCapabilities as ClientCapabilities,
    clientInfo: envelope.clientInfo as Implementation | undefined,
    logLevel: envelope.logLevel,
  };
}

/**
 * The `_meta` of a modern result whose handler set none: the server's identity as it is now, one deep-frozen object
 * per server, shared by every result (stamping allocates nothing for it) and `preserialize`d (a transport writing
 * with `stringifyMessage` splices its JSON text into each response instead of serialising it again).
 */
export function serverResultMeta(serverInfo: Implementation): Readonly<JsonObject> {
  return preserialize({ [MetaKey.serverInfo]: serverInfo as unknown as JsonObject });
}

/**
 * A modern result: `resultType` (default `complete`), `_meta` with the server's identity (`serverMeta`, from
 * {@link serverResultMeta}; merged into the handler's own `_meta` when it set one), and caching hints on the
 * complete results of cacheable methods. Returns a new object; the handler's result is not modified.
 */
export function stampModernResult(result: JsonObject, serverMeta: Readonly<JsonObject>, cache: CacheHint | undefined): JsonObject {
  const resultType = (result.resultType as string | undefined) ?? 'complete';
  const meta = result._meta as Record<string, unknown> | undefined;
  // Built in two steps: one literal with a spread and a trailing computed `_meta` made V8 take its slow generic
  // path (~105 ns per result, 4% of the server's CPU on a pipelined 2026-07-28 tools/call); this is ~25 ns and
  // gives the same keys in the same order.
  const stamped: JsonObject = { resultType, ...result };
  stamped._meta = meta === undefined ? serverMeta : { ...meta, ...serverMeta };
  if (cache && resultType === 'complete') {
    stamped.ttlMs ??= cache.ttlMs;
    stamped.cacheScope ??= cache.cacheScope;
  }
  return stamped;
}
