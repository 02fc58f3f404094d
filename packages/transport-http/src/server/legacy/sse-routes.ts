/**
 * The endpoints of the deprecated 2024-11-05 HTTP+SSE transport, when enabled: `GET` on the SSE path (or on the
 * MCP endpoint without a session) opens a session and announces `<messages path>?sessionId=<id>`; `POST` there
 * delivers one message and answers 202, the server's answers travelling on the session's stream.
 */
import { describeInvalid, messageKind, MessageKind } from '@wiremcp/jsonrpc';
import { authorizeMessage } from '../authorize.js';
import { findSession, senderOf, type Call, type HandlerCore } from '../call.js';
import { httpMessageInfo } from '../message-info.js';
import { rpcErrorResponse } from '../responses.js';
import { retryAfter, storeUnavailable } from './http-session.js';
import { RemoteSseSession } from './remote-sse-session.js';
import { newSessionId } from './session-registry.js';
import { SseSession } from './sse-session.js';
import { HttpReply, ReplyHeaders } from '../adapter-contract.js';

/** Opens a 2024-11-05 session (the caller checked `Accept`). */
export async function openSseSession(core: HandlerCore, call: Call, messagesPath: string): Promise<HttpReply> {
  if (!core.registry.hasRoom())
    return rpcErrorResponse(503, null, -32603, 'Too many sessions; try again later', undefined, retryAfter(503));
  if (!core.pool.hasRoom())
    return rpcErrorResponse(503, null, -32603, 'Too many open streams; try again later', undefined, retryAfter(503));
  const reservation = core.registry.reserve();
  try {
    const stream = core.pool.open();
    const session = new SseSession(newSessionId(), call.principalKey, stream, core.now(), (ended) => core.registry.remove(ended));
    try {
      await session.open(core.server, `${messagesPath}?sessionId=${encodeURIComponent(session.id)}`);
    } catch (error) {
      stream.close();
      throw error;
    }
    if (!(await recordSseSession(core, session))) {
      await session.end(0);
      return storeUnavailable(null);
    }
    core.registry.add(session);
    return stream.response;
  } finally {
    reservation.release();
  }
}

/**
 * With a bus, the session is recorded (the process holding its stream), so a POST reaching another process is handed
 * over to this one; false when the store could not record it (the session does not open).
 */
async function recordSseSession(core: HandlerCore, session: SseSession): Promise<boolean> {
  const bus = core.sessionHost.bus;
  if (bus === undefined) return true;
  try {
    const state = { id: session.id, protocolVersion: '2024-11-05', clientCapabilities: {}, subscriptions: [], initialized: true };
    await core.sessionHost.sessionStore.set(
      {
        ...state,
        createdAt: core.now(),
        sseHolder: bus.origin,
        ...(session.principalKey === undefined ? {} : { principalKey: session.principalKey }),
      },
      bus.origin,
    );
    return true;
  } catch (error) {
    core.report(error);
    return false;
  }
}

/** Delivers one POSTed message to its 2024-11-05 session (`?sessionId=`), answering 202. */
export async function serveSseMessage(core: HandlerCore, call: Call, sessionId: string | null, body: unknown): Promise<HttpReply> {
  if (sessionId === null) return rpcErrorResponse(400, null, -32600, 'Bad request: the sessionId query parameter is required');
  const found = await findSession(core, call, sessionId);
  if (found instanceof HttpReply) return found;
  if (!(found instanceof SseSession) && !(found instanceof RemoteSseSession))
    return rpcErrorResponse(404, null, -32600, 'Session not found on this endpoint');
  if (Array.isArray(body))
    return rpcErrorResponse(400, null, -32600, 'Invalid request: JSON-RPC batches are not supported by this transport');
  if (messageKind(body) === MessageKind.Invalid) {
    const invalid = describeInvalid(body);
    return rpcErrorResponse(400, invalid.id, invalid.code, invalid.message);
  }
  let forbidden = authorizeMessage(core, call, body, { era: 'legacy', session: { sessionId: found.id } });
  if (forbidden instanceof Promise) forbidden = await forbidden;
  if (forbidden) return forbidden;
  if (found instanceof RemoteSseSession) {
    // Its stream is held by another process: the message goes there, on the bus.
    const handed = await found.deliver(body, call.request, call.principal);
    if (handed === 'gone')
      return rpcErrorResponse(404, null, -32600, 'Session not found: its stream ended with the server process holding it');
    if (handed === 'unavailable') return storeUnavailable(null);
  } else found.deliver(body, httpMessageInfo(call.request, call.principal, { sessionId: found.id }, senderOf(call)), core.now());
  return new HttpReply(202, 'Accepted', new ReplyHeaders({ 'content-type': 'text/plain; charset=utf-8' }));
}
