/**
 * Spans for MCP operations, per the OpenTelemetry MCP conventions: one span per request (from start to answer)
 * and per notification, named `{mcp.method.name} {target}`, kind CLIENT on the sending side and SERVER on the
 * handling side. Trace context travels in `params._meta` (`traceparent`, `tracestate`, `baggage`; SEP-414, both
 * eras): a client injects it, a server continues it and links the ambient context (the HTTP server span) when
 * the two differ, or is the ambient span's child when `_meta` has none.
 */
import {
  context,
  propagation,
  ROOT_CONTEXT,
  SpanKind,
  SpanStatusCode,
  trace,
  type Context,
  type ContextManager,
  type Link,
  type Span,
  type SpanOptions,
  type TextMapGetter,
  type TextMapPropagator,
  type Tracer,
  type TracerProvider,
} from '@opentelemetry/api';
import type { Instrumentation, McpOperation, OperationObserver, OperationOutcome } from '@wiremcp/jsonrpc';
import { ATTR, createdTaskId, outcomeError, serverTransport, spanName, startAttributes } from './semconv.js';
import { OTEL_VERSION } from './version.js';

/** Options of {@link mcpTracing}. */
export interface McpTracingOptions {
  /** Where spans come from (default: the global tracer provider). */
  tracerProvider?: TracerProvider;
  /** How trace context is written to and read from `_meta` (default: the global propagator). */
  propagator?: TextMapPropagator;
  /**
   * `network.transport` of every span: `pipe` (stdio), `tcp` (HTTP, WebSocket), `quic`. Default: a server infers
   * it per request (`tcp` with HTTP headers, else `pipe`); a client records none.
   */
  networkTransport?: string;
  /**
   * What carries the active span across `await`s (default: the global context manager). Give the one the SDK was set
   * up with when the global one may belong to another copy of `@opentelemetry/api` (two versions installed side by
   * side): a proxy's upstream request is then still a child of the request it serves.
   */
  contextManager?: ContextManager;
}

/** The `_meta` keys trace context may use; nothing else of `_meta` is read. */
const CONTEXT_KEYS = ['traceparent', 'tracestate', 'baggage'] as const;
/** Longest value of each key taken from the wire (W3C: 55 for traceparent, 512 list members, 8192 bytes of baggage). */
const MAX_CONTEXT_LENGTH: Record<(typeof CONTEXT_KEYS)[number], number> = { traceparent: 55, tracestate: 512, baggage: 8192 };

const getter: TextMapGetter<Record<string, string>> = {
  keys: (carrier) => Object.keys(carrier),
  get: (carrier, key) => carrier[key],
};

/** The trace-context keys of a `_meta`, as strings of bounded length; anything else there is ignored. */
function contextCarrier(meta: unknown): Record<string, string> | undefined {
  if (meta === null || typeof meta !== 'object') return undefined;
  let carrier: Record<string, string> | undefined;
  for (const key of CONTEXT_KEYS) {
    const value = (meta as Record<string, unknown>)[key];
    if (typeof value === 'string' && value.length <= MAX_CONTEXT_LENGTH[key]) (carrier ??= {})[key] = value;
  }
  return carrier;
}

/** Ends a span with the outcome's attributes and status. */
function endSpan(span: Span, outcome: OperationOutcome): void {
  const error = outcomeError(outcome);
  if (error !== undefined) {
    span.setAttribute(ATTR.errorType, error.type);
    if (error.statusCode !== undefined) span.setAttribute(ATTR.responseStatusCode, error.statusCode);
    span.setStatus({ code: SpanStatusCode.ERROR });
  } else {
    const task = createdTaskId(outcome);
    if (task !== undefined) span.setAttribute(ATTR.taskId, task);
  }
  span.end();
}

/**
 * Follows one served request: runs its handler inside the span's context and ends the span. A class, so that a
 * request costs this one object rather than two closures.
 */
class ServerSpan implements OperationObserver {
  readonly #span: Span;
  readonly #inside: Context;
  readonly #manager: ContextManager | undefined;

  constructor(span: Span, inside: Context, manager: ContextManager | undefined) {
    this.#span = span;
    this.#inside = inside;
    this.#manager = manager;
  }

  run<T>(fn: () => T): T {
    return this.#manager ? this.#manager.with(this.#inside, fn) : context.with(this.#inside, fn);
  }

  end(outcome: OperationOutcome): void {
    endSpan(this.#span, outcome);
  }
}

/** Follows one sent request: the trace context to put in its `_meta`, and its span to end. */
class ClientSpan implements OperationObserver {
  readonly meta: Readonly<Record<string, string>>;
  readonly #span: Span;

  constructor(span: Span, meta: Readonly<Record<string, string>>) {
    this.#span = span;
    this.meta = meta;
  }

  end(outcome: OperationOutcome): void {
    endSpan(this.#span, outcome);
  }
}

/**
 * An {@link Instrumentation} that traces MCP operations; pass it as the `instrumentation` option of `McpServer`
 * or `McpClient` (or combine it with metrics through `combineInstrumentation`). It never throws into an operation:
 * the engine reports a failing tracer and the call goes on.
 */
export function mcpTracing(options: McpTracingOptions = {}): Instrumentation {
  let tracer: Tracer | undefined;
  const getTracer = (): Tracer =>
    (tracer ??= (options.tracerProvider ?? trace.getTracerProvider()).getTracer('@wiremcp/otel', OTEL_VERSION));
  const propagator = options.propagator;
  const extract = (parent: Context, carrier: Record<string, string>): Context =>
    propagator ? propagator.extract(parent, carrier, getter) : propagation.extract(parent, carrier, getter);
  const inject = (ctx: Context, carrier: Record<string, string>): void => {
    if (propagator) propagator.inject(ctx, carrier, { set: (c, k, v) => void (c[k] = v) });
    else propagation.inject(ctx, carrier);
  };
  const transport = options.networkTransport;
  const manager = options.contextManager;
  const activeContext = (): Context => (manager ? manager.active() : context.active());
  return {
    start(operation: McpOperation): OperationObserver {
      if (operation.side === 'client') {
        const active = activeContext();
        const span = getTracer().startSpan(
          spanName(operation),
          { kind: SpanKind.CLIENT, attributes: startAttributes(operation, transport) },
          active,
        );
        const carrier: Record<string, string> = {};
        inject(trace.setSpan(active, span), carrier);
        return new ClientSpan(span, carrier);
      }
      const ambient = activeContext();
      const carrier = contextCarrier(operation.params?._meta);
      const remote = carrier === undefined ? undefined : trace.getSpanContext(extract(ROOT_CONTEXT, carrier));
      let parent = ambient;
      let links: Link[] | undefined;
      if (remote !== undefined && trace.isSpanContextValid(remote)) {
        // The client's context is the parent; the ambient one (the HTTP server span) is linked when it is another trace.
        parent = extract(ambient, carrier!);
        const local = trace.getSpanContext(ambient);
        if (local !== undefined && trace.isSpanContextValid(local) && local.traceId !== remote.traceId) links = [{ context: local }];
      }
      const options: SpanOptions = {
        kind: SpanKind.SERVER,
        attributes: startAttributes(operation, transport ?? serverTransport(operation)),
      };
      if (links !== undefined) options.links = links;
      const span = getTracer().startSpan(spanName(operation), options, parent);
      return new ServerSpan(span, trace.setSpan(parent, span), manager);
    },
  };
}
