/**
 * Names from the OpenTelemetry semantic conventions for MCP (`open-telemetry/semantic-conventions-genai`,
 * `docs/gen-ai/mcp.md`, status Development) and how an operation maps onto them. Shared by tracing and metrics so
 * that a span and a histogram point of one operation carry the same attribute values.
 */
import type { McpOperation, OperationOutcome } from '@wiremcp/jsonrpc';

/** Attribute names used on spans and metric points. */
export const ATTR = {
  methodName: 'mcp.method.name',
  protocolVersion: 'mcp.protocol.version',
  sessionId: 'mcp.session.id',
  resourceUri: 'mcp.resource.uri',
  requestId: 'jsonrpc.request.id',
  responseStatusCode: 'rpc.response.status_code',
  toolName: 'gen_ai.tool.name',
  promptName: 'gen_ai.prompt.name',
  operationName: 'gen_ai.operation.name',
  errorType: 'error.type',
  networkTransport: 'network.transport',
  taskId: 'mcp.task.id',
} as const;

/** Bucket boundaries (seconds) the conventions advise for the MCP duration histograms. */
export const MCP_DURATION_BUCKETS: readonly number[] = [0.01, 0.02, 0.05, 0.1, 0.2, 0.5, 1, 2, 5, 10, 30, 60, 120, 300];

/** Longest name or value taken from the wire into a span name or attribute: hostile input stays bounded. */
export const MAX_ATTRIBUTE_LENGTH = 256;

/** A string from the wire, bounded; `undefined` for anything else. */
export function wireString(value: unknown): string | undefined {
  if (typeof value !== 'string' || value === '') return undefined;
  return value.length > MAX_ATTRIBUTE_LENGTH ? value.slice(0, MAX_ATTRIBUTE_LENGTH) : value;
}

/** The low-cardinality target of a span name: the tool or prompt name. */
export function operationTarget(operation: McpOperation): string | undefined {
  const method = operation.method;
  if (method === 'tools/call' || method === 'prompts/get') return wireString(operation.params?.name);
  return undefined;
}

/** `{mcp.method.name} {target}`, or the method alone. */
export function spanName(operation: McpOperation): string {
  const method = wireString(operation.method) ?? 'unknown';
  const target = operationTarget(operation);
  return target === undefined ? method : `${method} ${target}`;
}

/** `network.transport` of a server operation: `tcp` when it came with HTTP headers, `pipe` otherwise (stdio). */
export function serverTransport(operation: McpOperation): 'tcp' | 'pipe' {
  return operation.info?.headers !== undefined ? 'tcp' : 'pipe';
}

/** The attributes of an operation known when it starts. */
export function startAttributes(operation: McpOperation, transport: string | undefined): Record<string, string> {
  const attributes: Record<string, string> = { [ATTR.methodName]: wireString(operation.method) ?? 'unknown' };
  const version = wireString(operation.protocolVersion);
  if (version !== undefined) attributes[ATTR.protocolVersion] = version;
  const session = wireString(operation.sessionId);
  if (session !== undefined) attributes[ATTR.sessionId] = session;
  if (operation.id !== undefined) attributes[ATTR.requestId] = String(operation.id).slice(0, MAX_ATTRIBUTE_LENGTH);
  if (transport !== undefined) attributes[ATTR.networkTransport] = transport;
  const params = operation.params;
  switch (operation.method) {
    case 'tools/call': {
      attributes[ATTR.operationName] = 'execute_tool';
      const name = wireString(params?.name);
      if (name !== undefined) attributes[ATTR.toolName] = name;
      break;
    }
    case 'prompts/get': {
      const name = wireString(params?.name);
      if (name !== undefined) attributes[ATTR.promptName] = name;
      break;
    }
    case 'resources/read':
    case 'resources/subscribe':
    case 'resources/unsubscribe': {
      const uri = wireString(params?.uri);
      if (uri !== undefined) attributes[ATTR.resourceUri] = uri;
      break;
    }
    default: {
      const task = wireString(params?.taskId);
      if (task !== undefined && operation.method.startsWith('tasks/')) attributes[ATTR.taskId] = task;
    }
  }
  return attributes;
}

/** What an outcome says as `error.type` and `rpc.response.status_code`: nothing for a success. */
export interface OutcomeError {
  readonly type: string;
  readonly statusCode?: string;
}

/**
 * The error of an outcome: a JSON-RPC error's code (both attributes), a local error's code (`TIMEOUT`,
 * `CONNECTION_CLOSED`), `tool_error` for a tool result with `isError: true`; `undefined` for a success.
 */
export function outcomeError(outcome: OperationOutcome): OutcomeError | undefined {
  if ('error' in outcome && outcome.error !== undefined) {
    const code = (outcome.error as { code?: unknown } | null)?.code;
    if (typeof code === 'number' && Number.isInteger(code)) return { type: String(code), statusCode: String(code) };
    if (typeof code === 'string' && /^[A-Z_]{1,64}$/.test(code)) return { type: code };
    return { type: '_OTHER' };
  }
  const result = outcome.result as { isError?: unknown } | undefined;
  if (result !== null && typeof result === 'object' && result.isError === true) return { type: 'tool_error' };
  return undefined;
}

/** The task a result created (`CreateTaskResult` in either era), for the span of the call that started it. */
export function createdTaskId(outcome: OperationOutcome): string | undefined {
  const result = outcome.result as { task?: { taskId?: unknown }; resultType?: unknown } | null | undefined;
  if (result === null || typeof result !== 'object') return undefined;
  return wireString(result.task?.taskId);
}
