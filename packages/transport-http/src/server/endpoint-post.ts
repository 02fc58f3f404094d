/**
 * A POST to the MCP endpoint, from its headers to the era that serves it (the dual-era dispatch of the spec's
 * backward-compatibility rules):
 * 1. a body whose method is `initialize` opens a legacy session, unless its `MCP-Protocol-Version` header names a
 *    modern revision: such a request claims the 2026-07-28 envelope, where `initialize` is a removed method
 *    (404 with `-32601`, as the official conformance suite expects of a dual-era server);
 * 2. an `MCP-Protocol-Version` that is not a legacy revision (2026-07-28, or a version unknown here) is served
 *    statelessly: envelope and mirrored headers checked, then the server's `dispatch`; `Mcp-Session-Id` ignored;
 * 3. a body that claims the 2026-07-28 envelope without a matching header is a header mismatch (`-32020`);
 * 4. anything else belongs to a legacy session (a missing header means the session's revision, or 2025-03-26).
 */
import { describeInvalid, messageKind, MessageKind, parsePayload } from '@wiremcp/jsonrpc';
import { claimsModernEnvelope, ErrorCode, isLegacyProtocolVersion, metaOf, type RpcNotification, type RpcRequest } from '@wiremcp/protocol';
import { authorizeMessage, modernOrigin } from './authorize.js';
import { senderOf, type Call, type HandlerCore } from './call.js';
import { serveInitialize, serveSessionPost } from './legacy/streamable-routes.js';
import { httpMessageInfo } from './message-info.js';
import { serveModernNotification, serveModernRequest } from './modern-exchange.js';
import { checkModernRequest } from './modern-headers.js';
import { readBody, type BodyResult } from './read-body.js';
import { acceptance, isJsonContentType } from './request-checks.js';
import { rpcErrorResponse } from './responses.js';
import { HttpReply, type HttpRequest } from './adapter-contract.js';

/**
 * Reads and parses a JSON body under the limits; the parsed value, or the response refusing it. (Not an async function:
 * the body's promise is continued by one shared function, without a frame of its own per request.)
 */
export function readJsonBody(core: HandlerCore, request: HttpRequest): Promise<{ value: unknown } | HttpReply> {
  if (!isJsonContentType(request.headers.get('content-type'))) {
    return Promise.resolve(
      rpcErrorResponse(415, null, ErrorCode.InvalidRequest, 'Unsupported Media Type: the body must be application/json (UTF-8)'),
    );
  }
  return readBody(request, core.options.maxBodyBytes, core.deadlines).then(parsedBody);
}

/** The parsed body read, or the response refusing it (unreadable, too large, too slow, not JSON). */
function parsedBody(body: BodyResult): { value: unknown } | HttpReply {
  if (!body.ok) {
    return rpcErrorResponse(body.status, null, ErrorCode.InvalidRequest, body.message, undefined, { connection: 'close' });
  }
  try {
    return { value: parsePayload(body.bytes) };
  } catch (error) {
    return rpcErrorResponse(400, null, ErrorCode.ParseError, `Parse error: ${(error as Error).message}`);
  }
}

/** Serves a POST to the MCP endpoint. */
export async function serveEndpointPost(core: HandlerCore, call: Call): Promise<HttpReply> {
  const request = call.request;
  const accepts = acceptance(request.headers.get('accept'));
  if (!accepts.json || !accepts.sse) {
    return rpcErrorResponse(
      406,
      null,
      ErrorCode.InvalidRequest,
      'Not Acceptable: the Accept header must list application/json and text/event-stream',
    );
  }
  const parsed = await readJsonBody(core, request);
  if (parsed instanceof HttpReply) return parsed;
  const body = parsed.value;
  const single = typeof body === 'object' && body !== null && !Array.isArray(body) ? (body as Record<string, unknown>) : undefined;
  const versionHeader = request.headers.get('mcp-protocol-version');
  const modernHeader = versionHeader !== null && !isLegacyProtocolVersion(versionHeader.trim());
  if (single?.method === 'initialize' && !modernHeader) return serveInitialize(core, call, body);
  if (modernHeader) return serveModern(core, call, body, versionHeader);
  if (single !== undefined && claimsModernEnvelope(metaOf(single.params))) {
    const message = versionHeader === null ? 'the MCP-Protocol-Version header is required' : 'MCP-Protocol-Version does not match the body';
    return rpcErrorResponse(400, idOf(single), ErrorCode.HeaderMismatch, `Header mismatch: ${message}`);
  }
  return serveSessionPost(core, call, body);
}

function idOf(body: Record<string, unknown> | undefined): string | number | null {
  const id = body?.id;
  return typeof id === 'string' || typeof id === 'number' ? id : null;
}

/** A 2026-07-28 POST: one request or notification, never a batch or a response. */
function serveModern(core: HandlerCore, call: Call, body: unknown, versionHeader: string): Promise<HttpReply> | HttpReply {
  if (Array.isArray(body)) {
    return rpcErrorResponse(
      400,
      null,
      ErrorCode.InvalidRequest,
      'Invalid request: JSON-RPC batches are not supported by this protocol version',
    );
  }
  const kind = messageKind(body);
  if (kind === MessageKind.Invalid) {
    const invalid = describeInvalid(body);
    return rpcErrorResponse(400, invalid.id, invalid.code, invalid.message);
  }
  if (kind === MessageKind.Result || kind === MessageKind.Error) {
    return rpcErrorResponse(
      400,
      null,
      ErrorCode.InvalidRequest,
      'Invalid request: a client must not send responses in this protocol version',
    );
  }
  const notification = kind === MessageKind.Notification;
  if (!notification) {
    const refusal = checkModernRequest(call.request.headers, body as RpcRequest, versionHeader, core.server);
    if (refusal !== undefined) return rpcErrorResponse(refusal.status, (body as RpcRequest).id, refusal.code, refusal.message);
  }
  const forbidden = authorizeMessage(core, call, body, modernOrigin());
  if (forbidden === undefined) return serveModernMessage(core, call, body, notification);
  return forbidden instanceof Promise
    ? forbidden.then((refused) => refused ?? serveModernMessage(core, call, body, notification))
    : forbidden;
}

/** Serves a checked and authorized 2026-07-28 message (a function of its own: no closure per request). */
function serveModernMessage(core: HandlerCore, call: Call, body: unknown, notification: boolean): Promise<HttpReply> {
  const info = httpMessageInfo(call.request, call.principal, undefined, senderOf(call));
  return notification
    ? serveModernNotification(core, body as RpcNotification, info)
    : serveModernRequest(core, body as RpcRequest, info, call.request);
}
