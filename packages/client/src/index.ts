export { McpClient, type ConnectOptions } from './client.js';
export type {
  ClientOptions,
  CallOptions,
  ListOptions,
  EraPreference,
  ElicitationOptions,
  InputHandlers,
  InputContext,
  SamplingHandler,
  ElicitationHandler,
  RootsHandler,
} from './options.js';
export { MemoryEraCache, type EraCache, type CachedEra } from './era-cache.js';
export { MAX_TRANSPORT_ATTEMPTS, type TransportAttempt, type TransportFactory } from './transport-link.js';
export type { ListenOptions, ListenSubscription, ListenEnd, ListenEndReason } from './listen.js';
export type { ServerNotification, NotificationListener, ParamsOf } from './notification-hub.js';
export type { ListenerHandle } from './listener-handle.js';
export { clientCapabilitiesFor } from './capabilities.js';
export { applyElicitationDefaults } from './elicitation.js';
export { DEFAULT_PROBE_TIMEOUT_MS, DEFAULT_REQUEST_TIMEOUT_MS } from './settings.js';
export { DEFAULT_MAX_PAGES } from './pagination.js';
export { DEFAULT_MAX_INPUT_ROUNDS } from './mrtr.js';
export { LocalError, RpcError, isLocalError, type LocalErrorCode } from '@wiremcp/protocol';
export type * from './types.js';
export { ClientTasks, type TaskCallOptions, type TaskResultOptions, type ToolTaskStart } from './client-tasks.js';
export { TASKS_EXTENSION, isTerminal, type ClientTask, type ClientTaskStatus } from './task-shapes.js';
