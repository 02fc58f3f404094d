// Server-Sent Events: the incremental parser (client side).
export { SseParser, DEFAULT_MAX_SSE_EVENT_BYTES, type ParsedSseEvent, type SseParserOptions } from './parse.js';
