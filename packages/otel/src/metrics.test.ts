/**
 * Metrics: the duration histograms with the real OpenTelemetry metrics SDK and in the Prometheus registry, the
 * operational gauges, the bound on label sets, rejections read from HTTP answers, and a meter that throws.
 */
import {
  AggregationTemporality,
  InMemoryMetricExporter,
  MeterProvider,
  PeriodicExportingMetricReader,
  type HistogramMetricData,
} from '@opentelemetry/sdk-metrics';
import type { Meter } from '@opentelemetry/api';
import { afterEach, expect, test } from 'vitest';
import { McpMetrics, PrometheusRegistry, rejectionReason } from './metrics/index.js';
import { MCP_DURATION_BUCKETS } from './semconv.js';
import { connect, weatherServer } from './otel.test-util.js';

const closers: Array<() => Promise<void>> = [];
afterEach(async () => {
  for (const close of closers.splice(0)) await close();
});

test('server and client duration histograms reach the OpenTelemetry SDK with the advised buckets', async () => {
  const exporter = new InMemoryMetricExporter(AggregationTemporality.CUMULATIVE);
  const reader = new PeriodicExportingMetricReader({ exporter, exportIntervalMillis: 3_600_000 });
  const provider = new MeterProvider({ readers: [reader] });
  closers.push(() => provider.shutdown());
  const serverMetrics = new McpMetrics({ meter: provider.getMeter('server') });
  const clientMetrics = new McpMetrics({ meter: provider.getMeter('client') });
  const pair = await connect(weatherServer(serverMetrics.instrumentation), 'modern', clientMetrics.instrumentation);
  await pair.client.callTool('get_weather', {});
  await pair.client.callTool('broken', {});
  await pair.close();
  await reader.forceFlush();
  const metrics = exporter.getMetrics().flatMap((r) => r.scopeMetrics.flatMap((s) => s.metrics));
  const server = metrics.find((m) => m.descriptor.name === 'mcp.server.operation.duration') as HistogramMetricData | undefined;
  const client = metrics.find((m) => m.descriptor.name === 'mcp.client.operation.duration') as HistogramMetricData | undefined;
  expect(server?.descriptor.unit).toBe('s');
  expect(client).toBeDefined();
  const calls = server!.dataPoints.filter((p) => p.attributes['mcp.method.name'] === 'tools/call');
  expect(calls.map((p) => p.attributes['error.type']).sort()).toEqual(['tool_error', undefined]);
  expect(calls[0]!.value.buckets.boundaries).toEqual([...MCP_DURATION_BUCKETS]);
  const sessions = metrics.find((m) => m.descriptor.name === 'mcp.client.session.duration') as HistogramMetricData | undefined;
  expect(sessions?.dataPoints[0]?.value.count).toBe(1);
});

test('the Prometheus registry: cumulative buckets, in-flight back to zero, escaped labels, a bounded series set', async () => {
  const registry = new PrometheusRegistry({ maxSeries: 3 });
  const metrics = new McpMetrics({ prometheus: registry });
  const server = weatherServer(metrics.instrumentation);
  const pair = await connect(server, 'legacy');
  closers.push(pair.close);
  await pair.client.callTool('get_weather', {});
  for (let i = 0; i < 10; i++) await pair.client.request(`made/up\n"${i}"` as never, {} as never).catch(() => {});
  const text = registry.exposition();
  expect(text).toContain('# TYPE mcp_server_operation_duration_seconds histogram');
  expect(text).toMatch(
    /mcp_server_operation_duration_seconds_bucket\{gen_ai_tool_name="get_weather",mcp_method_name="tools\/call",[^}]*le="\+Inf"\} 1/,
  );
  expect(text).toMatch(/wiremcp_server_requests_in_flight\{mcp_method_name="tools\/call"\} 0/);
  expect(text).toContain('mcp_method_name="_OTHER"');
  expect(text).not.toContain('made/up\n');
  const seriesLines = text.split('\n').filter((line) => line.startsWith('mcp_server_operation_duration_seconds_count'));
  expect(seriesLines.length).toBeLessThanOrEqual(4); // three, and the one the rest fold into
  const buckets = text
    .split('\n')
    .filter((line) => line.startsWith('mcp_server_operation_duration_seconds_bucket{gen_ai_tool_name="get_weather"'))
    .map((line) => Number(line.split(' ').pop()));
  expect(buckets).toHaveLength(MCP_DURATION_BUCKETS.length + 1);
  for (let i = 1; i < buckets.length; i++) expect(buckets[i]).toBeGreaterThanOrEqual(buckets[i - 1]!);
  expect(buckets.at(-1)).toBe(1);
});

test('refusals are read from the answer sent', () => {
  expect(rejectionReason(401, null)).toBe('auth');
  expect(rejectionReason(403, 'Bearer error="insufficient_scope"')).toBe('auth');
  expect(rejectionReason(403, null)).toBe('origin');
  expect(rejectionReason(413, null)).toBe('size');
  expect(rejectionReason(429, null)).toBe('rate_limit');
  expect(rejectionReason(200, null)).toBeUndefined();
  expect(rejectionReason(404, null)).toBeUndefined();
});

test('a meter whose instruments throw breaks no call; the failure is reported', async () => {
  const throwing = {
    createHistogram: () => ({
      record: () => {
        throw new Error('histogram exploded');
      },
    }),
    createUpDownCounter: () => ({
      add: () => {
        throw new Error('counter exploded');
      },
    }),
    createCounter: () => ({ add: () => {} }),
    createObservableGauge: () => ({ addCallback: () => {} }),
  } as unknown as Meter;
  const reported: unknown[] = [];
  const metrics = new McpMetrics({ meter: throwing });
  const pair = await connect(
    weatherServer(metrics.instrumentation, (error) => reported.push(error)),
    'modern',
  );
  closers.push(pair.close);
  expect((await pair.client.callTool('get_weather', {})).content).toEqual([{ type: 'text', text: 'sunny' }]);
  expect(reported.length).toBeGreaterThan(0);
});
