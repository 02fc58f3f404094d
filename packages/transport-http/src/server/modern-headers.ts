/**
 * Checking a 2026-07-28 request before it is dispatched: its `_meta` envelope (a missing field is `-32602` with
 * HTTP 400, answered here so that a `-32602` coming back from dispatch is always a method's own), then the headers
 * that mirror the body (`MCP-Protocol-Version`, `Mcp-Method`, `Mcp-Name`, `Mcp-Param-*`), each mismatch `-32020`.
 */
import {
  decodeHeaderValue,
  ErrorCode,
  headerMatches,
  isEnvelopeProblem,
  metaOf,
  mirroredName,
  mirroredParams,
  quoteInput,
  readModernEnvelope,
  valueAt,
  type RpcRequest,
} from '@wiremcp/protocol';
import type { HttpRequestHeaders } from './adapter-contract.js';
import type { HttpServable } from './servable.js';

/** Why a request is refused before dispatch: the JSON-RPC error and its HTTP status (400). */
export interface Refusal {
  readonly status: number;
  readonly code: number;
  readonly message: string;
}

function mismatch(message: string): Refusal {
  return { status: 400, code: ErrorCode.HeaderMismatch, message: `Header mismatch: ${message}` };
}

/**
 * The refusal for a 2026-07-28 request whose envelope or mirrored headers are wrong, or `undefined` when it may be
 * dispatched. `headerVersion` is the request's `MCP-Protocol-Version` (`null` when absent).
 */
export function checkModernRequest(
  headers: HttpRequestHeaders,
  message: RpcRequest,
  headerVersion: string | null,
  server: HttpServable,
): Refusal | undefined {
  const params = message.params;
  const envelope = readModernEnvelope(metaOf(params));
  if (isEnvelopeProblem(envelope)) return { status: 400, code: ErrorCode.InvalidParams, message: envelope.problem };
  const version = envelope.protocolVersion;
  if (headerVersion === null) return mismatch('the MCP-Protocol-Version header is required');
  if (headerVersion.trim() !== version) {
    return mismatch(`MCP-Protocol-Version header value ${quoteInput(headerVersion)} does not match body value ${quoteInput(version)}`);
  }
  const methodHeader = headers.get('mcp-method');
  if (methodHeader === null) return mismatch('the Mcp-Method header is required');
  if (methodHeader.trim() !== message.method) {
    return mismatch(`Mcp-Method header value ${quoteInput(methodHeader.trim())} does not match body value ${quoteInput(message.method)}`);
  }
  const name = mirroredName(message.method, params);
  if (name === undefined) return undefined;
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
