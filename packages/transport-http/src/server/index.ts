// The server half of @wiremcp/transport-http: an MCP server as a web-standard fetch handler.
export { createHttpHandler, type HttpHandler } from './http-handler.js';
export { HTTP_HANDLER_DEFAULTS, defaultPrincipalKey, type HttpHandlerOptions, type LegacySseOptions } from './options.js';
export type {
  HttpServable,
  HttpServedConnection,
  HttpDispatchExchange,
  HttpToolDefinition,
  HttpEventRelay,
  LegacySessionSnapshot,
  HttpAuthenticator,
  HttpAuthContext,
  HttpAuthResult,
  HttpTaskOrigin,
} from './servable.js';
// The adapter contract (`HttpHandler.serve`): what a runtime adapter gives the handler and gets back.
export type { HttpRequest, HttpRequestHeaders, BodyRead, HttpReply, ReplyHeaders } from './adapter-contract.js';
export type { HttpConnectionInfo } from './request-checks.js';
export {
  MemoryEventStore,
  type EventStore,
  type EventStoreHeld,
  type StoredEvent,
  type EventReplay,
  type MemoryEventStoreOptions,
} from './event-store.js';
export { MemorySessionStore, type SessionStore, type SessionState } from './session-store.js';
export type { SessionBus, BusMessage } from './session-bus.js';
export type { SessionInfo } from './message-info.js';
export type { HealthOptions, Readiness } from './health.js';
