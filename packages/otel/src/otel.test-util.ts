/** Test helpers: a real OpenTelemetry SDK (in-memory spans, a pull metric reader) and an MCP pair over it. */
import { context, type Tracer } from '@opentelemetry/api';
import { AsyncLocalStorageContextManager } from '@opentelemetry/context-async-hooks';
import { CompositePropagator, W3CBaggagePropagator, W3CTraceContextPropagator } from '@opentelemetry/core';
import { InMemorySpanExporter, SimpleSpanProcessor, TracerProvider, type ReadableSpan, type SpanExporter } from '@opentelemetry/sdk-trace';
import { McpClient } from '@wiremcp/client';
import { createLinkedPair, type Instrumentation } from '@wiremcp/jsonrpc';
import { McpServer } from '@wiremcp/server';

/** The W3C trace-context and baggage propagators, as an SDK set-up would install them. */
export const propagator = new CompositePropagator({ propagators: [new W3CTraceContextPropagator(), new W3CBaggagePropagator()] });

let contextManager: AsyncLocalStorageContextManager | undefined;

/** Installs the async-hooks context manager (once per test file). */
export function installContext(): void {
  if (contextManager !== undefined) return;
  contextManager = new AsyncLocalStorageContextManager().enable();
  context.setGlobalContextManager(contextManager);
}

/** A tracer provider writing to an in-memory exporter (or `exporter`). */
export function memoryTracing(exporter: SpanExporter = new InMemorySpanExporter()): {
  provider: TracerProvider;
  exporter: SpanExporter;
  tracer: Tracer;
} {
  const provider = new TracerProvider({ spanProcessors: [new SimpleSpanProcessor({ exporter })] });
  return { provider, exporter, tracer: provider.getTracer('test') };
}

/** The spans finished so far (exports are asynchronous: flushed first). */
export async function finishedSpans(provider: TracerProvider, exporter: SpanExporter): Promise<ReadableSpan[]> {
  await provider.forceFlush();
  return (exporter as InMemorySpanExporter).getFinishedSpans();
}

/** A server with a `get_weather` tool, a failing tool and a prompt. */
export function weatherServer(
  instrumentation: Instrumentation | undefined,
  onInternalError: (error: unknown) => void = () => {},
): McpServer {
  const server = new McpServer({ name: 'weather', version: '1.0.0' }, { onInternalError, ...(instrumentation ? { instrumentation } : {}) });
  server.registerTool({ name: 'get_weather', inputSchema: { type: 'object' } }, () => ({ content: [{ type: 'text', text: 'sunny' }] }));
  server.registerTool({ name: 'broken', inputSchema: { type: 'object' } }, () => {
    throw new Error('the forecast service is down');
  });
  return server;
}

/** `server` and a client connected in memory in `era`; the client observed by `instrumentation`. */
export async function connect(
  server: McpServer,
  era: 'legacy' | 'modern',
  instrumentation?: Instrumentation,
  onError: (error: unknown) => void = () => {},
): Promise<{ client: McpClient; close(): Promise<void> }> {
  const [a, b] = createLinkedPair();
  await server.connect(b);
  const client = new McpClient(
    { name: 'weather-client', version: '1.0.0' },
    { era, onError, ...(instrumentation ? { instrumentation } : {}) },
  );
  await client.connect(a);
  return { client, close: () => client.close() };
}
