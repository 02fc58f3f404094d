/**
 * `--metrics [host:]port`: Prometheus metrics of the server (`@wiremcp/otel`) on a listener of their own, loopback
 * unless `--metrics-public` allows another address. The server's requests and sessions are observed through its
 * `instrumentation` option; over HTTP the HTTP mode adds SSE streams, sessions held and refused requests.
 */
import type { Instrumentation } from '@wiremcp/jsonrpc';
import type { McpMetrics } from '@wiremcp/otel/metrics';
import type { EndpointAnswer } from '@wiremcp/otel/node';
import { UsageError, type FlagValues, type ServerFlags } from './server-flags.js';

/** The flags of the metrics listener. */
export const METRICS_FLAGS: ServerFlags = { metrics: { type: 'string' }, 'metrics-public': { type: 'boolean' } };

/** Their usage lines. */
export const METRICS_USAGE =
  '  --metrics [host:]port\n' +
  '              serve Prometheus metrics at http://HOST:PORT/metrics on a listener of\n' +
  '              their own (the host defaults to 127.0.0.1; 9464 is the usual port)\n' +
  '  --metrics-public\n' +
  '              allow --metrics on an address that is not loopback\n';

/** Where `--metrics` binds. */
export interface MetricsAddress {
  readonly host: string;
  readonly port: number;
}

const LOOPBACK = /^(localhost|127\.\d{1,3}\.\d{1,3}\.\d{1,3}|::1)$/i;

/** The address of `--metrics`, or `undefined` without it; a `UsageError` for a bad or refused one. */
export function parseMetricsFlag(values: FlagValues): MetricsAddress | undefined {
  if (values.metrics === undefined) {
    if (values['metrics-public'] !== undefined) throw new UsageError('--metrics-public applies to --metrics only');
    return undefined;
  }
  const text = String(values.metrics).trim();
  const match = /^(?:(\[[0-9a-fA-F:.]+\]|[^:[\]\s]+):)?(\d{1,5})$/.exec(text);
  const port = match ? Number(match[2]) : Number.NaN;
  if (!match || port > 65_535)
    throw new UsageError(`--metrics needs [host:]port (e.g. 9464, 127.0.0.1:9464), got ${JSON.stringify(text.slice(0, 80))}`);
  const host = match[1] === undefined ? '127.0.0.1' : match[1].replace(/^\[|\]$/g, '');
  if (!LOOPBACK.test(host) && values['metrics-public'] !== true) {
    throw new UsageError(`--metrics ${host} is not a loopback address: add --metrics-public to serve metrics there`);
  }
  return { host, port };
}

/** The running metrics of a server main. */
export interface ServerMetrics {
  readonly metrics: McpMetrics;
  readonly instrumentation: Instrumentation;
  readonly url: URL;
  close(): Promise<void>;
}

/**
 * Starts the registry and its listener (the package is loaded only when the flag is given); `endpoints` are other
 * paths the listener answers (`--health`'s `/healthz` and `/readyz`).
 */
export async function startMetrics(
  address: MetricsAddress,
  endpoints?: Readonly<Record<string, () => Promise<EndpointAnswer>>>,
): Promise<ServerMetrics> {
  const [{ McpMetrics, PrometheusRegistry }, { serveMetrics }] = await Promise.all([
    import('@wiremcp/otel/metrics'),
    import('@wiremcp/otel/node'),
  ]);
  const registry = new PrometheusRegistry();
  const metrics = new McpMetrics({ prometheus: registry });
  const listener = await serveMetrics(registry, {
    host: address.host,
    port: address.port,
    allowNonLoopback: !LOOPBACK.test(address.host),
    ...(endpoints === undefined ? {} : { endpoints }),
  });
  return { metrics, instrumentation: metrics.instrumentation, url: listener.url, close: () => listener.close() };
}
