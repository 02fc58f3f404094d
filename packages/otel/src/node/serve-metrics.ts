/**
 * The Prometheus listener: `GET /metrics` on its own socket, apart from the MCP endpoint, so that scraping needs
 * no MCP credentials and MCP clients cannot read operational data. Loopback by default; another address only when
 * `allowNonLoopback` says so. Like the MCP listener it refuses a `Host` that is not its own (DNS rebinding) and
 * any `Origin` not allowed (no browser page needs to read metrics).
 */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { PROMETHEUS_CONTENT_TYPE, type PrometheusRegistry } from '../prometheus-registry.js';

/** Options of {@link serveMetrics}. */
export interface ServeMetricsOptions {
  /** The address to bind (default `127.0.0.1`). */
  host?: string;
  /** The port (default 9464, the usual Prometheus exporter port; `0` for a free one). */
  port?: number;
  /** The path (default `/metrics`). */
  path?: string;
  /** Permit binding an address that is not loopback (default false: refused). */
  allowNonLoopback?: boolean;
  /** `Host` values served besides the bound address and the loopback names on the bound port (e.g. `metrics.internal:9464`). */
  allowedHosts?: readonly string[];
  /** Origins allowed to read (default none: a request with an `Origin` header is refused). */
  allowedOrigins?: readonly string[];
  /**
   * Other read-only paths served on this listener (e.g. `/healthz` and `/readyz`): path → its answer, asked on every
   * GET or HEAD after the same `Host` and `Origin` checks. An answer that throws is a 500 without details.
   */
  endpoints?: Readonly<Record<string, () => EndpointAnswer | Promise<EndpointAnswer>>>;
}

/** What an extra path of the metrics listener answers. */
export interface EndpointAnswer {
  readonly status: number;
  readonly body: string;
  /** Default `text/plain; charset=utf-8`. */
  readonly contentType?: string;
}

/** A running metrics listener. */
export interface MetricsListener {
  /** The URL of the metrics path. */
  readonly url: URL;
  readonly address: AddressInfo;
  /** Stops listening and closes its connections. Idempotent. */
  close(): Promise<void>;
}

/** The default port of a Prometheus exporter. */
export const DEFAULT_METRICS_PORT = 9464;

/** True for `localhost`, `127.x.y.z` and `::1`. */
export function isLoopbackAddress(host: string): boolean {
  return /^(localhost|127\.\d{1,3}\.\d{1,3}\.\d{1,3}|::1|\[::1\])$/i.test(host);
}

/** Writes what an extra endpoint answers (a 500 when it throws). */
async function answerEndpoint(endpoint: () => EndpointAnswer | Promise<EndpointAnswer>, head: boolean, res: ServerResponse): Promise<void> {
  let answer: EndpointAnswer;
  try {
    answer = await endpoint();
  } catch {
    return refuse(res, 500, 'The check failed');
  }
  res.writeHead(answer.status, {
    'content-type': answer.contentType ?? 'text/plain; charset=utf-8',
    'cache-control': 'no-store',
    'content-length': Buffer.byteLength(answer.body),
  });
  res.end(head ? undefined : answer.body);
}

function refuse(res: ServerResponse, status: number, text: string, extra: Record<string, string> = {}): void {
  res.writeHead(status, { 'content-type': 'text/plain; charset=utf-8', 'cache-control': 'no-store', ...extra });
  res.end(`${text}\n`);
}

/** Serves `registry` as Prometheus text; see the module comment. Rejects when the address is refused or taken. */
export async function serveMetrics(registry: PrometheusRegistry, options: ServeMetricsOptions = {}): Promise<MetricsListener> {
  const host = options.host ?? '127.0.0.1';
  const path = options.path ?? '/metrics';
  if (!isLoopbackAddress(host) && options.allowNonLoopback !== true) {
    throw new Error(`refusing to serve metrics on ${host}, which is not a loopback address (allow it explicitly)`);
  }
  const origins = new Set(options.allowedOrigins ?? []);
  const endpoints = options.endpoints ?? {};
  let hosts = new Set<string>();
  const handle = (req: IncomingMessage, res: ServerResponse): void => {
    const hostHeader = (req.headers.host ?? '').toLowerCase();
    if (!hosts.has(hostHeader)) return refuse(res, 403, 'Forbidden: this Host is not served here');
    const origin = req.headers.origin;
    if (origin !== undefined && !origins.has(origin)) return refuse(res, 403, 'Forbidden: this Origin is not allowed');
    const url = req.url ?? '/';
    const query = url.indexOf('?');
    const pathname = query === -1 ? url : url.slice(0, query);
    const endpoint = pathname !== path && Object.hasOwn(endpoints, pathname) ? endpoints[pathname] : undefined;
    if (pathname !== path && endpoint === undefined) return refuse(res, 404, 'Not found');
    if (req.method !== 'GET' && req.method !== 'HEAD') return refuse(res, 405, 'Method not allowed', { allow: 'GET, HEAD' });
    if (endpoint !== undefined) return void answerEndpoint(endpoint, req.method === 'HEAD', res);
    let body: string;
    try {
      body = registry.exposition();
    } catch {
      return refuse(res, 500, 'The metrics could not be collected');
    }
    res.writeHead(200, { 'content-type': PROMETHEUS_CONTENT_TYPE, 'cache-control': 'no-store', 'content-length': Buffer.byteLength(body) });
    res.end(req.method === 'HEAD' ? undefined : body);
  };
  const server = createServer(handle);
  // Scrapes are small; a client sending slow headers or keeping sockets open gets them closed.
  server.headersTimeout = 10_000;
  server.requestTimeout = 10_000;
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen({ host, port: options.port ?? DEFAULT_METRICS_PORT }, () => {
      server.off('error', reject);
      resolve();
    });
  });
  const address = server.address() as AddressInfo;
  const port = address.port;
  const names = isLoopbackAddress(host) ? ['localhost', '127.0.0.1', '[::1]'] : [];
  const bound = address.family === 'IPv6' ? `[${address.address}]` : address.address;
  hosts = new Set(
    [...names, bound, host.includes(':') && !host.startsWith('[') ? `[${host}]` : host].map((name) => `${name.toLowerCase()}:${port}`),
  );
  for (const allowed of options.allowedHosts ?? []) hosts.add(allowed.toLowerCase());
  let closing: Promise<void> | undefined;
  return {
    url: new URL(path, `http://${bound}:${port}`),
    address,
    close() {
      closing ??= new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      });
      return closing;
    },
  };
}
