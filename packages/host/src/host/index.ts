// The host half of @wiremcp/host: McpHost and what it is made of.
export { McpHost, type HostCallOptions, type ReadOptions } from './mcp-host.js';
export type {
  ConsentDecision,
  ConsentHook,
  HostEvents,
  HostHandlers,
  HostInputContext,
  HostOAuthOptions,
  HostRoot,
  McpHostOptions,
  ServerState,
  ServerStatus,
  ToolCallRequest,
} from './types.js';
export { HostError, isHostError, type HostErrorCode } from './host-error.js';
export { DEFAULT_RESTART_POLICY, type RestartPolicy } from './backoff.js';
export { formatStatusTable, type StatusTableOptions } from './status-table.js';
export type { Unsubscribe } from './events.js';
