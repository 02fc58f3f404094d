/**
 * The metrics of an MCP client or server: the conventions' duration histograms (`mcp.{client,server}.operation.duration`,
 * `mcp.{client,server}.session.duration`, seconds, the advised buckets) and what an operator watches besides:
 * requests in flight, sessions open, SSE streams open, events kept for resumption, requests refused by reason.
 * Recorded to an OpenTelemetry `Meter`, to a {@link PrometheusRegistry}, or both. Loads nothing at run time:
 * `@opentelemetry/api` is used for types only, so Prometheus metrics work without it installed.
 */
import type { Attributes, Meter } from '@opentelemetry/api';
import type { Instrumentation, McpOperation, McpSession, OperationObserver, SessionObserver } from '@wiremcp/jsonrpc';
import { PrometheusRegistry, prometheusName, type Labels } from './prometheus-registry.js';
import { ATTR, MCP_DURATION_BUCKETS, outcomeError, serverTransport, wireString } from './semconv.js';

/** Options of {@link McpMetrics}. */
export interface McpMetricsOptions {
  /** An OpenTelemetry meter to record to (e.g. `metrics.getMeter('@wiremcp/otel')`). */
  meter?: Meter;
  /** A Prometheus registry to record to (serve it with `serveMetrics` of `@wiremcp/otel/node`). */
  prometheus?: PrometheusRegistry;
  /** `network.transport` of every point (default: a server infers it per request, a client records none). */
  networkTransport?: string;
}

/** Why the HTTP layer refused a request, as counted by `wiremcp.http.rejected_requests`. */
export type RejectionReason = 'auth' | 'forbidden' | 'origin' | 'size' | 'rate_limit' | 'invalid' | 'session' | 'method' | 'unavailable';

type Side = 'client' | 'server';

/** One instrument written to every sink. */
interface Recorder {
  record(value: number, attributes: Record<string, string>): void;
}

const DURATION_HELP = {
  'mcp.client.operation.duration': 'Duration of MCP requests as the client sees them (seconds)',
  'mcp.server.operation.duration': 'Duration of MCP requests as the server handles them (seconds)',
  'mcp.client.session.duration': 'Duration of MCP client sessions (seconds)',
  'mcp.server.session.duration': 'Duration of MCP server sessions (seconds)',
} as const;

/** The labels of a point: Prometheus names for the registry. */
function labels(attributes: Record<string, string>): Labels {
  const out: Record<string, string> = {};
  for (const key of Object.keys(attributes)) out[prometheusName(key)] = attributes[key]!;
  return out;
}

/** See the module comment. Its `instrumentation` goes to `McpServer` or `McpClient` (or `combineInstrumentation`). */
export class McpMetrics {
  /** Observes operations and sessions; pass it as (part of) the `instrumentation` option. */
  readonly instrumentation: Instrumentation;
  readonly #meter: Meter | undefined;
  readonly #prometheus: PrometheusRegistry | undefined;
  readonly #transport: string | undefined;
  readonly #durations = new Map<string, Recorder>();
  readonly #inFlight: Record<Side, Recorder>;
  readonly #sessions: Record<Side, Recorder>;
  readonly #rejected: Recorder;

