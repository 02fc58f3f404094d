/**
 * The options of `createHttpHandler`, their documented defaults, and their validation. Every limit the handler
 * enforces is one of these; nothing is unbounded.
 */
import { LocalError } from '@wiremcp/protocol';
import type { EventStore } from './event-store.js';
import type { HealthOptions, ResolvedHealth } from './health.js';
import type { HttpAuthenticator } from './servable.js';
import type { SessionBus } from './session-bus.js';
import type { SessionStore } from './session-store.js';

/** The 2024-11-05 HTTP+SSE endpoints (deprecated transport), served on the same handler when enabled. */
export interface LegacySseOptions {
  /** Path of the GET that opens a session's SSE stream and announces the POST URL (default `/sse`). */
  readonly ssePath?: string;
  /** Path the client POSTs its messages to, with `?sessionId=` (default `/messages`). */
  readonly messagesPath?: string;
}

/** Options of {@link createHttpHandler}. */
export interface HttpHandlerOptions {
  /** Path of the MCP endpoint (default `/mcp`); requests to other paths get 404. */
  readonly path?: string;
  /**
   * Origins allowed to send requests (`Origin` header; browsers send it). Default: same-origin requests, plus
   * loopback origins (`http://localhost:*`, `http://127.0.0.1:*`, `http://[::1]:*`) when the connection is a
   * loopback one. `'*'` allows every origin. A request with a disallowed `Origin` gets 403. Requests without an
   * `Origin` (non-browser clients) are not affected.
   */
  readonly allowedOrigins?: readonly string[] | '*';
  /**
   * `Host` values accepted (DNS-rebinding protection), as `host` or `host:port`, compared case-insensitively.
   * Default: on loopback connections (the node adapter tells), only `localhost`, `127.0.0.1` and `[::1]` with the
   * bound port; on other connections, any host. `false` turns the check off. A refused `Host` gets 403.
   */
  readonly allowedHosts?: readonly string[] | false;
  /** Largest request body in bytes (default 4 MiB); a larger one gets 413, refused before it is parsed. */
  readonly maxBodyBytes?: number;
  /** Time to receive a whole request body, in ms (default 10 000): a slow body gets 408. */
  readonly bodyTimeoutMs?: number;
  /** Legacy sessions held at once (default 10 000); initialize beyond it gets 503. */
  readonly maxSessions?: number;
  /** A legacy session with no request and no open stream for this long ends (default 30 minutes). */
  readonly sessionIdleTimeoutMs?: number;
  /** SSE streams open at once, all sessions and 2026-07-28 requests together (default 1 000); beyond it: 503. */
  readonly maxOpenStreams?: number;
  /** SSE streams open at once in one legacy session (default 32); beyond it: 429. */
  readonly maxStreamsPerSession?: number;
  /** Messages kept for a legacy session that has no stream to receive them (default 256; the oldest are dropped). */
  readonly maxQueuedEventsPerSession?: number;
  /** Bytes an SSE stream may have waiting for a slow reader before its connection is dropped (default 4 MiB). */
  readonly maxStreamBufferBytes?: number;
  /** Interval of SSE keep-alive comments on quiet streams, in ms (default 15 000; 0 turns them off). */
  readonly keepAliveIntervalMs?: number;
  /** The `retry` an SSE stream announces for reconnection, in ms (default 1 000). */
  readonly retryMs?: number;
  /**
   * Serves `GET /healthz` and `GET /readyz` (see `health.ts`) with these options (`true`: the default paths, always
   * ready). Answered after the Host and Origin checks, without authentication. Default: off (both are 404).
   */
  readonly health?: boolean | HealthOptions;
  /**
   * Where legacy SSE events are kept for `Last-Event-ID` resumption. Default: a bounded in-memory store
   * ({@link MemoryEventStore}); `false` makes streams non-resumable (no event ids, no priming events).
   */
  readonly eventStore?: EventStore | false;
  /** Where the state of legacy sessions is kept (default: a {@link MemorySessionStore}). */
  readonly sessionStore?: SessionStore;
  /**
   * The channel to the other processes serving the same sessions (with a shared `sessionStore` and `eventStore`),
   * e.g. `@wiremcp/redis`. With it, answers and cancellations reach the process running the request they name,
   * messages for a standalone stream reach the process holding it, and a session idle here is dropped here only.
   * Default: none (one process).
   */
  readonly bus?: SessionBus;
  /**
   * With a `bus`: how often a process following a stream another process runs (a client resumed it here) checks
   * that process is alive, in ms (default 1 000). Once it died, the stream ends with an error for each request it
   * still owed (a standalone stream carries on here): the longest a resumed request waits for a dead process.
   */
  readonly streamOwnerCheckMs?: number;
  /** Serve the 2024-11-05 HTTP+SSE transport too (default `false`); `true` uses `/sse` and `/messages`. */
  readonly legacySse?: boolean | LegacySseOptions;
  /** Authenticates every request (e.g. `createRequestAuthenticator` of `@wiremcp/auth/server`). */
  readonly authenticator?: HttpAuthenticator;
  /** The public URL of the endpoint, for authentication (default: the request's origin and the endpoint path). */
  readonly resourceUrl?: string | URL;
  /**
   * The identity a legacy session is bound to, from the authenticated principal (default: issuer, subject and
   * client id, as `@wiremcp/auth`'s `principalKey`). A session used with another principal's token gets 404.
   */
  readonly principalKey?: (principal: unknown) => string;
  /** Receives errors of the handler itself (a failed store, a broken stream); default: `console.error`. */
  readonly onError?: (error: unknown) => void;
}

