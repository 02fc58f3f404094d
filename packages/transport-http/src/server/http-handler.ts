/**
 * `createHttpHandler`: an MCP server as a web-standard fetch handler (`Request` → `Promise<Response>`, through the
 * fetch adapter; the node adapter calls the core's `serve` with its own request and reply types), serving
 * every revision on one endpoint — 2026-07-28 requests statelessly through the server's `dispatch`, legacy
 * sessions (2025-03-26 … 2025-11-25) through one `connect`ed transport each, and optionally the 2024-11-05
 * HTTP+SSE endpoints. Every request is checked in the same order: `Host`, `Origin`, the authenticator's metadata
 * documents, the path, the method, authentication, then the route's own rules, which authorize each message of the
 * body (`authorize.ts`).
 */
import { ErrorCode, isLegacyProtocolVersion } from '@wiremcp/protocol';
import { HttpReply, type HttpRequest } from './adapter-contract.js';
import { announcedOperation } from './authorize.js';
import type { Call, HandlerCore } from './call.js';
import { Deadlines } from './deadlines.js';
import { serveEndpointPost, readJsonBody } from './endpoint-post.js';
import { MemoryEventStore } from './event-store.js';
import { replyFromWeb, WebHttpRequest, webResponse } from './fetch-adapter.js';
import { serveHealth } from './health.js';
import { HttpSession, type SessionHost } from './legacy/http-session.js';
import { SessionRegistry } from './legacy/session-registry.js';
import { deliverForwarded, SseSession } from './legacy/sse-session.js';
import { openSseSession, serveSseMessage } from './legacy/sse-routes.js';
import { serveSessionDelete, serveSessionGet } from './legacy/streamable-routes.js';
import { resolveOptions, type HttpHandlerOptions } from './options.js';
import { expireBodyRead } from './read-body.js';
import type { BusMessage } from './session-bus.js';
import { sessionBusView, type SessionBusView } from './session-bus-view.js';
import { streamUnknown } from './legacy/stream-resumption.js';
import { releasedMessage } from './legacy/standalone-handover.js';
import { acceptance, hostAllowed, hostOf, originAllowed, type HttpConnectionInfo } from './request-checks.js';
import { emptyResponse, rpcErrorResponse } from './responses.js';
import type { HttpEventRelay, HttpServable } from './servable.js';
import { MemorySessionStore } from './session-store.js';
import { SsePool } from './sse-connection.js';

/** The handler `createHttpHandler` returns: a fetch handler with a way to shut it down and a look inside. */
export interface HttpHandler {
  /**
   * Serves one request. `connection` says where it arrived (the node adapter passes it): on a loopback address,
   * `Host` is checked against the loopback names and the bound port, and loopback origins are allowed.
   */
  (request: Request, connection?: HttpConnectionInfo): Promise<Response>;
  /**
   * Serves one request in the terms of the adapter contract (`adapter-contract.ts`): what the node adapter calls,
   * without the web `Request` and `Response` of the fetch handler above (which is this, through the fetch adapter).
   */
  serve(request: HttpRequest, connection?: HttpConnectionInfo): Promise<HttpReply>;
  /**
   * Ends every legacy session (listen streams ended, requests in progress given `graceMs`, default 1 000) and
   * closes every open stream, each with a last `retry:` field so that its client reconnects. With a `bus` (sessions
   * shared with other processes) the sessions are only dropped here: their recorded state and events stay in the
   * shared stores, so their clients resume on another process. Requests that arrive afterwards are still served (the
   * handler holds no socket).
   */
  close(graceMs?: number): Promise<void>;
  /** The MCP endpoint's path (`options.path`, default `/mcp`). */
  readonly path: string;
  /** Sessions held and SSE streams open now. */
  readonly stats: { readonly sessions: number; readonly openStreams: number };
}

const ALLOW = 'GET, POST, DELETE, OPTIONS';
const EXPOSED = 'mcp-session-id, mcp-protocol-version, www-authenticate, dpop-nonce, retry-after';

/**
 * Path and query of a request: from its target as received when the adapter gives one, else from its absolute URL
 * (without parsing it whole).
 */
function splitUrl(request: HttpRequest): { path: string; query: string } {
  const target = request.target;
  const url = target ?? request.url;
  const scheme = target === undefined ? url.indexOf('://') : -1;
  const start = scheme === -1 ? 0 : url.indexOf('/', scheme + 3);
  if (start === -1) return { path: '/', query: '' };
  const hash = url.indexOf('#', start);
  const end = hash === -1 ? url.length : hash;
  const q = url.indexOf('?', start);
  if (q === -1 || q > end) return { path: url.slice(start, end), query: '' };
  return { path: url.slice(start, q), query: url.slice(q + 1, end) };
}

