// The servers of the overhead bench (`npm run bench -- ops`): the workload's wiremcp server with one operational
// feature switched on, each as a production set-up would install it, so that the only difference between two rows
// is that feature.
//
// Each feature's modules are imported only by the variant that uses it, so that the plain row loads what the bench's
// plain wiremcp server loads and can be compared with another build's plain server (`--against`).
import type { SpanExporter, TracerProvider } from '@opentelemetry/sdk-trace';
import { rateLimit, type McpServer } from '@wiremcp/server';
import { workloadServer } from '../servers/wiremcp-workload.js';
import { OPS_VARIANTS, type OpsVariant } from './ops-plan.js';

/**
 * The rate limiter's rules: limits no bench run reaches (a phase makes at most a few hundred thousand calls), so
 * every request is counted in its buckets and none is refused. A refusal would fail the row: the driver checks
 * every answer.
 */
export const NEVER_TRIGGERED_LIMITS = 'tools/call=100000000/m,*=100000000/m';

/**
 * Installs a real OpenTelemetry SDK as an application would: async context, W3C propagation, batched export. The
 * exporter drops what it is given: the spans are made, recorded and batched as in production, but what sending
 * them costs (a collector, the network) is not what the bench measures.
 */
async function installTracing(): Promise<TracerProvider> {
  const [{ context, propagation, trace }, { AsyncLocalStorageContextManager }, { W3CTraceContextPropagator }, sdk] = await Promise.all([
    import('@opentelemetry/api'),
    import('@opentelemetry/context-async-hooks'),
    import('@opentelemetry/core'),
    import('@opentelemetry/sdk-trace'),
  ]);
  const discardingExporter: SpanExporter = {
    export: (_spans, done) => done({ code: 0 }),
    shutdown: () => Promise.resolve(),
  };
  context.setGlobalContextManager(new AsyncLocalStorageContextManager().enable());
  propagation.setGlobalPropagator(new W3CTraceContextPropagator());
  const provider = new sdk.TracerProvider({ spanProcessors: [new sdk.BatchSpanProcessor({ exporter: discardingExporter })] });
  trace.setGlobalTracerProvider(provider);
  return provider;
}

/** Checks a variant name from the command line; throws a readable error naming the known ones. */
export function parseVariant(text: string | undefined): OpsVariant {
  if ((OPS_VARIANTS as readonly string[]).includes(text ?? '')) return text as OpsVariant;
  throw new Error(`unknown variant ${JSON.stringify(String(text).slice(0, 40))}; expected one of ${OPS_VARIANTS.join(', ')}`);
}

/** The workload server named `name` with `variant` switched on. */
export async function opsWorkloadServer(name: string, variant: OpsVariant): Promise<McpServer> {
  switch (variant) {
    case 'off':
      return workloadServer(name);
    case 'tracing': {
      const { mcpTracing } = await import('@wiremcp/otel');
      return workloadServer(name, { instrumentation: mcpTracing({ tracerProvider: await installTracing() }) });
    }
    case 'metrics': {
      // As the reference servers' --metrics: the request histograms and gauges kept in a Prometheus registry
      // (scrapes are not part of the measure).
      const { McpMetrics, PrometheusRegistry } = await import('@wiremcp/otel/metrics');
      const metrics = new McpMetrics({ prometheus: new PrometheusRegistry() });
      return workloadServer(name, { instrumentation: metrics.instrumentation });
    }
    case 'rate-limit': {
      const server = workloadServer(name);
      server.use(rateLimit({ rules: NEVER_TRIGGERED_LIMITS }));
      return server;
    }
  }
}
