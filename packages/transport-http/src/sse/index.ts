// Server-Sent Events: the encoder (server side) and the parser (client side).
export { SSE_CONTENT_TYPE, encodeSseEvent, encodeSseMessage, encodeSseComment, type SseEvent } from './encode.js';