/**
 * Creates the handler; see {@link HttpHandlerOptions} for every option and its default. `server` is an
 * `McpServer` of `@wiremcp/server` (or anything with its `dispatch` and `connect`).
 */
export function createHttpHandler(server: HttpServable, options: HttpHandlerOptions = {}): HttpHandler {
  const resolved = resolveOptions(options, { eventStore: () => new MemoryEventStore(), sessionStore: () => new MemorySessionStore() });
  const report = resolved.onError;
  const now = Date.now;
  const pool = new SsePool(resolved);
  const instance = Math.floor(Math.random() * 36 ** 6).toString(36);
  let streams = 0;
  const bus = resolved.bus;
  const publish = (message: BusMessage): void => {
    try {
      const sent = bus!.publish(message);
      if (sent) sent.catch(report);
    } catch (error) {
      report(error);
    }
  };
  // `relay` is attached below (it publishes through `publish`); sessions read it only once they serve.
  const busView: SessionBusView | undefined =
    bus === undefined ? undefined : sessionBusView(bus, instance, publish, () => relay, server.relayEvents !== undefined);
  const sessionHost: SessionHost = {
    server,
    pool,
    store: resolved.eventStore,
    sessionStore: resolved.sessionStore,
    maxStreamsPerSession: resolved.maxStreamsPerSession,
    maxQueuedEvents: resolved.maxQueuedEventsPerSession,
    retryMs: resolved.retryMs,
    report,
    now,
    newStreamId: () => `${instance}${(streams++).toString(36)}`,
    ended: (session) => registry.remove(session),
    ...(busView === undefined ? {} : { bus: busView }),
    ownerCheckMs: resolved.streamOwnerCheckMs,
  };
  const registry = new SessionRegistry(sessionHost, resolved);
  const core: HandlerCore = {
    server,
    options: resolved,
    pool,
    deadlines: new Deadlines(resolved.bodyTimeoutMs, expireBodyRead),
    hostAllowedOn: new WeakMap(),
    registry,
    sessionHost,
    report,
    now,
  };

  const failed = (error: unknown): HttpReply => {
    report(error);
    return rpcErrorResponse(500, null, ErrorCode.InternalError, 'Internal error');
  };
  // Not an async function: a request without an `Origin` (any non-browser client) gets the route's reply as it comes.
  const serve = (request: HttpRequest, connection?: HttpConnectionInfo): Promise<HttpReply> => {
    let origin: string | null = null;
    let routed: HttpReply | Promise<HttpReply>;
    try {
      origin = request.headers.get('origin');
      routed = route(core, request, validConnection(connection), origin);
    } catch (error) {
      routed = failed(error);
    }
    if (origin === null) return routed instanceof Promise ? routed.catch(failed) : Promise.resolve(routed);
    const allowed = origin;
    return Promise.resolve(routed).then(
      (reply) => withCors(reply, allowed),
      (error: unknown) => withCors(failed(error), allowed),
    );
  };
  const handle = (request: Request, connection?: HttpConnectionInfo): Promise<Response> =>
    serve(new WebHttpRequest(request), connection).then(webResponse);
  // Server-wide events cross processes on the bus too, for the 2026-07-28 listen streams held elsewhere.
  const relay: HttpEventRelay | undefined =
    busView === undefined
      ? undefined
      : server.relayEvents?.((event) => {
          busView.published(event as { id: string });
          publish({ kind: 'event', origin: instance, event });
        });
  const unsubscribe = bus?.subscribe((message) => {
    // Where this process's own events fall among what it hears (see `session-bus-view.ts`).
    if (message.kind === 'event' && message.origin === instance) return busView!.echoed(message.event);
    // This process's own `handover` comes back too: where, among the events relayed, its takeover begins.
    if ((message.origin === instance && message.kind !== 'handover') || ('target' in message && message.target !== instance)) return;
    if (message.kind === 'event') return relay?.deliver(message.event);
    const held = registry.held(message.sessionId);
    if (held instanceof SseSession) {
      if (message.kind === 'deliver' && message.target === instance) deliverForwarded(held, message, now());
      return;
    }
    if (!(held instanceof HttpSession)) {
      // A stream of a session no longer held here: it ended here, so the follower reads the rest from the store.
      if (message.kind === 'follow') publish(streamUnknown(instance, message));
      // The stream's named holder holds nothing of the session: the taker carries on from the store.
      else if (message.kind === 'handover' && message.owner === instance && message.origin !== instance)
        publish(releasedMessage(instance, message));
      return;
    }
    if (message.kind === 'ended' || (message.kind === 'state' && !held.busy)) void held.forget();
    else if (message.kind === 'state') {
      // A copy in use takes the new state (its subscriptions, log level); without it, it is checked before its next use.
      if (message.state !== undefined && message.state.id === held.id) held.refresh(message.state);
      else held.verifiedEpoch = -1;
    } else held.transport.forwarded(message);
  });
  const lost = bus?.onMessagesLost?.(() => (busView!.forgetEchoes(), registry.messagesLost()));
  // Visible to the other processes as alive (they follow this process's streams, and end them once it died).
  if (bus?.join !== undefined) void Promise.resolve(bus.join(instance)).catch(report);
  const close = async (graceMs = 1000): Promise<void> => {
    pool.closingRetryMs = resolved.retryMs;
    // The bus and the relay stay until the sessions are dropped: a standalone stream is stored here until another
    // process took it over, and events raised here meanwhile still reach the other processes.
    await registry.closeAll(graceMs);
    unsubscribe?.();
    lost?.();
    relay?.stop();
    pool.closeAll();
    core.deadlines.clear();
  };
  return Object.defineProperties(handle, {
    serve: { value: serve, enumerable: true },
    path: { value: resolved.path, enumerable: true },
    close: { value: close, enumerable: true },
    stats: { get: () => ({ sessions: registry.size, openStreams: pool.size }), enumerable: true },
  }) as HttpHandler;
}

