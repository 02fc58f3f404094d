// The client half of @wiremcp/transport-http.
export { StreamableHttpClientTransport, DEFAULT_CLOSE_TIMEOUT_MS } from './streamable-http-client-transport.js';
export {
  DEFAULT_MAX_RESPONSE_BYTES,
  DEFAULT_MAX_AUTH_RETRIES,
  type FetchLike,
  type HttpAuthHook,
  type HttpAuthRequest,
  type HttpClientOptions,
  type ReconnectOptions,
  type StreamableHttpClientOptions,
} from './options.js';
export { DEFAULT_RECONNECT } from './backoff.js';
// The x-mcp-header rule and the header codec are @wiremcp/protocol's; re-exported here, where clients used to find them.
export { scanToolHeaders, encodeHeaderValue, type ToolHeaderScan, type MirroredParam as HeaderParam } from '@wiremcp/protocol';
export type { HttpErrorDetails } from './errors.js';
export { SseClientTransport, DEFAULT_ENDPOINT_TIMEOUT_MS, type SseClientOptions } from './sse-client-transport.js';
export {
  httpTransportFactory,
  MemoryHttpTransportCache,
  type HttpTransportFactory,
  type HttpTransportFactoryOptions,
  type HttpTransportCache,
  type HttpTransportKind,
  type HttpTransportAttempt,
} from './http-transport-factory.js';
