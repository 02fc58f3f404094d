/**
 * The OpenTelemetry SDK `--otel` runs on, behind one module that `otel-flag.ts` imports with `import()` only when
 * tracing starts: a start without `--otel` reads none of it. The reference servers' one-file bundles keep this
 * module, and everything it imports, in a file of its own next to the program (`scripts/bundle-bin.mjs`), read at
 * that moment only, so their default start does not read or compile the SDK either.
 */

/** The SDK packages and `@wiremcp/otel`'s tracing, loaded; the exporter of `protocol` only. Rejects when one is missing. */
export async function loadOtelSdk(protocol: 'http/protobuf' | 'http/json') {
  const [api, hooks, core, resources, sdk, exporter, otel] = await Promise.all([
    import('@opentelemetry/api'),
    import('@opentelemetry/context-async-hooks'),
    import('@opentelemetry/core'),
    import('@opentelemetry/resources'),
    import('@opentelemetry/sdk-trace'),
    protocol === 'http/json' ? import('@opentelemetry/exporter-trace-otlp-http') : import('@opentelemetry/exporter-trace-otlp-proto'),
    import('@wiremcp/otel'),
  ]);
  // CommonJS packages: their exports are the namespace's default (Node's named-export detection misses some).
  const commonJs = <T>(module: T): T => (module as { default?: T }).default ?? module;
  return {
    api: commonJs(api),
    hooks: commonJs(hooks),
    core: commonJs(core),
    resources: commonJs(resources),
    sdk: commonJs(sdk),
    exporter: commonJs(exporter),
    otel,
  };
}
