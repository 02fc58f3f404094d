/**
 * Reserved `_meta` keys and logging levels.
 */

/** The reserved `_meta` keys of MCP, by purpose. */
export const MetaKey = {
  /** 2026-07-28, every request: the protocol version of this request (required). */
  protocolVersion: 'io.modelcontextprotocol/protocolVersion',
  /** 2026-07-28, every request: the client's capabilities for this request (required; `{}` means none). */
  clientCapabilities: 'io.modelcontextprotocol/clientCapabilities',
  /** 2026-07-28, every request: the client's `Implementation` (SHOULD). */
  clientInfo: 'io.modelcontextprotocol/clientInfo',
  /** 2026-07-28, optional and deprecated: the minimum level of `notifications/message` for this request. */
  logLevel: 'io.modelcontextprotocol/logLevel',
  /** 2026-07-28, results: the server's `Implementation` (SHOULD). */
  serverInfo: 'io.modelcontextprotocol/serverInfo',
  /** 2026-07-28: the listen request id that a subscription notification belongs to. */
  subscriptionId: 'io.modelcontextprotocol/subscriptionId',
  /** 2025-11-25 tasks: the task a message relates to. */
  relatedTask: 'io.modelcontextprotocol/related-task',
  /** 2025-11-25 tasks: an immediate answer for the model while a task runs. */
  modelImmediateResponse: 'io.modelcontextprotocol/model-immediate-response',
  /** All revisions: the progress token of a request. */
  progressToken: 'progressToken',
} as const;

/** RFC 5424 severities used by MCP logging, least severe first. */
export const LOG_LEVELS = ['debug', 'info', 'notice', 'warning', 'error', 'critical', 'alert', 'emergency'] as const;

/** One of the MCP logging levels. */
export type LogLevel = (typeof LOG_LEVELS)[number];

const SEVERITY: Record<string, number> = Object.fromEntries(LOG_LEVELS.map((level, index) => [level, index]));

/** True when `value` is a logging level name. */
export function isLogLevel(value: unknown): value is LogLevel {
  return typeof value === 'string' && SEVERITY[value] !== undefined;
}

/** The severity rank of a level (0 = debug … 7 = emergency). */
export function logLevelSeverity(level: LogLevel): number {
  return SEVERITY[level] ?? 0;
}

/** True when a message at `level` passes a threshold of `minimum`. */
export function shouldLog(level: LogLevel, minimum: LogLevel): boolean {
  return logLevelSeverity(level) >= logLevelSeverity(minimum);
}
