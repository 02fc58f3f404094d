/**
 * Checking a 2026-07-28 request before it is dispatched: its `_meta` envelope (a missing field is `-32602` with
 * HTTP 400, answered here so that a `-32602` coming back from dispatch is always a method's own), then the headers
 * that mirror the body (`MCP-Protocol-Version`, `Mcp-Method`, `Mcp-Name`, `Mcp-Param-*`), each mismatch `-32020`.
 */
import { ErrorCode, isLogLevel, MetaKey, quoteInput, type RpcRequest } from '@wiremcp/protocol';
import { decodeHeaderValue } from './header-values.js';
import type { HttpServable } from './servable.js';
import { headerMatches, mirroredParams, valueAt } from './x-mcp-header.js';

/** Why a request is refused before dispatch: the JSON-RPC error and its HTTP status (400). */
export interface Refusal {
  readonly status: number;
  readonly code: number;
  readonly message: string;
}

/** The body field each named method mirrors into `Mcp-Name` (the tasks extension adds `taskId` for routing). */
const NAMED: Readonly<Record<string, 'name' | 'uri' | 'taskId'>> = {
  'tools/call': 'name',
  'prompts/get': 'name',
  'resources/read': 'uri',
  'tasks/get': 'taskId',
  'tasks/update': 'taskId',
  'tasks/cancel': 'taskId',
};

function invalidMeta(message: string): Refusal {
  return { status: 400, code: ErrorCode.InvalidParams, message };
}

function mismatch(message: string): Refusal {
  return { status: 400, code: ErrorCode.HeaderMismatch, message: `Header mismatch: ${message}` };
}

/** The `_meta` of a request's params, when it is an object. */
export function metaOf(message: { params?: unknown }): Record<string, unknown> | undefined {
  const meta = (message.params as Record<string, unknown> | undefined)?._meta;
  return typeof meta === 'object' && meta !== null && !Array.isArray(meta) ? (meta as Record<string, unknown>) : undefined;
}

/**
 * The refusal for a 2026-07-28 request whose envelope or mirrored headers are wrong, or `undefined` when it may be
 * dispatched. `headerVersion` is the request's `MCP-Protocol-Version` (`null` when absent).
 */
export function checkModernRequest(
  headers: Headers,
  message: RpcRequest,
  headerVersion: string | null,
  server: HttpServable,
): Refusal | undefined {
  const params = message.params;
  const meta = metaOf(message);
  const version = meta?.[MetaKey.protocolVersion];
  if (typeof version !== 'string') return invalidMeta(`Missing required _meta field "${MetaKey.protocolVersion}"`);
  if (headerVersion === null) return mismatch('the MCP-Protocol-Version header is required');
  if (headerVersion.trim() !== version) {
    return mismatch(`MCP-Protocol-Version header value ${quoteInput(headerVersion)} does not match body value ${quoteInput(version)}`);
  }
  const capabilities = meta![MetaKey.clientCapabilities];
  if (typeof capabilities !== 'object' || capabilities === null || Array.isArray(capabilities)) {
    return invalidMeta(`Missing required _meta field "${MetaKey.clientCapabilities}"`);
  }
  const logLevel = meta![MetaKey.logLevel];
  if (logLevel !== undefined && !isLogLevel(logLevel)) {
    return invalidMeta(`Invalid log level ${quoteInput(logLevel)} in _meta "${MetaKey.logLevel}"`);
  }
  const methodHeader = headers.get('mcp-method');
  if (methodHeader === null) return mismatch('the Mcp-Method header is required');
  if (methodHeader.trim() !== message.method) {
    return mismatch(`Mcp-Method header value ${quoteInput(methodHeader.trim())} does not match body value ${quoteInput(message.method)}`);
  }
  const field = NAMED[message.method];
  const name = field === undefined ? undefined : params?.[field];
  if (typeof name !== 'string') return undefined;
  const nameHeader = headers.get('mcp-name');
  if (nameHeader === null) return mismatch(`the Mcp-Name header is required for ${message.method}`);
  const decodedName = decodeHeaderValue(nameHeader);
  if (decodedName === undefined) return mismatch('the Mcp-Name header value is malformed');
  if (decodedName !== name)
    return mismatch(`Mcp-Name header value ${quoteInput(decodedName)} does not match body value ${quoteInput(name)}`);
  if (message.method !== 'tools/call' || server.tool === undefined) return undefined;
  const tool = server.tool(name);
  if (tool === undefined) return undefined;
  const args = params?.arguments;
  for (const param of mirroredParams(tool.inputSchema)) {
    const value = valueAt(args, param.path);
    const header = headers.get(param.header);
    if (value === undefined || value === null) {
      if (header !== null) return mismatch(`Mcp-Param-${param.name} is sent but the argument has no value`);
      continue;
    }
    if (header === null) return mismatch(`the Mcp-Param-${param.name} header is required: the argument has a value`);
    const decoded = decodeHeaderValue(header);
    if (decoded === undefined) return mismatch(`the Mcp-Param-${param.name} header value is malformed`);
    if (!headerMatches(decoded, value, param.type)) {
      return mismatch(`Mcp-Param-${param.name} header value ${quoteInput(decoded)} does not match the argument ${quoteInput(value)}`);
    }
  }
  return undefined;
}
