/**
 * The metrics of an MCP client or server: the conventions' duration histograms (`mcp.{client,server}.operation.duration`,
 * `mcp.{client,server}.session.duration`, seconds, the advised buckets) and what an operator watches besides:
 * requests in flight, sessions open, SSE streams open, events kept for resumption, requests refused by reason.
 * Recorded to an OpenTelemetry `Meter`, to a {@link PrometheusRegistry}, or both. Loads nothing at run time:
 * `@opentelemetry/api` is used for types only, so Prometheus metrics work without it installed.
 */
import type { Attributes, Meter } from '@opentelemetry/api';
import type { Instrumentation, McpOperation, McpSession, OperationObserver, OperationOutcome, SessionObserver } from '@wiremcp/jsonrpc';
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
  /**
   * Records to the point of `attributes` from now on without working its labels out again: the same attributes
   * object to OpenTelemetry, the Prometheus series looked up once (and created now, as a first record would).
   */
  bind(attributes: Record<string, string>): (value: number) => void;
}

/**
 * The most kinds of request (method, tool, version, transport) whose points are kept bound; past it, a request's
 * points are worked out per request, as before binding. Names come from the wire: the bound keeps memory flat.
 */
const MAX_BOUND_KINDS = 1000;

/**
 * What every request of one kind records, worked out once: its attributes, and the in-flight and duration points
 * bound to them (the duration point on its first success, so that an unrecorded series is never listed).
 */
class RequestKind {
  readonly method: string;
  readonly tool: string | undefined;
  readonly version: string | undefined;
  readonly transport: string | undefined;
  readonly attributes: Record<string, string>;
  readonly inFlight: (value: number) => void;
  #duration: ((value: number) => void) | undefined;

  constructor(method: string, tool: string | undefined, version: string | undefined, transport: string | undefined, inFlight: Recorder) {
    this.method = method;
    this.tool = tool;
    this.version = version;
    this.transport = transport;
    const attributes: Record<string, string> = { [ATTR.methodName]: method };
    if (version !== undefined) attributes[ATTR.protocolVersion] = version;
    if (transport !== undefined) attributes[ATTR.networkTransport] = transport;
    if (tool !== undefined) attributes[ATTR.toolName] = tool;
    this.attributes = attributes;
    this.inFlight = inFlight.bind({ [ATTR.methodName]: method });
  }

  succeeded(duration: Recorder, seconds: number): void {
    (this.#duration ??= duration.bind(this.attributes))(seconds);
  }
}

/** Follows one request: a class, so that a request costs this one object rather than a closure and its context. */
class RequestTimer implements OperationObserver {
  readonly #kind: RequestKind;
  readonly #duration: Recorder;
  readonly #started: number;

  constructor(kind: RequestKind, duration: Recorder) {
    this.#kind = kind;
    this.#duration = duration;
    this.#started = performance.now();
  }

  end(outcome: OperationOutcome): void {
    const seconds = (performance.now() - this.#started) / 1000;
    const kind = this.#kind;
    kind.inFlight(-1);
    const error = outcomeError(outcome);
    if (error === undefined) kind.succeeded(this.#duration, seconds);
    else this.#duration.record(seconds, { ...kind.attributes, [ATTR.errorType]: error.type });
  }
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
  readonly #kinds: Record<Side, Map<string, RequestKind>> = { client: new Map(), server: new Map() };

  constructor(options: McpMetricsOptions = {}) {
    this.#meter = options.meter;
    this.#prometheus = options.prometheus;
    this.#transport = options.networkTransport;
    const upDown = (name: string, help: string): Recorder => {
      const otel = this.#meter?.createUpDownCounter(name, { description: help });
      const prom = this.#prometheus?.gauge(prometheusName(name), help);
      return {
        record: (value, attributes) => (otel?.add(value, attributes as Attributes), prom?.add(value, labels(attributes))),
        bind: (attributes) => {
          const series = prom?.bind(labels(attributes));
          return (value) => (otel?.add(value, attributes as Attributes), series?.add(value));
        },
      };
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
    const recordRejected = (value: number, attributes: Record<string, string>): void =>
      void (otelRejected?.add(value, attributes as Attributes), promRejected?.add(value, labels(attributes)));
    this.#rejected = { record: recordRejected, bind: (attributes) => (value) => recordRejected(value, attributes) };
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
        bind: (attributes) => {
          const series = prom?.bind(labels(attributes));
          return (value) => (otel?.record(value, attributes as Attributes), series?.record(value));
        },
      };
      this.#durations.set(name, recorder);
    }
    return recorder;
  }

  #start(operation: McpOperation): OperationObserver | undefined {
    if (operation.kind !== 'request') return undefined;
    const side = operation.side;
    const method = wireString(operation.method) ?? 'unknown';
    const tool = operation.method === 'tools/call' ? wireString(operation.params?.name) : undefined;
    const version = wireString(operation.protocolVersion);
    const transport = this.#transport ?? (side === 'server' ? serverTransport(operation) : undefined);
    const kind = this.#kind(side, method, tool, version, transport);
    kind.inFlight(1);
    return new RequestTimer(kind, this.#duration(side === 'client' ? 'mcp.client.operation.duration' : 'mcp.server.operation.duration'));
  }

  /** The request kind of these values: bound once and kept (up to {@link MAX_BOUND_KINDS}), else made for one request. */
  #kind(side: Side, method: string, tool: string | undefined, version: string | undefined, transport: string | undefined): RequestKind {
    const kinds = this.#kinds[side];
    // Names may hold any character, so the key may collide: a kind found is checked field by field.
    const key = `${method}\u0000${tool ?? ''}\u0000${version ?? ''}\u0000${transport ?? ''}`;
    const found = kinds.get(key);
    if (
      found !== undefined &&
      found.method === method &&
      found.tool === tool &&
      found.version === version &&
      found.transport === transport
    ) {
      return found;
    }
    const kind = new RequestKind(method, tool, version, transport, this.#inFlight[side]);
    if (found === undefined && kinds.size < MAX_BOUND_KINDS) kinds.set(key, kind);
    return kind;
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