function validConnection(connection: unknown): HttpConnectionInfo | undefined {
  if (typeof connection !== 'object' || connection === null) return undefined;
  const { localAddress, localPort, remoteAddress } = connection as { localAddress?: unknown; localPort?: unknown; remoteAddress?: unknown };
  if (
    (localAddress === undefined || typeof localAddress === 'string') &&
    (localPort === undefined || typeof localPort === 'number') &&
    (remoteAddress === undefined || typeof remoteAddress === 'string')
  ) {
    return connection as HttpConnectionInfo;
  }
  return {
    localAddress: typeof localAddress === 'string' ? localAddress : undefined,
    localPort: typeof localPort === 'number' ? localPort : undefined,
    remoteAddress: typeof remoteAddress === 'string' ? remoteAddress : undefined,
  };
}

/**
 * Routes a request: the `Host` and `Origin` checks, the health paths, the metadata documents, the path and the
 * method, authentication, then the route's own rules. Not an async function: without health paths and an
 * authenticator (nothing to wait for before the route) the route's own reply or promise is returned as it is.
 */
function route(
  core: HandlerCore,
  request: HttpRequest,
  connection: HttpConnectionInfo | undefined,
  origin: string | null,
): HttpReply | Promise<HttpReply> {
  const options = core.options;
  const host = hostOf(request);
  if (connection === undefined || core.hostAllowedOn.get(connection) !== host) {
    if (!hostAllowed(host, options.allowedHosts, connection)) {
      return rpcErrorResponse(403, null, ErrorCode.InvalidRequest, 'Forbidden: this Host is not served here (DNS rebinding protection)');
    }
    // Only an object nobody can change afterwards: the check's answer depends on its addresses.
    if (connection !== undefined && Object.isFrozen(connection)) core.hostAllowedOn.set(connection, host);
  }
  if (!originAllowed(origin, host, options.allowedOrigins, connection)) {
    return rpcErrorResponse(403, null, ErrorCode.InvalidRequest, 'Forbidden: this Origin is not allowed');
  }
  const { path, query } = splitUrl(request);
  const health = options.health;
  // Probes carry no token: the health paths come before authentication (and after the Host and Origin checks).
  if (health !== undefined) {
    return serveHealth(health, path, request.method).then((reply) => reply ?? routePath(core, request, connection, path, query));
  }
  return routePath(core, request, connection, path, query);
}

/** Routes a request that passed the checks before the health paths (and is not one of them). */
function routePath(
  core: HandlerCore,
  request: HttpRequest,
  connection: HttpConnectionInfo | undefined,
  path: string,
  query: string,
): HttpReply | Promise<HttpReply> {
  const options = core.options;
  const authenticator = options.authenticator;
  // The metadata documents are RFC 9728 well-known URLs: only those paths are shown to the authenticator.
  const metadata =
    authenticator !== undefined && path.startsWith('/.well-known/')
      ? authenticator.protectedResourceMetadata(request.webRequest())
      : undefined;
  if (metadata) return replyFromWeb(metadata);
  const sse = options.legacySse;
  const endpoint = path === options.path;
  if (!endpoint && (sse === undefined || (path !== sse.ssePath && path !== sse.messagesPath))) {
    const notFound = rpcErrorResponse(404, null, ErrorCode.InvalidRequest, 'Not found: this server serves MCP on another path');
    notFound.notHandled = true;
    return notFound;
  }
  const method = request.method;
  if (method === 'OPTIONS') return preflight(request);
  const allowed = endpoint
    ? method === 'POST' || method === 'GET' || method === 'DELETE'
    : path === sse!.ssePath
      ? method === 'GET'
      : method === 'POST';
  if (!allowed) {
    return emptyResponse(405, { allow: endpoint ? ALLOW : path === sse!.ssePath ? 'GET, OPTIONS' : 'POST, OPTIONS' });
  }
  if (authenticator !== undefined) return authenticated(core, request, connection, endpoint, path, query);
  return serve(core, { request, connection, principal: undefined, principalKey: undefined, resource: undefined }, endpoint, path, query);
}

