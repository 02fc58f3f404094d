/**
 * What the handler knows about one HTTP request once it passed the checks: the request, its connection, the
 * authenticated principal (and the key sessions are bound to), and the shared parts of the handler the routes use.
 */
import type { Deadlines } from './deadlines.js';
import type { SessionHost } from './legacy/http-session.js';
import type { LiveSession, SessionRegistry } from './legacy/session-registry.js';
import type { ResolvedOptions } from './options.js';
import type { HttpConnectionInfo } from './request-checks.js';
import type { SenderInfo } from './message-info.js';
import { rpcErrorResponse } from './responses.js';
import type { HttpServable } from './servable.js';
import type { SsePool } from './sse-connection.js';
import type { BodyRead, HttpReply, HttpRequest } from './adapter-contract.js';

/** The parts of a handler every route shares. */
export interface HandlerCore {
  readonly server: HttpServable;
  readonly options: ResolvedOptions;
  readonly pool: SsePool;
  readonly deadlines: Deadlines<BodyRead>;
  /**
   * The `Host` last allowed on each connection whose info object is frozen (the node adapter's, one per socket): a
   * kept-alive socket sends the same `Host` every time, so only a different one is checked again.
   */
  readonly hostAllowedOn: WeakMap<HttpConnectionInfo, string>;
  readonly registry: SessionRegistry;
  readonly sessionHost: SessionHost;
  readonly report: (error: unknown) => void;
  now(): number;
}

/** One request being served. */
export interface Call {
  readonly request: HttpRequest;
  readonly connection: HttpConnectionInfo | undefined;
  /** The authenticated principal (`undefined` without an authenticator). */
  readonly principal: unknown;
  /** The key a session is bound to (`undefined` without an authenticator). */
  readonly principalKey: string | undefined;
  /** The public URL of the endpoint (for `authorize`). */
  readonly resource: URL | undefined;
}

/** Who sent the call, for its messages' info. */
export function senderOf(call: Call): SenderInfo {
  return { principalKey: call.principalKey, clientAddress: call.connection?.remoteAddress };
}

/**
 * The session named by a request's id: held here or restored from the session store, and bound to the same
 * principal; otherwise the 404 to answer (an unknown, ended or expired session, or another principal's).
 */
export async function findSession(core: HandlerCore, call: Call, id: string): Promise<LiveSession | HttpReply> {
  const found = await core.registry.lookup(id);
  if ('unavailable' in found) {
    return rpcErrorResponse(503, null, -32603, 'Service unavailable: the session store cannot be reached; try again later', undefined, {
      'retry-after': '1',
    });
  }
  if ('missing' in found || found.session.principalKey !== call.principalKey) {
    return rpcErrorResponse(404, null, -32600, 'Session not found: it ended or expired; send initialize without Mcp-Session-Id');
  }
  return found.session;
}
