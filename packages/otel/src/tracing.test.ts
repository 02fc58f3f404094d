/**
 * Tracing with the real OpenTelemetry SDK: span names and attributes after the MCP conventions, the client's
 * trace continued in the server through `_meta` in both eras, and the faults — a throwing tracer, a broken
 * exporter, hostile `_meta` trace context — that must never break a call.
 */
import { SpanKind, SpanStatusCode, context, trace, type TracerProvider } from '@opentelemetry/api';
import { InMemorySpanExporter, type ReadableSpan } from '@opentelemetry/sdk-trace';
import { createLinkedPair } from '@wiremcp/jsonrpc';
import { afterEach, beforeAll, describe, expect, test } from 'vitest';
import { mcpTracing } from './index.js';
import { connect, finishedSpans, installContext, memoryTracing, propagator, weatherServer } from './otel.test-util.js';

beforeAll(() => installContext());

const closers: Array<() => Promise<void>> = [];
afterEach(async () => {
  for (const close of closers.splice(0)) await close();
});

let current: { provider: TracerProvider & { forceFlush(): Promise<void> }; exporter: InMemorySpanExporter } | undefined;

/** The finished spans called `name` of the provider made last (by {@link freshTracing}). */
async function spansNamed(_exporter: unknown, name: string): Promise<ReadableSpan[]> {
  const spans = await finishedSpans(current!.provider as never, current!.exporter);
  return spans.filter((span) => span.name === name);
}

/** A fresh in-memory provider, remembered for {@link spansNamed}. */
function freshTracing(): ReturnType<typeof memoryTracing> {
  const made = memoryTracing();
  current = made as never;
  return made;
}

describe.each(['legacy', 'modern'] as const)('%s era', (era) => {
  test('a tool call is a client span and a server span of one trace, named after the tool', async () => {
    const { provider, exporter } = freshTracing();
    const tracing = mcpTracing({ tracerProvider: provider, propagator });
    const pair = await connect(weatherServer(tracing), era, tracing);
    closers.push(pair.close);
    const result = await pair.client.callTool('get_weather', { city: 'Oslo' });
    expect(result.content).toEqual([{ type: 'text', text: 'sunny' }]);
    const memory = exporter as InMemorySpanExporter;
    const [client] = (await spansNamed(memory, 'tools/call get_weather')).filter((s) => s.kind === SpanKind.CLIENT);
    const [server] = (await spansNamed(memory, 'tools/call get_weather')).filter((s) => s.kind === SpanKind.SERVER);
    expect(client, 'client span').toBeDefined();
    expect(server, 'server span').toBeDefined();
    expect(server!.spanContext().traceId).toBe(client!.spanContext().traceId);
    expect(server!.parentSpanContext?.spanId).toBe(client!.spanContext().spanId);
    for (const span of [client!, server!]) {
      expect(span.attributes['mcp.method.name']).toBe('tools/call');
      expect(span.attributes['gen_ai.tool.name']).toBe('get_weather');
      expect(span.attributes['gen_ai.operation.name']).toBe('execute_tool');
      expect(span.attributes['mcp.protocol.version']).toBe(era === 'modern' ? '2026-07-28' : '2025-11-25');
      expect(span.status.code).not.toBe(SpanStatusCode.ERROR);
    }
    expect(server!.attributes['network.transport']).toBe('pipe');
    expect(typeof server!.attributes['jsonrpc.request.id']).toBe('string');
  });

  test('a tool that fails is error.type tool_error; an unknown method is its JSON-RPC code', async () => {
    const { provider, exporter } = freshTracing();
    const tracing = mcpTracing({ tracerProvider: provider, propagator });
    const pair = await connect(weatherServer(tracing), era, tracing);
    closers.push(pair.close);
    const failed = await pair.client.callTool('broken', {});
    expect(failed.isError).toBe(true);
    const memory = exporter as InMemorySpanExporter;
    const brokenSpans = await spansNamed(memory, 'tools/call broken');
    expect(brokenSpans).toHaveLength(2);
    for (const span of brokenSpans) {
      expect(span.attributes['error.type']).toBe('tool_error');
      expect(span.status.code).toBe(SpanStatusCode.ERROR);
    }
    await expect(pair.client.request('no/such/method' as never, {} as never)).rejects.toThrow();
    const [unknown] = (await spansNamed(memory, 'no/such/method')).filter((s) => s.kind === SpanKind.SERVER);
    expect(unknown?.attributes['error.type']).toBe('-32601');
    expect(unknown?.attributes['rpc.response.status_code']).toBe('-32601');
  });

  test('the handler runs inside the server span: its own spans are children', async () => {
    const { provider, exporter } = freshTracing();
    const tracing = mcpTracing({ tracerProvider: provider, propagator });
    const server = weatherServer(tracing);
    server.registerTool({ name: 'nested', inputSchema: { type: 'object' } }, async () => {
      const inner = provider.getTracer('app').startSpan('fetch forecast');
      await Promise.resolve();
      inner.end();
      return { content: [] };
    });
    const pair = await connect(server, era, tracing);
    closers.push(pair.close);
    await pair.client.callTool('nested', {});
    const memory = exporter as InMemorySpanExporter;
    const [serverSpan] = (await spansNamed(memory, 'tools/call nested')).filter((s) => s.kind === SpanKind.SERVER);
    const [inner] = await spansNamed(memory, 'fetch forecast');
    expect(serverSpan, 'server span').toBeDefined();
    expect(inner?.parentSpanContext?.spanId).toBe(serverSpan!.spanContext().spanId);
  });
});

