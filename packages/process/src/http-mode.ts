/**
 * Serving over HTTP, chosen by `--http [host:]port`: Streamable HTTP on one endpoint (`--path`, default `/mcp`) for
 * every revision — 2026-07-28 requests statelessly, 2025-03-26 … 2025-11-25 in sessions — and, with
 * `--legacy-sse`, the 2024-11-05 HTTP+SSE endpoints (`/sse`, `/messages`). Binds 127.0.0.1 unless a host is given;
 * on a loopback address `Host` and `Origin` are checked against the loopback names (DNS-rebinding protection).
 */
import type { EventStore, HttpConnectionInfo, HttpHandler, HttpHandlerOptions, HttpRequest, HttpServable } from '@wiremcp/transport-http';
import type { McpMetrics, rejectionReason as RejectionReasonOf } from '@wiremcp/otel/metrics';
import { AUTH_FLAGS, AUTH_USAGE, DeferredAuthenticator, parseAuthFlags } from './auth-flags.js';
import type { MainProcess } from './main-process.js';
import { createReadiness } from './readiness.js';
import { ShutdownIncomplete, type ServeMode, type SharedConfiguration } from './serve-mode.js';
import { UsageError } from './server-flags.js';

/** Where `--http` binds: `[host:]port`, a host being a name, an IPv4 address or a bracketed IPv6 address. */
export function parseHttpAddress(text: string): { host: string; port: number } {
  const match = /^(?:(\[[0-9a-fA-F:.]+\]|[^:[\]\s]+):)?(\d{1,5})$/.exec(text.trim());
  const port = match ? Number(match[2]) : Number.NaN;
  if (!match || !Number.isInteger(port) || port > 65_535) {
    throw new UsageError(`--http needs [host:]port (e.g. 3000, 127.0.0.1:3000, [::1]:3000), got ${JSON.stringify(text)}`);
  }
  const host = match[1] === undefined ? '127.0.0.1' : match[1].replace(/^\[|\]$/g, '');
  return { host, port };
}

/** The socket path of `--http unix:/path/to.sock` (absolute or relative), `undefined` for a `[host:]port`. */
export function unixSocketPath(text: string): string | undefined {
  if (!text.startsWith('unix:')) return undefined;
  const path = text.slice(5);
  if (path === '' || path.includes('\0')) throw new UsageError(`--http unix: needs a socket path, e.g. unix:/run/user/1000/mcp.sock`);
  return path;
}

function isLoopbackHost(host: string): boolean {
  return /^(localhost|127\.\d+\.\d+\.\d+|::1)$/i.test(host);
}

function isServableOverHttp(server: unknown): server is HttpServable {
  const candidate = server as Partial<HttpServable> | undefined;
  return typeof candidate?.dispatch === 'function' && typeof candidate.connect === 'function';
}

/** The shared state of `--redis`, from `@wiremcp/redis` (an optional peer: loaded only when the flag is given). */
interface SharedState {
  readonly handlerOptions: Pick<HttpHandlerOptions, 'eventStore' | 'sessionStore' | 'bus'>;
  readonly taskStore: NonNullable<SharedConfiguration['taskStore']>;
  readonly client: { ping(): Promise<unknown> };
  /** Resolves when Redis answers, on a connection of its own (absent in an older @wiremcp/redis: then a PING on `client`). */
  readonly ping?: () => Promise<unknown>;
  /** The rate limit buckets on the same connection (`RedisBucketStore`). */
  readonly bucketStore: NonNullable<SharedConfiguration['bucketStore']>;
  sharedSecret(name: string): Promise<string>;
  close(): Promise<void>;
}

async function connectShared(url: string, onError: (error: unknown) => void): Promise<SharedState> {
  let redis: {
    connectRedisState(options: { url: string; onError: (error: unknown) => void }): Promise<Omit<SharedState, 'bucketStore'>>;
    RedisBucketStore: new (client: never) => SharedState['bucketStore'];
  };
  try {
    redis = (await import('@wiremcp/redis')) as typeof redis;
  } catch {
    throw new Error('--redis needs the @wiremcp/redis package: npm install @wiremcp/redis');
  }
  try {
    const state = await redis.connectRedisState({ url, onError });
    return Object.assign(state, { bucketStore: new redis.RedisBucketStore(state.client as never) });
  } catch (error) {
    throw new Error(`cannot reach Redis at ${redactUrl(url)}: ${error instanceof Error ? error.message : String(error)}`);
  }
}

