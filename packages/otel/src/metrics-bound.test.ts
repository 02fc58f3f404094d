/**
 * Metrics recorded through bound series: what the registry lists is what recording point by point lists (no
 * series before its first point, folding past the bound, errors apart), also for kinds of request past the number
 * kept bound, and an OpenTelemetry meter gets the same attributes on every point.
 */
import type { Attributes, Meter } from '@opentelemetry/api';
import type { McpOperation } from '@wiremcp/jsonrpc';
import { expect, test } from 'vitest';
import { McpMetrics, PrometheusRegistry } from './metrics/index.js';
import { MCP_DURATION_BUCKETS } from './semconv.js';

/** The exposition with every sum and bucket count of durations set aside: only what does not depend on time. */
function timeless(text: string): string[] {
  return text.split('\n').filter((line) => !/_duration_seconds_(sum|bucket)/.test(line));
}

/** One served `tools/call` of `tool`, ended with `outcome`. */
function call(metrics: McpMetrics, tool: string, outcome: { result: unknown } | { error: unknown }): void {
  const operation: McpOperation = {
    side: 'server',
    kind: 'request',
    method: 'tools/call',
    id: 1,
    params: { name: tool },
    protocolVersion: '2026-07-28',
  };
  const observer = metrics.instrumentation.start(operation);
  observer!.end(outcome as never);
}

test('a bound histogram and gauge list exactly what recording point by point lists, folding included', () => {
  const bound = new PrometheusRegistry({ maxSeries: 2 });
  const direct = new PrometheusRegistry({ maxSeries: 2 });
  const labelSets = [{ a: 'x' }, { a: 'y' }, { a: 'z' }, { a: 'w' }];
  const bounds = [0.1, 1];
  for (const [i, labels] of labelSets.entries()) {
    const value = i / 2;
    bound.histogram('h', 'help', bounds).bind(labels).record(value);
    bound.gauge('g', 'help').bind(labels).add(i);
    direct.histogram('h', 'help', bounds).record(value, labels);
    direct.gauge('g', 'help').add(i, labels);
  }
  bound.histogram('h', 'help', bounds).bind({ a: 'x' }).record(Number.NaN);
  expect(bound.exposition()).toBe(direct.exposition());
  expect(bound.exposition()).toContain('h_count{a="_OTHER"} 2');
  expect(bound.exposition()).toContain('g{a="_OTHER"} 5');
});

test('every kind of request is counted, past the kinds kept bound too; no series appears before its first point', () => {
  const registry = new PrometheusRegistry({ maxSeries: 10_000 });
  const metrics = new McpMetrics({ prometheus: registry });
  // 1 200 tools: more kinds than are kept bound (1 000), each called once with success and once with a tool error.
  for (let i = 0; i < 1200; i++) {
    call(metrics, `tool-${i}`, { result: { content: [] } });
    call(metrics, `tool-${i}`, { result: { content: [], isError: true } });
  }
  call(metrics, 'failing', { error: { code: -32602, message: 'bad' } });
  const lines = timeless(registry.exposition());
  const counts = lines.filter((line) => line.startsWith('mcp_server_operation_duration_seconds_count'));
  expect(counts).toHaveLength(2 * 1200 + 1);
  for (const i of [0, 999, 1000, 1199]) {
    const tool = `gen_ai_tool_name="tool-${i}",mcp_method_name="tools/call",mcp_protocol_version="2026-07-28",network_transport="pipe"`;
    expect(counts.filter((line) => line.includes(`"tool-${i}"`))).toEqual([
      `mcp_server_operation_duration_seconds_count{${tool}} 1`,
      `mcp_server_operation_duration_seconds_count{error_type="tool_error",${tool}} 1`,
    ]);
  }
  // A kind that never succeeded has no success series (bound lazily, at its first success).
  expect(counts.filter((line) => line.includes('"failing"'))).toEqual([
    'mcp_server_operation_duration_seconds_count{error_type="-32602",gen_ai_tool_name="failing",mcp_method_name="tools/call",' +
      'mcp_protocol_version="2026-07-28",network_transport="pipe"} 1',
  ]);
  expect(lines).toContain('wiremcp_server_requests_in_flight{mcp_method_name="tools/call"} 0');
});

test('a meter gets the same attributes on every point of a kind, and the error type on failures', () => {
  const points: Array<{ name: string; value: number; attributes: Attributes }> = [];
  const instrument = (name: string) => ({
    add: (value: number, attributes: Attributes) => points.push({ name, value, attributes: { ...attributes } }),
    record: (value: number, attributes: Attributes) => points.push({ name, value, attributes: { ...attributes } }),
  });
  const meter = {
    createHistogram: (name: string, options: { advice?: { explicitBucketBoundaries?: number[] } }) => {
      expect(options.advice?.explicitBucketBoundaries).toEqual([...MCP_DURATION_BUCKETS]);
      return instrument(name);
    },
    createUpDownCounter: instrument,
    createCounter: instrument,
    createObservableGauge: () => ({ addCallback: () => {} }),
  } as unknown as Meter;
  const metrics = new McpMetrics({ meter });
  call(metrics, 'echo', { result: {} });
  call(metrics, 'echo', { result: {} });
  call(metrics, 'echo', { error: { code: 'TIMEOUT' } });
  const attributes = {
    'mcp.method.name': 'tools/call',
    'mcp.protocol.version': '2026-07-28',
    'network.transport': 'pipe',
    'gen_ai.tool.name': 'echo',
  };
  const durations = points.filter((p) => p.name === 'mcp.server.operation.duration');
  expect(durations.map((p) => p.attributes)).toEqual([attributes, attributes, { ...attributes, 'error.type': 'TIMEOUT' }]);
  const inFlight = points.filter((p) => p.name === 'wiremcp.server.requests.in_flight');
  expect(inFlight.map((p) => [p.value, p.attributes])).toEqual(
    [1, -1, 1, -1, 1, -1].map((value) => [value, { 'mcp.method.name': 'tools/call' }]),
  );
});
