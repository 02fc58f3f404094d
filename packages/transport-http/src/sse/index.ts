// Server-Sent Events: the encoder (server side) and the incremental parser (client side).
export { SSE_CONTENT_TYPE, encodeSseEvent, encodeSseMessage, encodeSseComment, type SseEvent } from './encode.js';
export { SseParser, DEFAULT_MAX_SSE_EVENT_BYTES, type ParsedSseEvent, type SseParserOptions } from './parse.js';