/** The URL without its password, for messages. */
function redactUrl(url: string): string {
  return url.replace(/\/\/([^@/]*)@/, '//***@');
}

/**
 * `WIREMCP_REQUEST_STATE_KEY`, when set: the key every process of a deployment signs 2026-07-28 `requestState` with
 * (at least 32 characters), instead of one kept in Redis.
 */
function configuredRequestStateKey(): string | undefined {
  const key = globalThis.process.env.WIREMCP_REQUEST_STATE_KEY;
  if (key === undefined || key === '') return undefined;
  if (key.length < 32) throw new UsageError('WIREMCP_REQUEST_STATE_KEY must hold at least 32 characters');
  return key;
}

/** Default drain deadline (`--drain-timeout`), in seconds: requests in progress at a SIGTERM get this long. */
export const DEFAULT_DRAIN_TIMEOUT_S = 10;
/** Time the main allows past the drain deadline for closing the rest (the server, Redis connections). */
const AFTER_DRAIN_MS = 1500;

/** `--drain-timeout SECONDS`: a number of seconds from 0 to 3600 (fractions allowed), as milliseconds. */
export function parseDrainTimeout(text: string): number {
  const seconds = /^\d+(\.\d+)?$/.test(text.trim()) ? Number(text) : Number.NaN;
  if (!(seconds >= 0 && seconds <= 3600)) {
    throw new UsageError(`--drain-timeout needs a number of seconds from 0 to 3600, got ${JSON.stringify(text.slice(0, 40))}`);
  }
  return Math.round(seconds * 1000);
}

/**
 * The handler with its answers counted by `metrics`: refusals by reason, read from the status and challenge actually
 * sent (so whatever refused — auth, the Origin check, the body limit, a limiter — is counted), plus sessions held,
 * SSE streams open and the events the event store keeps, read at each scrape.
 */
function observedHandler(
  handler: HttpHandler,
  metrics: McpMetrics,
  rejectionReason: typeof RejectionReasonOf,
  eventStore: EventStore,
): HttpHandler {
  const count = (status: number, challenge: string | null | undefined): void => {
    const reason = rejectionReason(status, challenge);
    if (reason !== undefined) metrics.rejected(reason, status);
  };
  metrics.observe('wiremcp.http.sessions', 'Legacy Streamable HTTP sessions held', () => handler.stats.sessions);
  metrics.observe('wiremcp.http.sse_streams', 'SSE streams open', () => handler.stats.openStreams);
  // With --redis, the deployment's count (every process reports the same; sampled at most every 5 s).
  metrics.observe('wiremcp.http.event_store.events', 'SSE events kept for resumption', () => eventStore.held?.()?.events);
  metrics.observe(
    'wiremcp.http.event_store.bytes',
    'Bytes of SSE event data kept for resumption (in memory)',
    () => eventStore.held?.()?.bytes,
  );
  const observed = (async (request: Request, connection?: HttpConnectionInfo) => {
    const response = await handler(request, connection);
    count(response.status, response.headers.get('www-authenticate'));
    return response;
  }) as HttpHandler;
  return Object.assign(observed, {
    serve: async (request: HttpRequest, connection?: HttpConnectionInfo) => {
      const reply = await handler.serve(request, connection);
      if (!reply.notHandled) count(reply.status, reply.headers.get('www-authenticate'));
      return reply;
    },
    close: (graceMs?: number) => handler.close(graceMs),
    path: handler.path,
    stats: handler.stats,
  });
}

