/**
 * The 2026-07-28 request envelope: every request carries the protocol version, the client's capabilities and
 * identity (and optionally a log level) in `params._meta`. The object is built once per change of those values and
 * shared by every request, so a request costs one copy of its params, nothing more; it is `preserialize`d, so a
 * transport that writes with `stringifyMessage` (stdio) splices its JSON text in instead of serialising it again.
 */
import { preserialize } from '@wiremcp/jsonrpc';
import { MetaKey, type LogLevel } from '@wiremcp/protocol';
import type { ClientCapabilities, Implementation, JsonObject, Meta } from './types.js';

/**
 * Builds the `_meta` object of modern requests: a deep-frozen snapshot of the values (a later change to the caller's
 * capabilities or identity objects does not reach it), with its JSON text kept.
 */
export function buildModernMeta(
  protocolVersion: string,
  capabilities: ClientCapabilities,
  clientInfo: Implementation,
  logLevel: LogLevel | undefined,
): Readonly<Meta> {
  const meta: Meta = {
    [MetaKey.protocolVersion]: protocolVersion,
    [MetaKey.clientCapabilities]: capabilities,
    [MetaKey.clientInfo]: clientInfo,
  };
  if (logLevel !== undefined) meta[MetaKey.logLevel] = logLevel;
  return preserialize(meta);
}

/**
 * `params` with the modern `_meta`. Extra keys from the caller (`extra`, e.g. `traceparent`) are kept, but the
 * reserved keys always come from `meta`: a caller cannot make a request lie about its version or capabilities.
 */
export function withMeta(params: JsonObject | undefined, meta: Readonly<Meta>, extra: Meta | undefined): JsonObject {
  const _meta = extra === undefined ? meta : { ...extra, ...meta };
  return params === undefined ? { _meta } : withKey(params, _meta);
}

/**
 * `{ ...params, _meta }`, built key by key: V8 takes a slow path for a property added to (or after) a spread copy,
 * ~0.5 µs per request against ~0.05 µs this way (7% of the client's CPU on a pipelined 2026-07-28 tools/call).
 * Same keys, same order, `_meta` replacing one `params` already had. A `__proto__` key (possible in params that
 * came from JSON.parse) would set the copy's prototype if assigned, so that rare case keeps the spread.
 */
function withKey(params: JsonObject, _meta: Meta): JsonObject {
  const out: JsonObject = {};
  for (const key of Object.keys(params)) {
    if (key === '__proto__') return { ...params, _meta };
    out[key] = params[key];
  }
  out._meta = _meta;
  return out;
}

/** `params` with the caller's extra `_meta` keys (legacy requests: no reserved keys to add). */
export function withExtraMeta(params: JsonObject | undefined, extra: Meta | undefined): JsonObject | undefined {
  if (extra === undefined) return params;
  return params === undefined ? { _meta: extra } : withKey(params, extra);
}