/** Serves a request once the authenticator accepted it (its headers added to the reply), or its refusal. */
async function authenticated(
  core: HandlerCore,
  request: HttpRequest,
  connection: HttpConnectionInfo | undefined,
  endpoint: boolean,
  path: string,
  query: string,
): Promise<HttpReply> {
  const options = core.options;
  const resource = options.resourceUrl ?? new URL(options.path, request.url);
  // Only the token and the scopes every request needs are checked here; each message is authorized from the body.
  const announced = announcedOperation(request.headers);
  const result = await options.authenticator!.authenticate(
    request.webRequest(),
    announced === undefined ? { resource } : { resource, announced },
  );
  if ('response' in result) return replyFromWeb(result.response);
  const call: Call = { request, connection, principal: result.principal, principalKey: options.principalKey(result.principal), resource };
  const response = await serve(core, call, endpoint, path, query);
  const authHeaders = result.headers;
  if (authHeaders) for (const [name, value] of Object.entries(authHeaders)) response.headers.set(name, value);
  return response;
}

/** Serves a request that passed the checks (not an async function: each route returns its own reply or promise). */
function serve(core: HandlerCore, call: Call, endpoint: boolean, path: string, query: string): HttpReply | Promise<HttpReply> {
  const request = call.request;
  const sse = core.options.legacySse;
  if (!endpoint) {
    if (path === sse!.ssePath) {
      if (!acceptance(request.headers.get('accept')).sse) return notAcceptable();
      return openSseSession(core, call, sse!.messagesPath);
    }
    return sseMessage(core, call, new URLSearchParams(query).get('sessionId'));
  }
  switch (request.method) {
    case 'POST': {
      const sessionQuery = sse !== undefined && query !== '' ? new URLSearchParams(query).get('sessionId') : null;
      if (sessionQuery !== null) return sseMessage(core, call, sessionQuery);
      return serveEndpointPost(core, call);
    }
    case 'GET': {
      if (!acceptance(request.headers.get('accept')).sse) return notAcceptable();
      if (request.headers.get('mcp-session-id') === null) {
        if (sse !== undefined) return openSseSession(core, call, sse.messagesPath);
        if (isModernHeader(request)) return emptyResponse(405, { allow: 'POST, OPTIONS' });
      }
      return serveSessionGet(core, call);
    }
    default: {
      if (request.headers.get('mcp-session-id') === null && isModernHeader(request)) return emptyResponse(405, { allow: 'POST, OPTIONS' });
      return serveSessionDelete(core, call);
    }
  }
}

/** A POST of a 2024-11-05 HTTP+SSE session's message (its body read, then handed to the session). */
async function sseMessage(core: HandlerCore, call: Call, sessionId: string | null): Promise<HttpReply> {
  const parsed = await readJsonBody(core, call.request);
  return parsed instanceof HttpReply ? parsed : serveSseMessage(core, call, sessionId, parsed.value);
}

/** The CORS headers of a reply to a browser's request (from an `Origin` that passed the check; a 403 gets none). */
function withCors(reply: HttpReply, origin: string): HttpReply {
  if (reply.status !== 403) {
    reply.headers.set('access-control-allow-origin', origin);
    reply.headers.set('access-control-expose-headers', EXPOSED);
    reply.headers.append('vary', 'Origin');
  }
  return reply;
}

function isModernHeader(request: HttpRequest): boolean {
  const version = request.headers.get('mcp-protocol-version')?.trim();
  return version !== undefined && !isLegacyProtocolVersion(version);
}

function notAcceptable(): HttpReply {
  return rpcErrorResponse(406, null, ErrorCode.InvalidRequest, 'Not Acceptable: the Accept header must list text/event-stream');
}

function preflight(request: HttpRequest): HttpReply {
  const requested = request.headers.get('access-control-request-headers');
  return emptyResponse(204, {
    'access-control-allow-methods': ALLOW,
    'access-control-allow-headers':
      requested ?? 'content-type, accept, authorization, mcp-session-id, mcp-protocol-version, mcp-method, mcp-name, last-event-id',
    'access-control-max-age': '600',
  });
}