test('without _meta context the server span is a child of the ambient span (the HTTP server span)', async () => {
  const { provider, exporter } = freshTracing();
  const server = weatherServer(mcpTracing({ tracerProvider: provider, propagator }));
  const pair = await connect(server, 'modern');
  closers.push(pair.close);
  const ambient = provider.getTracer('http').startSpan('POST /mcp');
  await context.with(trace.setSpan(context.active(), ambient), () =>
    server.dispatch(
      {
        jsonrpc: '2.0',
        id: 7,
        method: 'tools/call',
        params: {
          name: 'get_weather',
          arguments: {},
          _meta: {
            'io.modelcontextprotocol/protocolVersion': '2026-07-28',
            'io.modelcontextprotocol/clientCapabilities': {},
          },
        },
      },
      { notify: () => {} },
    ),
  );
  ambient.end();
  const [span] = await spansNamed(exporter, 'tools/call get_weather');
  expect(span, 'server span').toBeDefined();
  expect(span?.parentSpanContext?.spanId).toBe(ambient.spanContext().spanId);
});

test('hostile _meta trace context is ignored: the call is answered, the span is a new root, nothing is echoed', async () => {
  const { provider, exporter } = freshTracing();
  const server = weatherServer(mcpTracing({ tracerProvider: provider, propagator }));
  const hostile = [
    'x'.repeat(100_000),
    '00-00000000000000000000000000000000-0000000000000000-01',
    'ff-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01',
    { nested: true },
    42,
  ];
  for (const traceparent of hostile) {
    const answer = await server.dispatch(
      {
        jsonrpc: '2.0',
        id: 1,
        method: 'tools/call',
        params: {
          name: 'get_weather',
          arguments: {},
          _meta: {
            'io.modelcontextprotocol/protocolVersion': '2026-07-28',
            'io.modelcontextprotocol/clientCapabilities': {},
            traceparent,
            tracestate: 'y'.repeat(10_000),
            baggage: 'k=v'.repeat(5000),
          },
        },
      },
      { notify: () => {} },
    );
    expect(JSON.stringify(answer)).toContain('sunny');
    expect(JSON.stringify(answer)).not.toContain('traceparent');
  }
  const spans = await spansNamed(exporter, 'tools/call get_weather');
  expect(spans).toHaveLength(hostile.length);
  for (const span of spans) expect(span.parentSpanContext).toBeUndefined();
});

test('a tracer that throws, and an exporter that fails, break no call and are reported', async () => {
  const throwing: TracerProvider = {
    getTracer: () => {
      throw new Error('tracer exploded');
    },
  };
  const reported: unknown[] = [];
  const server = weatherServer(mcpTracing({ tracerProvider: throwing, propagator }), (error) => reported.push(error));
  const pair = await connect(server, 'legacy', mcpTracing({ tracerProvider: throwing, propagator }), (error) => reported.push(error));
  closers.push(pair.close);
  expect((await pair.client.callTool('get_weather', {})).content).toEqual([{ type: 'text', text: 'sunny' }]);
  expect(reported.some((error) => String(error).includes('tracer exploded'))).toBe(true);

  const broken = new InMemorySpanExporter();
  broken.export = () => {
    throw new Error('collector unreachable');
  };
  const { provider } = memoryTracing(broken);
  const tracing = mcpTracing({ tracerProvider: provider, propagator });
  const second = await connect(weatherServer(tracing), 'modern', tracing);
  closers.push(second.close);
  expect((await second.client.callTool('get_weather', {})).content).toEqual([{ type: 'text', text: 'sunny' }]);
});

test('an uninstrumented server answers the same over a linked pair (the seam is optional)', async () => {
  const server = weatherServer(undefined);
  const [a, b] = createLinkedPair();
  await server.connect(b);
  const pair = await connect(weatherServer(undefined), 'modern');
  closers.push(
    pair.close,
    () => a.close(),
    () => b.close(),
  );
  expect((await pair.client.callTool('get_weather', {})).isError).toBeFalsy();
});
