// @wiremcp/framing: bytes ↔ payloads for newline-delimited JSON and LSP-style Content-Length framing.
// Web-standard APIs only (Uint8Array, TextEncoder): no runtime dependency, no Node built-ins.
export type { Framing } from './framing.js';
export type { DecoderOptions, FrameDecoder } from './decoder.js';
export { createDecoder } from './create-decoder.js';
export { detectFraming } from './detect-framing.js';
export { encodeFrame, encodeTextFrame } from './encode.js';
export { frameJson, frameText } from './frame-text.js';
export { FramingError } from './framing-error.js';
export type { FramingErrorCode, FramingErrorDetails } from './framing-error.js';
export { DEFAULT_MAX_FRAME_BYTES, DEFAULT_MAX_HEADER_BYTES } from './limits.js';
