/**
 * `--otel`: a span per MCP request (`@wiremcp/otel`'s `mcpTracing`) exported over OTLP/HTTP by the official
 * OpenTelemetry JS SDK, set up by the standard `OTEL_*` environment variables. The SDK packages are optional
 * dependencies loaded only when the flag is given: a server started without it reads none of them (its cold start
 * is unchanged). An exporter that fails (no collector, a refusal, a timeout) drops spans and says so once on
 * stderr per outage; serving never waits for it nor fails because of it.
 */
import type { Instrumentation } from '@wiremcp/jsonrpc';
import type { loadOtelSdk } from './otel-sdk.js';
import type { ServerFlags } from './server-flags.js';

/** The flag of tracing. */
export const OTEL_FLAGS: ServerFlags = { otel: { type: 'boolean' } };

/** Its usage lines. */
export const OTEL_USAGE =
  '  --otel      export a span per MCP request over OTLP/HTTP (OpenTelemetry), set up\n' +
  '              by the standard variables: OTEL_EXPORTER_OTLP_ENDPOINT (default\n' +
  '              http://localhost:4318) or OTEL_EXPORTER_OTLP_TRACES_ENDPOINT,\n' +
  '              OTEL_EXPORTER_OTLP_PROTOCOL (http/protobuf, the default, or\n' +
  '              http/json), OTEL_SERVICE_NAME, OTEL_RESOURCE_ATTRIBUTES,\n' +
  '              OTEL_TRACES_SAMPLER and OTEL_TRACES_SAMPLER_ARG;\n' +
  '              OTEL_SDK_DISABLED=true turns it off\n';

/** The OpenTelemetry packages `--otel` loads (optional dependencies of this package). */
export const OTEL_PACKAGES = [
  '@opentelemetry/api',
  '@opentelemetry/context-async-hooks',
  '@opentelemetry/core',
  '@opentelemetry/resources',
  '@opentelemetry/sdk-trace',
  '@opentelemetry/exporter-trace-otlp-proto',
  '@opentelemetry/exporter-trace-otlp-http',
] as const;

/** How long the exit waits for the last spans to be sent, in ms (a collector that hangs must not hold the exit). */
export const OTEL_FLUSH_TIMEOUT_MS = 1500;

/** What `--otel` reads from the environment, checked before anything is loaded. */
export interface OtelSettings {
  /** `OTEL_SDK_DISABLED=true` (or `OTEL_TRACES_EXPORTER=none`): nothing is exported. */
  readonly disabled: boolean;
  readonly protocol: 'http/protobuf' | 'http/json';
  /** Where spans go, for the start line (the exporter itself reads the variables). */
  readonly endpoint: string;
  /** `OTEL_TRACES_SAMPLER` (default `parentbased_always_on`) and the ratio of `OTEL_TRACES_SAMPLER_ARG` (default 1). */
  readonly sampler: { readonly name: (typeof SAMPLERS)[number]; readonly ratio: number };
}

/** The samplers of the specification's `OTEL_TRACES_SAMPLER` that the SDK has. */
const SAMPLERS = [
  'always_on',
  'always_off',
  'traceidratio',
  'parentbased_always_on',
  'parentbased_always_off',
  'parentbased_traceidratio',
] as const;

const envValue = (env: NodeJS.ProcessEnv, name: string): string | undefined => {
  const value = env[name]?.trim();
  return value === undefined || value === '' ? undefined : value;
};

