// Wire constants shared by the hand-written baseline server and the raw client. No imports: the baseline must
// load nothing it does not need, so that its cold start is the practical limit.

/** The legacy revision the raw client asks for in `initialize`. */
export const LEGACY_VERSION = '2025-11-25';
/** The modern revision (per-request `_meta`, no handshake). */
export const MODERN_VERSION = '2026-07-28';

/** Reserved `_meta` keys of 2026-07-28. */
export const META_PROTOCOL_VERSION = 'io.modelcontextprotocol/protocolVersion';
export const META_CLIENT_CAPABILITIES = 'io.modelcontextprotocol/clientCapabilities';
export const META_CLIENT_INFO = 'io.modelcontextprotocol/clientInfo';
export const META_SERVER_INFO = 'io.modelcontextprotocol/serverInfo';

/** The protocol eras a row is measured in. */
export type Era = 'legacy' | 'modern';