/** The options with every default applied. */
export interface ResolvedOptions {
  readonly path: string;
  readonly allowedOrigins: readonly string[] | '*' | undefined;
  readonly allowedHosts: readonly string[] | false | undefined;
  readonly maxBodyBytes: number;
  readonly bodyTimeoutMs: number;
  readonly maxSessions: number;
  readonly sessionIdleTimeoutMs: number;
  readonly maxOpenStreams: number;
  readonly maxStreamsPerSession: number;
  readonly maxQueuedEventsPerSession: number;
  readonly maxStreamBufferBytes: number;
  readonly keepAliveIntervalMs: number;
  readonly retryMs: number;
  readonly health: ResolvedHealth | undefined;
  readonly eventStore: EventStore | undefined;
  readonly sessionStore: SessionStore;
  readonly bus: SessionBus | undefined;
  readonly streamOwnerCheckMs: number;
  readonly legacySse: { readonly ssePath: string; readonly messagesPath: string } | undefined;
  readonly authenticator: HttpAuthenticator | undefined;
  readonly resourceUrl: URL | undefined;
  readonly principalKey: (principal: unknown) => string;
  readonly onError: (error: unknown) => void;
}

/** The documented defaults. */
export const HTTP_HANDLER_DEFAULTS = {
  path: '/mcp',
  maxBodyBytes: 4 * 1024 * 1024,
  bodyTimeoutMs: 10_000,
  maxSessions: 10_000,
  sessionIdleTimeoutMs: 30 * 60_000,
  maxOpenStreams: 1000,
  maxStreamsPerSession: 32,
  maxQueuedEventsPerSession: 256,
  maxStreamBufferBytes: 4 * 1024 * 1024,
  keepAliveIntervalMs: 15_000,
  retryMs: 1000,
  streamOwnerCheckMs: 1000,
  ssePath: '/sse',
  messagesPath: '/messages',
} as const;

/** `@wiremcp/auth`'s principal key, computed structurally: issuer, subject and client id. */
export function defaultPrincipalKey(principal: unknown): string {
  const p = (typeof principal === 'object' && principal !== null ? principal : {}) as Record<string, unknown>;
  const text = (value: unknown): string | null => (typeof value === 'string' ? value : null);
  return JSON.stringify([text(p.issuer), text(p.subject), text(p.clientId)]);
}

function positive(name: string, value: number | undefined, fallback: number, allowZero = false): number {
  if (value === undefined) return fallback;
  if (typeof value !== 'number' || !Number.isFinite(value) || value < 0 || (!allowZero && value === 0)) {
    throw new LocalError('INVALID_ARGUMENT', `createHttpHandler: ${name} must be a ${allowZero ? 'non-negative' : 'positive'} number`);
  }
  return value;
}