/** The HTTP serve mode; see the module comment. */
export const httpMode: ServeMode = {
  flags: {
    http: { type: 'string' },
    path: { type: 'string' },
    'legacy-sse': { type: 'boolean' },
    'allow-origin': { type: 'string', multiple: true },
    'allow-host': { type: 'string', multiple: true },
    redis: { type: 'string' },
    health: { type: 'boolean' },
    'drain-timeout': { type: 'string' },
    ...AUTH_FLAGS,
  },
  usage:
    '  --http [host:]port | unix:PATH\n' +
    '              serve Streamable HTTP on this address instead of stdio (every\n' +
    '              revision on one endpoint); the host defaults to 127.0.0.1;\n' +
    '              unix:PATH listens on a Unix domain socket of mode 0600\n' +
    '  --path PATH the HTTP endpoint (default /mcp)\n' +
    '  --legacy-sse\n' +
    '              also serve the 2024-11-05 HTTP+SSE endpoints /sse and /messages\n' +
    '  --allow-origin ORIGIN\n' +
    '              an Origin that may call the server from a browser (repeatable;\n' +
    '              default: same-origin, and loopback origins on a loopback bind)\n' +
    '  --allow-host HOST[:PORT]\n' +
    '              a Host header to serve (repeatable), e.g. the public address of a\n' +
    '              load balancer in front (default: loopback names on the bound port)\n' +
    '  --redis URL keep sessions, SSE events and cross-process delivery in this Redis\n' +
    '              (redis://host:port), so that several processes serve one endpoint\n' +
    '              behind a load balancer without affinity (needs @wiremcp/redis)\n' +
    '  --health    serve GET /healthz (200 while the process serves) and GET /readyz\n' +
    '              (200 when ready; 503 while draining or while --redis does not\n' +
    '              answer), without authentication, on the HTTP listener and on the\n' +
    '              --metrics one (over stdio: there only; needs --http or --metrics)\n' +
    '  --drain-timeout SECONDS\n' +
    '              on SIGTERM/SIGINT, stop accepting, turn /readyz to 503, end SSE\n' +
    '              streams with a retry hint and give requests in progress this long\n' +
    '              (default 10); exit 0, or 1 when requests had to be cut\n' +
    AUTH_USAGE,
  select(values) {
    const onlyHttp = ['path', 'legacy-sse', 'allow-origin', 'allow-host', 'redis', 'drain-timeout', ...Object.keys(AUTH_FLAGS)].filter(
      (flag) => values[flag] !== undefined,
    );
    if (values.http === undefined) {
      if (onlyHttp.length > 0) throw new UsageError(`--${onlyHttp[0]} applies to --http only`);
      return undefined;
    }
    if (values.framing !== undefined) throw new UsageError('--framing applies to stdio only');
    const socketPath = unixSocketPath(String(values.http));
    const { host, port } = socketPath === undefined ? parseHttpAddress(String(values.http)) : { host: 'localhost', port: 0 };
    const path = values.path === undefined ? '/mcp' : String(values.path);
    if (!/^\/[^\s?#]*$/.test(path))
      throw new UsageError(`--path must start with '/' and hold no spaces, '?' or '#', got ${JSON.stringify(path)}`);
    const legacySse = values['legacy-sse'] === true;
    const origins = (values['allow-origin'] as string[] | undefined) ?? [];
    for (const origin of origins) {
      if (origin !== '*' && !/^https?:\/\/[^/\s]+$/.test(origin)) {
        throw new UsageError(`--allow-origin needs an origin such as https://app.example.com (or *), got ${JSON.stringify(origin)}`);
      }
    }
    const hosts = (values['allow-host'] as string[] | undefined) ?? [];
    for (const allowed of hosts) {
      if (!/^(\[[0-9a-fA-F:.]+\]|[A-Za-z0-9.-]+)(:\d{1,5})?$/.test(allowed)) {
        throw new UsageError(`--allow-host needs a host or host:port such as mcp.example.com, got ${JSON.stringify(allowed.slice(0, 80))}`);
      }
    }
    const redisUrl = values.redis === undefined ? undefined : String(values.redis);
    if (redisUrl !== undefined && !/^rediss?:\/\/\S+$/.test(redisUrl)) {
      throw new UsageError(`--redis needs a URL such as redis://127.0.0.1:6379, got ${JSON.stringify(redisUrl.slice(0, 80))}`);
    }
    const health = values.health === true;
    const drainMs =
      values['drain-timeout'] === undefined ? DEFAULT_DRAIN_TIMEOUT_S * 1000 : parseDrainTimeout(String(values['drain-timeout']));
    let draining = false;
    let shared: SharedState | undefined;
    const reporter =
      (process: MainProcess) =>
      (error: unknown): void => {
        process.stderr.write(`HTTP handler error: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
      };
    const auth = parseAuthFlags(values, isLoopbackHost(host));
    return {
      description: `${socketPath === undefined ? `http://${host.includes(':') ? `[${host}]` : host}:${port}` : `unix:${socketPath} `}${path}${auth ? ' (OAuth required)' : ''}`,
      async prepare(process) {
        // A key configured for the deployment wins: no process depends on Redis (or its persistence) to agree on it.
        const configured = configuredRequestStateKey();
        if (redisUrl === undefined) return configured === undefined ? {} : { requestStateKey: configured };
        shared = await connectShared(redisUrl, reporter(process));
        return {
          requestStateKey: configured ?? (await shared.sharedSecret('request-state')),
          taskStore: shared.taskStore,
          bucketStore: shared.bucketStore,
        };
      },
      async serve(server, process, extras) {
        if (!isServableOverHttp(server)) throw new Error('this server cannot be served over HTTP (it has no dispatch)');
        // Loaded only when serving HTTP: a stdio server (the common case, and the one whose cold start a host
        // waits for) never reads the HTTP transport's modules.
        const [{ createHttpHandler, MemoryEventStore }, { listen }] = await Promise.all([
          import('@wiremcp/transport-http'),
          import('@wiremcp/transport-http/node'),
        ]);
        const report = reporter(process);
        if (redisUrl !== undefined && shared === undefined) shared = await connectShared(redisUrl, report);
        const authenticator = auth ? new DeferredAuthenticator() : undefined;
        // Loaded only when asked for (jose, oauth4webapi), and before listening: set synchronously once bound.
        const createAuthenticator = auth ? (await import('./auth-authenticator.js')).createAuthenticator : undefined;
        const redis = shared;
        // Not a PING on the command connection: there it would wait behind every command in flight, and a burst of
        // them would make a healthy instance "redis unreachable".
        const ping = redis === undefined ? undefined : (redis.ping?.bind(redis) ?? (() => redis.client.ping()));
        const ready = createReadiness({ draining: () => draining, ...(ping === undefined ? {} : { ping }) });
        // Made here rather than by the handler, so that the metrics can read what it holds.
        const eventStore: EventStore = shared?.handlerOptions.eventStore || new MemoryEventStore();
        const handler = createHttpHandler(server, {
          ...shared?.handlerOptions,
          eventStore,
          ...(health ? { health: { ready } } : {}),
          path,
          legacySse,
          ...(authenticator ? { authenticator } : {}),
          ...(auth?.audience !== undefined ? { resourceUrl: auth.audience } : {}),
          ...(origins.length > 0 ? { allowedOrigins: origins.includes('*') ? '*' : origins } : {}),
          ...(hosts.length > 0 ? { allowedHosts: hosts } : {}),
          onError: report,
        });
        const metrics = extras?.metrics;
        let listening;
        try {
          const observed =
            metrics === undefined
              ? handler
              : observedHandler(handler, metrics, (await import('@wiremcp/otel/metrics')).rejectionReason, eventStore);
          listening = await listen(observed, {
            host,
            port,
            ...(socketPath === undefined ? {} : { socketPath }),
            shutdownGraceMs: drainMs,
          });
        } catch (error) {
          await shared?.close();
          throw error;
        }
        // Without --auth-audience the resource is the URL listened on, known only now (with port 0).
        const resource = auth?.audience ?? listening.url.href;
        if (auth && authenticator && createAuthenticator) authenticator.set(createAuthenticator(auth, resource));
        const protection = auth ? `; OAuth: tokens from ${auth.issuers.join(', ')} for ${resource}` : '';
        let closing: Promise<void> | undefined;
        // Once closing, `closed` waits for the drain's end, to report requests it had to cut (exit code 1).
        const closed = new Promise<Error | undefined>((resolve) =>
          listening.server.once('close', () => {
            if (closing === undefined) return resolve(undefined);
            void closing.then(() => {
              const cut = listening.requestsCut;
              resolve(
                cut === 0 ? undefined : new ShutdownIncomplete(`drain deadline (${drainMs} ms) passed: ${cut} request(s) in progress cut`),
              );
            });
          }),
        );
        const endpoints = legacySse ? `; HTTP+SSE (2024-11-05) at ${new URL('/sse', listening.url).href}` : '';
        const state = redisUrl === undefined ? '' : `; state in Redis at ${redactUrl(redisUrl)}`;
        return {
          description: `${socketPath === undefined ? listening.url.href : `${listening.url.pathname} on the Unix socket ${socketPath}`} (Streamable HTTP, every revision${endpoints}${state}${protection})`,
          closed,
          shutdownTimeoutMs: drainMs + AFTER_DRAIN_MS,
          ready,
          close: () =>
            (closing ??= (async () => {
              // Draining: /readyz says 503 from now on, and no new connection is accepted (a load balancer retries
              // elsewhere); requests already accepted are served.
              draining = true;
              listening.server.close();
              // Listen streams end gracefully (notifications/cancelled, then their response), then sessions and SSE
              // streams (a last `retry:` each), requests in progress are given the drain deadline, then the sockets.
              // The handler's close starts first: shared sessions are then only dropped here, never deleted.
              const drained = listening.close();
              await (server as { close?: (graceMs?: number) => Promise<void> }).close?.(drainMs);
              await drained;
              await shared?.close();
            })()),
        };
      },
    };
  },
};
