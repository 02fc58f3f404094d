/**
 * The legacy Streamable HTTP requests on the MCP endpoint (2025-03-26 … 2025-11-25): `initialize` opens a session;
 * every later POST, GET and DELETE names it with `Mcp-Session-Id` (400 without, 404 for one that is unknown, ended
 * or another principal's) and, from 2025-06-18, states the negotiated revision in `MCP-Protocol-Version` (400 for
 * another one; absent means the session's own).
 */
import { describeInvalid, messageKind, MessageKind } from '@wiremcp/jsonrpc';
import type { RequestId, RpcRequest } from '@wiremcp/protocol';
import { authorizeMessage } from '../authorize.js';
import { findSession, senderOf, type Call, type HandlerCore } from '../call.js';
import type { LiveSession } from './session-registry.js';
import { httpMessageInfo } from '../message-info.js';
import { rpcErrorResponse } from '../responses.js';
import { classifyPost, HttpSession, retryAfter, type SessionPost } from './http-session.js';
import { newSessionId } from './session-registry.js';
import { HttpReply } from '../adapter-contract.js';

function idOf(body: unknown): RequestId | null {
  const id = (body as { id?: unknown } | null)?.id;
  return typeof id === 'string' || typeof id === 'number' ? id : null;
}

/** Serves `initialize`: a new session, whose id the response carries when the handshake succeeds. */
export async function serveInitialize(core: HandlerCore, call: Call, body: unknown): Promise<HttpReply> {
  if (call.request.headers.get('mcp-session-id') !== null) {
    return rpcErrorResponse(400, idOf(body), -32600, 'Invalid request: initialize must be sent without Mcp-Session-Id');
  }
  if (messageKind(body) !== MessageKind.Request) {
    const invalid = describeInvalid(body);
    return rpcErrorResponse(400, invalid.id, invalid.code, invalid.message);
  }
  let forbidden = authorizeMessage(core, call, body, { era: 'legacy' });
  if (forbidden instanceof Promise) forbidden = await forbidden;
  if (forbidden) return forbidden;
  if (!core.registry.hasRoom()) {
    return rpcErrorResponse(503, idOf(body), -32603, 'Too many sessions; try again later', undefined, retryAfter(503));
  }
  const reservation = core.registry.reserve();
  try {
    const session = new HttpSession(core.sessionHost, newSessionId(), call.principalKey);
    if (core.sessionHost.bus !== undefined) session.verifiedEpoch = core.registry.epoch;
    await session.connect();
    const info = httpMessageInfo(call.request, call.principal, { sessionId: session.id }, senderOf(call));
    const { response, opened } = await session.initialize(body as RpcRequest, info);
    if (opened) core.registry.add(session);
    return response;
  } finally {
    reservation.release();
  }
}

/**
 * Checks the session and revision headers of a request in a session: the session, or the response to send. A session
 * held here (the common case) is answered at once, without a promise; only the lookup that may go to the session store
 * is asynchronous.
 */
function sessionOf(core: HandlerCore, call: Call, body: unknown): HttpSession | HttpReply | Promise<HttpSession | HttpReply> {
  const id = call.request.headers.get('mcp-session-id');
  if (id === null) {
    return rpcErrorResponse(400, idOf(body), -32600, 'Bad request: the Mcp-Session-Id header is required (send initialize first)');
  }
  const key = id.trim();
  const held = core.registry.current(key);
  if (held !== undefined && held.principalKey === call.principalKey) return checkedSession(call, body, held);
  return findSession(core, call, key).then((found) => checkedSession(call, body, found));
}

/** The session found for a request, once its revision header is checked (or the response to send). */
function checkedSession(call: Call, body: unknown, found: LiveSession | HttpReply): HttpSession | HttpReply {
  if (found instanceof HttpReply) return found;
  if (!(found instanceof HttpSession)) return rpcErrorResponse(404, null, -32600, 'Session not found on this endpoint');
  const version = call.request.headers.get('mcp-protocol-version');
  if (version !== null && found.protocolVersion !== undefined && version.trim() !== found.protocolVersion) {
    return rpcErrorResponse(
      400,
      idOf(body),
      -32600,
      `Bad request: MCP-Protocol-Version ${JSON.stringify(version.trim().slice(0, 32))} is not this session's (${found.protocolVersion})`,
    );
  }
  return found;
}

/** Serves a POST in a session: its messages go to the session's connection. */
export function serveSessionPost(core: HandlerCore, call: Call, body: unknown): HttpReply | Promise<HttpReply> {
  const session = sessionOf(core, call, body);
  if (session instanceof Promise) return session.then((found) => postInSession(core, call, body, found));
  return postInSession(core, call, body, session);
}

function postInSession(core: HandlerCore, call: Call, body: unknown, session: HttpSession | HttpReply): HttpReply | Promise<HttpReply> {
  if (session instanceof HttpReply) return session;
  const post = classifyPost(body);
  if (post === undefined) {
    if (Array.isArray(body))
      return rpcErrorResponse(400, null, -32600, 'Invalid request: the batch holds an element that is not a JSON-RPC message');
    const invalid = describeInvalid(body);
    return rpcErrorResponse(400, invalid.id, invalid.code, invalid.message);
  }
  if (Array.isArray(body) && body.length === 0) return rpcErrorResponse(400, null, -32600, 'Invalid request: empty batch');
  const refused = session.postRefusal(post);
  if (refused) return refused;
  // Without an authenticator every message may be sent (authorizeMessage), so nothing is built to ask it.
  if (core.options.authenticator !== undefined) return authorizedPost(core, call, session, post);
  return session.post(call.request, post, call.principal, call.connection?.remoteAddress);
}

/** A session POST once each of its messages is authorized (the first refusal is the answer). */
async function authorizedPost(core: HandlerCore, call: Call, session: HttpSession, post: SessionPost): Promise<HttpReply> {
  const body = post.body;
  const origin = { era: 'legacy', session: { sessionId: session.id, principalKey: session.principalKey } } as const;
  for (const message of Array.isArray(body) ? body : [body]) {
    let forbidden = authorizeMessage(core, call, message, origin);
    if (forbidden instanceof Promise) forbidden = await forbidden;
    if (forbidden) return forbidden;
  }
  return session.post(call.request, post, call.principal, call.connection?.remoteAddress);
}

/** Serves a GET in a session: the standalone stream or a resumption. */
export async function serveSessionGet(core: HandlerCore, call: Call): Promise<HttpReply> {
  const session = await sessionOf(core, call, undefined);
  return session instanceof HttpReply ? session : session.get(call.request);
}

/** Serves a DELETE: the session ends. */
export async function serveSessionDelete(core: HandlerCore, call: Call): Promise<HttpReply> {
  const session = await sessionOf(core, call, undefined);
  return session instanceof HttpReply ? session : session.delete();
}