/** Reads the `OTEL_*` settings; throws an Error naming the variable for a value that cannot be honoured. */
export function otelSettings(env: NodeJS.ProcessEnv): OtelSettings {
  const exporter = envValue(env, 'OTEL_TRACES_EXPORTER') ?? 'otlp';
  if (exporter !== 'otlp' && exporter !== 'none') {
    throw new Error(`OTEL_TRACES_EXPORTER=${JSON.stringify(exporter.slice(0, 40))} is not supported with --otel (use otlp or none)`);
  }
  const disabled = envValue(env, 'OTEL_SDK_DISABLED')?.toLowerCase() === 'true' || exporter === 'none';
  const protocolVariable =
    envValue(env, 'OTEL_EXPORTER_OTLP_TRACES_PROTOCOL') === undefined
      ? 'OTEL_EXPORTER_OTLP_PROTOCOL'
      : 'OTEL_EXPORTER_OTLP_TRACES_PROTOCOL';
  const protocol = envValue(env, protocolVariable) ?? 'http/protobuf';
  if (protocol !== 'http/protobuf' && protocol !== 'http/json') {
    throw new Error(
      `${protocolVariable}=${JSON.stringify(protocol.slice(0, 40))} is not supported: use http/protobuf or http/json (OTLP/gRPC is not)`,
    );
  }
  const traces = envValue(env, 'OTEL_EXPORTER_OTLP_TRACES_ENDPOINT');
  const base = envValue(env, 'OTEL_EXPORTER_OTLP_ENDPOINT') ?? 'http://localhost:4318';
  const endpoint = traces ?? `${base.replace(/\/+$/, '')}/v1/traces`;
  let url: URL;
  try {
    url = new URL(endpoint);
  } catch {
    throw new Error(`${traces === undefined ? 'OTEL_EXPORTER_OTLP_ENDPOINT' : 'OTEL_EXPORTER_OTLP_TRACES_ENDPOINT'} is not a URL`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new Error('the OTLP endpoint must be an http: or https: URL');
  // Credentials in the URL are never printed.
  url.username = '';
  url.password = '';
  const sampler = (envValue(env, 'OTEL_TRACES_SAMPLER') ?? 'parentbased_always_on').toLowerCase();
  if (!(SAMPLERS as readonly string[]).includes(sampler)) {
    throw new Error(`OTEL_TRACES_SAMPLER=${JSON.stringify(sampler.slice(0, 40))} is not supported (one of ${SAMPLERS.join(', ')})`);
  }
  const arg = envValue(env, 'OTEL_TRACES_SAMPLER_ARG');
  const ratio = arg === undefined || !sampler.endsWith('traceidratio') ? 1 : Number(arg);
  if (!(ratio >= 0 && ratio <= 1))
    throw new Error(`OTEL_TRACES_SAMPLER_ARG must be a ratio from 0 to 1, got ${JSON.stringify(arg!.slice(0, 40))}`);
  return { disabled, protocol, endpoint: url.href, sampler: { name: sampler as (typeof SAMPLERS)[number], ratio } };
}

/** Tracing of a server main. */
export interface ServerTracing {
  readonly instrumentation: Instrumentation;
  /** For the start line: where spans go. */
  readonly description: string;
  /** Sends the spans still buffered (bounded by {@link OTEL_FLUSH_TIMEOUT_MS}) and stops. Never rejects. */
  close(): Promise<void>;
}

/** Settles after `promise` or `ms`, whichever is first; never rejects. */
function bounded(promise: Promise<unknown>, ms: number): Promise<void> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const late = new Promise<void>((resolve) => {
    timer = setTimeout(resolve, ms);
    timer.unref?.();
  });
  return Promise.race([
    promise.then(
      () => undefined,
      () => undefined,
    ),
    late,
  ]).finally(() => clearTimeout(timer));
}

async function loadSdk(protocol: OtelSettings['protocol']): Promise<Awaited<ReturnType<typeof loadOtelSdk>>> {
  try {
    return await (await import('./otel-sdk.js')).loadOtelSdk(protocol);
  } catch (error) {
    throw new Error(`--otel needs the OpenTelemetry SDK: npm install ${OTEL_PACKAGES.join(' ')}`, { cause: error });
  }
}

/**
 * Starts tracing for `--otel` (a server main's; also for programs that build their servers and clients themselves,
 * such as a proxy: pass `instrumentation` to each), or returns `undefined` when the environment turns it off (said on `log`). The
 * tracer provider, context manager and propagator (W3C trace context and baggage) are registered globally, so that
 * spans a handler starts are children of the request's span.
 */
export async function startTracing(
  service: { readonly name: string; readonly version: string },
  env: NodeJS.ProcessEnv,
  log: (message: string) => void,
): Promise<ServerTracing | undefined> {
  const settings = otelSettings(env);
  if (settings.disabled) {
    log('--otel: OpenTelemetry is disabled by the environment (OTEL_SDK_DISABLED or OTEL_TRACES_EXPORTER=none); no span is exported');
    return undefined;
  }
  const { api, hooks, core, resources, sdk, exporter, otel } = await loadSdk(settings.protocol);
  // OTEL_SERVICE_NAME and OTEL_RESOURCE_ATTRIBUTES (read by the SDK's environment detector) win over the defaults.
  const resource = resources
    .resourceFromAttributes({ 'service.name': service.name, 'service.version': service.version })
    .merge(resources.detectResources({ detectors: [resources.envDetector] }));
  const inner = new exporter.OTLPTraceExporter();
  let failing = false;
  let pending = 0;
  // The exporter's own errors go to the OpenTelemetry diagnostics (silent by default); one line per outage says it.
  const reporting: ConstructorParameters<typeof sdk.BatchSpanProcessor>[0]['exporter'] = {
    export(spans, done) {
      pending++;
      inner.export(spans, (result) => {
        pending--;
        if (result.code !== core.ExportResultCode.SUCCESS) {
          if (!failing)
            log(
              `--otel: spans could not be sent to ${settings.endpoint} (${String(result.error?.message ?? 'export failed').slice(0, 200)}); serving goes on`,
            );
          failing = true;
        } else if (failing) {
          failing = false;
          log(`--otel: spans are sent to ${settings.endpoint} again`);
        }
        done(result);
      });
    },
    shutdown: () => inner.shutdown(),
    forceFlush: () => inner.forceFlush(),
  };
  const { name: samplerName, ratio } = settings.sampler;
  const root = samplerName.endsWith('always_off')
    ? new sdk.AlwaysOffSampler()
    : samplerName.endsWith('traceidratio')
      ? new sdk.TraceIdRatioBasedSampler(ratio)
      : new sdk.AlwaysOnSampler();
  const sampler = samplerName.startsWith('parentbased_') ? new sdk.ParentBasedSampler({ root }) : root;
  const provider = new sdk.TracerProvider({ resource, sampler, spanProcessors: [new sdk.BatchSpanProcessor({ exporter: reporting })] });
  const propagator = new core.CompositePropagator({ propagators: [new core.W3CTraceContextPropagator(), new core.W3CBaggagePropagator()] });
  const contextManager = new hooks.AsyncLocalStorageContextManager().enable();
  api.context.setGlobalContextManager(contextManager);
  api.propagation.setGlobalPropagator(propagator);
  api.trace.setGlobalTracerProvider(provider);
  return {
    instrumentation: otel.mcpTracing({ tracerProvider: provider, propagator, contextManager }),
    description: `${settings.endpoint} (OTLP ${settings.protocol})`,
    close: async () => {
      await bounded(provider.shutdown(), OTEL_FLUSH_TIMEOUT_MS);
      // An export still retrying (a collector down or slow) is abandoned: the exit does not wait for it.
      if (pending > 0) log(`--otel: spans still being sent to ${settings.endpoint} were dropped at exit`);
    },
  };
}