function endpointPath(name: string, value: string | undefined, fallback: string): string {
  const path = value ?? fallback;
  if (typeof path !== 'string' || !path.startsWith('/') || /[?#\s]/.test(path)) {
    throw new LocalError('INVALID_ARGUMENT', `createHttpHandler: ${name} must be a path starting with '/', without query or spaces`);
  }
  return path;
}

/** Applies the defaults; throws `INVALID_ARGUMENT` for a bad value. */
export function resolveOptions(
  options: HttpHandlerOptions,
  defaults: { eventStore: () => EventStore; sessionStore: () => SessionStore },
): ResolvedOptions {
  const d = HTTP_HANDLER_DEFAULTS;
  const path = endpointPath('path', options.path, d.path);
  const sse = options.legacySse === true ? {} : options.legacySse || undefined;
  const legacySse = sse && {
    ssePath: endpointPath('legacySse.ssePath', sse.ssePath, d.ssePath),
    messagesPath: endpointPath('legacySse.messagesPath', sse.messagesPath, d.messagesPath),
  };
  if (legacySse && (legacySse.ssePath === legacySse.messagesPath || legacySse.messagesPath === path)) {
    throw new LocalError(
      'INVALID_ARGUMENT',
      'createHttpHandler: the HTTP+SSE messages path must differ from its SSE path and the MCP path',
    );
  }
  return {
    path,
    allowedOrigins: options.allowedOrigins,
    allowedHosts: options.allowedHosts,
    maxBodyBytes: positive('maxBodyBytes', options.maxBodyBytes, d.maxBodyBytes),
    bodyTimeoutMs: positive('bodyTimeoutMs', options.bodyTimeoutMs, d.bodyTimeoutMs),
    maxSessions: positive('maxSessions', options.maxSessions, d.maxSessions, true),
    sessionIdleTimeoutMs: positive('sessionIdleTimeoutMs', options.sessionIdleTimeoutMs, d.sessionIdleTimeoutMs),
    maxOpenStreams: positive('maxOpenStreams', options.maxOpenStreams, d.maxOpenStreams, true),
    maxStreamsPerSession: positive('maxStreamsPerSession', options.maxStreamsPerSession, d.maxStreamsPerSession, true),
    maxQueuedEventsPerSession: positive('maxQueuedEventsPerSession', options.maxQueuedEventsPerSession, d.maxQueuedEventsPerSession, true),
    maxStreamBufferBytes: positive('maxStreamBufferBytes', options.maxStreamBufferBytes, d.maxStreamBufferBytes),
    keepAliveIntervalMs: positive('keepAliveIntervalMs', options.keepAliveIntervalMs, d.keepAliveIntervalMs, true),
    retryMs: Math.round(positive('retryMs', options.retryMs, d.retryMs, true)),
    health: resolveHealth(options.health, path, legacySse),
    eventStore: options.eventStore === false ? undefined : (options.eventStore ?? defaults.eventStore()),
    sessionStore: options.sessionStore ?? defaults.sessionStore(),
    bus: options.bus,
    streamOwnerCheckMs: positive('streamOwnerCheckMs', options.streamOwnerCheckMs, d.streamOwnerCheckMs),
    legacySse,
    authenticator: options.authenticator,
    resourceUrl: options.resourceUrl === undefined ? undefined : new URL(options.resourceUrl),
    principalKey: options.principalKey ?? defaultPrincipalKey,
    onError: options.onError ?? ((error) => console.error('[@wiremcp/transport-http]', error)),
  };
}

function resolveHealth(
  option: boolean | HealthOptions | undefined,
  path: string,
  sse: { ssePath: string; messagesPath: string } | undefined,
): ResolvedHealth | undefined {
  if (option === undefined || option === false) return undefined;
  const given = option === true ? {} : option;
  const health = {
    livePath: endpointPath('health.livePath', given.livePath, '/healthz'),
    readyPath: endpointPath('health.readyPath', given.readyPath, '/readyz'),
    ready: given.ready,
  };
  const taken = [path, sse?.ssePath, sse?.messagesPath];
  if (health.livePath === health.readyPath || taken.includes(health.livePath) || taken.includes(health.readyPath)) {
    throw new LocalError('INVALID_ARGUMENT', 'createHttpHandler: the health paths must differ from each other and from the MCP paths');
  }
  return health;
}