  constructor(options: McpMetricsOptions = {}) {
    this.#meter = options.meter;
    this.#prometheus = options.prometheus;
    this.#transport = options.networkTransport;
    const upDown = (name: string, help: string): Recorder => {
      const otel = this.#meter?.createUpDownCounter(name, { description: help });
      const prom = this.#prometheus?.gauge(prometheusName(name), help);
      return { record: (value, attributes) => (otel?.add(value, attributes as Attributes), prom?.add(value, labels(attributes))) };
    };
    this.#inFlight = {
      client: upDown('wiremcp.client.requests.in_flight', 'MCP requests sent and not yet answered'),
      server: upDown('wiremcp.server.requests.in_flight', 'MCP requests being handled'),
    };
    this.#sessions = {
      client: upDown('wiremcp.client.sessions', 'MCP client sessions open'),
      server: upDown('wiremcp.server.sessions', 'MCP server sessions open (stdio connections and HTTP sessions)'),
    };
    const rejectedHelp = 'HTTP requests refused before reaching the server, by reason';
    const otelRejected = this.#meter?.createCounter('wiremcp.http.rejected_requests', { description: rejectedHelp });
    const promRejected = this.#prometheus?.counter('wiremcp_http_rejected_requests_total', rejectedHelp);
    this.#rejected = {
      record: (value, attributes) => (otelRejected?.add(value, attributes as Attributes), promRejected?.add(value, labels(attributes))),
    };
    this.instrumentation = {
      start: (operation) => this.#start(operation),
      session: (session) => this.#session(session),
    };
  }

  /** Counts one HTTP request refused for `reason`, with the status it was answered with. */
  rejected(reason: RejectionReason, status: number): void {
    this.#rejected.record(1, { reason, 'http.response.status_code': String(status) });
  }

  /**
   * Reports a value read when metrics are collected, as a gauge: SSE streams open, events kept. `read` returning
   * `undefined` (or throwing) leaves the point out.
   */
  observe(name: string, help: string, read: () => number | undefined): void {
    this.#meter?.createObservableGauge(name, { description: help }).addCallback((result) => {
      const value = read();
      if (value !== undefined) result.observe(value);
    });
    this.#prometheus?.gauge(prometheusName(name), help).observe(read);
  }

  #duration(name: keyof typeof DURATION_HELP): Recorder {
    let recorder = this.#durations.get(name);
    if (recorder === undefined) {
      const help = DURATION_HELP[name];
      const otel = this.#meter?.createHistogram(name, {
        description: help,
        unit: 's',
        advice: { explicitBucketBoundaries: [...MCP_DURATION_BUCKETS] },
      });
      const prom = this.#prometheus?.histogram(`${prometheusName(name)}_seconds`, help, MCP_DURATION_BUCKETS);
      recorder = {
        record: (value, attributes) => (otel?.record(value, attributes as Attributes), prom?.record(value, labels(attributes))),
      };
      this.#durations.set(name, recorder);
    }
    return recorder;
  }

  #start(operation: McpOperation): OperationObserver | undefined {
    if (operation.kind !== 'request') return undefined;
    const side = operation.side;
    const started = performance.now();
    const base: Record<string, string> = { [ATTR.methodName]: wireString(operation.method) ?? 'unknown' };
    const version = wireString(operation.protocolVersion);
    if (version !== undefined) base[ATTR.protocolVersion] = version;
    const transport = this.#transport ?? (side === 'server' ? serverTransport(operation) : undefined);
    if (transport !== undefined) base[ATTR.networkTransport] = transport;
    if (operation.method === 'tools/call') {
      const tool = wireString(operation.params?.name);
      if (tool !== undefined) base[ATTR.toolName] = tool;
    }
    const inFlight = this.#inFlight[side];
    const flightLabels = { [ATTR.methodName]: base[ATTR.methodName]! };
    inFlight.record(1, flightLabels);
    const duration = this.#duration(side === 'client' ? 'mcp.client.operation.duration' : 'mcp.server.operation.duration');
    return {
      end: (outcome) => {
        inFlight.record(-1, flightLabels);
        const error = outcomeError(outcome);
        const attributes = error === undefined ? base : { ...base, [ATTR.errorType]: error.type };
        duration.record((performance.now() - started) / 1000, attributes);
      },
    };
  }

  #session(session: McpSession): SessionObserver {
    const side = session.side;
    const started = performance.now();
    const attributes: Record<string, string> = {};
    const version = wireString(session.protocolVersion);
    if (version !== undefined) attributes[ATTR.protocolVersion] = version;
    const sessions = this.#sessions[side];
    sessions.record(1, {});
    let ended = false;
    return {
      end: () => {
        if (ended) return;
        ended = true;
        sessions.record(-1, {});
        this.#duration(side === 'client' ? 'mcp.client.session.duration' : 'mcp.server.session.duration').record(
          (performance.now() - started) / 1000,
          attributes,
        );
      },
    };
  }
}
