/**
 * `--otel`: a reference server exports its spans over OTLP/HTTP to a collector started here (a small receiver on a
 * free loopback port that decodes OTLP/JSON and keeps the raw bytes of OTLP/protobuf). The span of a tool call has
 * the MCP convention's name and attributes, continues the caller's trace from `_meta.traceparent`, and carries the
 * resource the `OTEL_*` variables describe. A collector that is down never breaks serving; a protocol the exporter
 * cannot speak is refused at start. Through `wiremcp proxy --otel` into the server, the call is one trace (kept for
 * the README's picture, drawn by `scripts/trace-svg.mjs`). Every process and listener started here is stopped after each test.
 */
import { spawnSync } from 'node:child_process';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { McpClient } from '@wiremcp/client';
import { StdioClientTransport } from '@wiremcp/transport-stdio';
import { afterEach, expect, test } from 'vitest';

const GRAMMAR = fileURLToPath(new URL('../../../servers/grammar/dist/bin.js', import.meta.url));
/** The bin as it ships: one CommonJS program, with the OpenTelemetry SDK in a file of its own next to it. */
const BUNDLED = fileURLToPath(new URL('../../../servers/grammar/bin/wiremcp-grammar.js', import.meta.url));
const BUNDLE_DIR = fileURLToPath(new URL('../../../servers/grammar/dist/bundle/', import.meta.url));
/** Both ways of starting the server: the tsc output (ES modules, the SDK from node_modules) and the bundled bin. */
const BINS: ReadonlyArray<readonly [string, string]> = [
  ['dist/bin.js', GRAMMAR],
  ['bundled bin', BUNDLED],
];
const CLI = fileURLToPath(new URL('../../../packages/cli/bin/wiremcp.js', import.meta.url));
const ARTIFACTS = fileURLToPath(new URL('../artifacts', import.meta.url));
const TRACE_ID = '4bf92f3577b34da6a3ce929d0e0e4736';
const PARENT_ID = '00f067aa0ba902b7';

const cleanups: Array<() => Promise<void> | void> = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

interface OtlpAttribute {
  key: string;
  value: { stringValue?: string; intValue?: string | number; boolValue?: boolean };
}
interface OtlpSpan {
  name: string;
  startTimeUnixNano: string;
  endTimeUnixNano: string;
  kind: number;
  traceId: string;
  spanId: string;
  parentSpanId?: string;
  attributes?: OtlpAttribute[];
}
interface Export {
  contentType: string;
  body: Buffer;
  json?: { resourceSpans: Array<{ resource: { attributes: OtlpAttribute[] }; scopeSpans: Array<{ spans: OtlpSpan[] }> }> };
}

/** The collector: records every POST to /v1/traces and answers 200; `until` waits for a condition on what came. */
async function collector(): Promise<{ url: string; exports: Export[]; until(accept: () => boolean): Promise<void> }> {
  const exports: Export[] = [];
  let changed: () => void = () => {};
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const contentType = req.headers['content-type'] ?? '';
      const body = Buffer.concat(chunks);
      if (req.method === 'POST' && req.url === '/v1/traces') {
        exports.push({
          contentType,
          body,
          ...(contentType.includes('json') ? { json: JSON.parse(body.toString()) as Export['json'] } : {}),
        });
        changed();
      }
      res.writeHead(200, { 'content-type': contentType.includes('json') ? 'application/json' : 'application/x-protobuf' });
      res.end(contentType.includes('json') ? '{}' : undefined);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  cleanups.push(() => new Promise<void>((resolve) => (server.closeAllConnections(), server.close(() => resolve()))));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    exports,
    until: (accept) =>
      new Promise<void>((resolve) => {
        if (accept()) return resolve();
        changed = () => accept() && resolve();
      }),
  };
}

/** Runs the grammar server (`bin`) over stdio with `--otel` and `env`, and connects a client. */
async function grammar(
  env: Record<string, string>,
  bin = GRAMMAR,
): Promise<{ client: McpClient; stderr: () => string; ended: Promise<void> }> {
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [bin, '--otel'],
    env: { PATH: process.env.PATH ?? '', ...env },
    stderr: 'pipe',
    shutdownTimeoutMs: 3000,
  });
  cleanups.push(() => transport.close());
  const client = new McpClient({ name: 'otel-test', version: '1.0.0' }, { onError: () => {} });
  cleanups.push(() => client.close());
  await client.connect(transport);
  // Spawned once connected: the transport keeps the tail of its stderr.
  const ended = new Promise<void>((resolve) => transport.stderr!.once('end', resolve));
  return { client, stderr: () => transport.stderrTail, ended };
}

const spans = (exports: Export[]): OtlpSpan[] =>
  exports.flatMap((e) => e.json?.resourceSpans.flatMap((r) => r.scopeSpans.flatMap((s) => s.spans)) ?? []);
const attributes = (list: OtlpAttribute[] | undefined): Record<string, unknown> =>
  Object.fromEntries((list ?? []).map(({ key, value }) => [key, value.stringValue ?? value.intValue ?? value.boolValue]));
/** OTLP/JSON ids are hex; accept base64 too, in case an exporter sends the protobuf JSON mapping. */
const hex = (id: string | undefined): string | undefined =>
  id === undefined || /^[0-9a-f]+$/.test(id) ? id : Buffer.from(id, 'base64').toString('hex');

test.each(BINS)(
  '%s: a tool call is exported over OTLP/JSON as a server span continuing the caller trace, with the OTEL_* resource',
  async (_, bin) => {
    const otlp = await collector();
    const { client } = await grammar(
      {
        OTEL_EXPORTER_OTLP_ENDPOINT: otlp.url,
        OTEL_EXPORTER_OTLP_PROTOCOL: 'http/json',
        OTEL_SERVICE_NAME: 'grammar-under-test',
        OTEL_RESOURCE_ATTRIBUTES: 'deployment.environment.name=test,team=mcp',
      },
      bin,
    );
    const traceparent = `00-${TRACE_ID}-${PARENT_ID}-01`;
    const result = await client.callTool('conjugate', { verb: 'eat', tense: 'past simple', person: '1sg' }, { meta: { traceparent } });
    expect(result.isError).toBeFalsy();
    // Closing stdin ends the process, which sends the spans still buffered before it exits.
    await client.close();
    const call = (): OtlpSpan | undefined => spans(otlp.exports).find((span) => span.name === 'tools/call conjugate');
    await otlp.until(() => call() !== undefined);
    const span = call()!;
    expect(span.kind).toBe(2); // SPAN_KIND_SERVER
    expect(hex(span.traceId)).toBe(TRACE_ID);
    expect(hex(span.parentSpanId)).toBe(PARENT_ID);
    expect(attributes(span.attributes)).toMatchObject({
      'mcp.method.name': 'tools/call',
      'gen_ai.tool.name': 'conjugate',
      'gen_ai.operation.name': 'execute_tool',
      'network.transport': 'pipe',
    });
    expect(attributes(span.attributes)['jsonrpc.request.id']).toBeDefined();
    const resource = attributes(otlp.exports.find((e) => e.json !== undefined)!.json!.resourceSpans[0]!.resource.attributes);
    expect(resource).toMatchObject({ 'service.name': 'grammar-under-test', 'deployment.environment.name': 'test', team: 'mcp' });
    expect(resource['service.version']).toBeDefined();
    // A request the caller did not trace starts a trace of its own.
    const list = spans(otlp.exports).find((s) => s.name === 'tools/list');
    if (list !== undefined) expect(hex(list.traceId)).not.toBe(TRACE_ID);
  },
  60_000,
);

test.each(BINS)(
  '%s: the default protocol is OTLP/protobuf, to OTEL_EXPORTER_OTLP_TRACES_ENDPOINT when set',
  async (_, bin) => {
    const otlp = await collector();
    const { client } = await grammar({ OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: `${otlp.url}/v1/traces` }, bin);
    const meta = { traceparent: `00-${TRACE_ID}-${PARENT_ID}-01` };
    expect((await client.callTool('conjugate', { verb: 'eat', tense: 'past simple', person: '3sg' }, { meta })).isError).toBeFalsy();
    await client.close();
    const name = Buffer.from('tools/call conjugate');
    await otlp.until(() => otlp.exports.some((e) => e.body.includes(name)));
    const sent = otlp.exports.find((e) => e.body.includes(name))!;
    expect(sent.contentType).toBe('application/x-protobuf');
    expect(sent.json).toBeUndefined();
    // The protobuf encoding carries ids as raw bytes: the caller's trace id and its span id (the parent) are there.
    expect(sent.body.includes(Buffer.from(TRACE_ID, 'hex'))).toBe(true);
    expect(sent.body.includes(Buffer.from(PARENT_ID, 'hex'))).toBe(true);
  },
  60_000,
);

test('a collector that is down never breaks serving: every call is answered and the outage is said once on stderr', async () => {
  // A port that was free a moment ago and is closed now: every export is refused.
  const otlp = await collector();
  const url = otlp.url;
  await cleanups.pop()!();
  const { client, stderr, ended } = await grammar({ OTEL_EXPORTER_OTLP_ENDPOINT: url, OTEL_EXPORTER_OTLP_PROTOCOL: 'http/json' });
  for (const person of ['1sg', '2sg', '3sg'])
    expect((await client.callTool('conjugate', { verb: 'eat', tense: 'past simple', person })).isError).toBeFalsy();
  await client.close();
  await ended;
  // Said once: when an export failed, or (the exporter still retrying) when the exit dropped what was left.
  expect(stderr()).toMatch(/--otel: spans (could not be sent to|still being sent to) /);
  expect((stderr().match(/spans could not be sent/g) ?? []).length).toBeLessThanOrEqual(1);
}, 60_000);

test('an OTLP protocol the exporter cannot speak, or a bad sampler, is refused at start with the variable named', () => {
  const grpc = spawnSync(process.execPath, [GRAMMAR, '--otel'], {
    env: { PATH: process.env.PATH ?? '', OTEL_EXPORTER_OTLP_PROTOCOL: 'grpc' },
    input: '',
    encoding: 'utf8',
    timeout: 60_000,
  });
  expect(grpc.status).toBe(1);
  expect(grpc.stdout).toBe('');
  expect(grpc.stderr).toContain('OTEL_EXPORTER_OTLP_PROTOCOL="grpc" is not supported');
  const sampler = spawnSync(process.execPath, [GRAMMAR, '--otel'], {
    env: { PATH: process.env.PATH ?? '', OTEL_TRACES_SAMPLER: 'traceidratio', OTEL_TRACES_SAMPLER_ARG: '2' },
    input: '',
    encoding: 'utf8',
    timeout: 60_000,
  });
  expect(sampler.status).toBe(1);
  expect(sampler.stderr).toContain('OTEL_TRACES_SAMPLER_ARG');
}, 120_000);

test('OTEL_SDK_DISABLED=true: the server serves and says that nothing is exported', async () => {
  const { client, stderr, ended } = await grammar({ OTEL_SDK_DISABLED: 'true' });
  expect((await client.callTool('conjugate', { verb: 'eat', tense: 'past simple', person: '1sg' })).isError).toBeFalsy();
  await client.close();
  await ended;
  expect(stderr()).toContain('OpenTelemetry is disabled by the environment');
});

test.each(BINS)(
  '%s: without --otel no OpenTelemetry module is loaded; with it the SDK is (the probe sees what it counts)',
  (_, bin) => {
    // Preloaded into the server process: counts, at exit, the modules in the module cache that are the SDK (from
    // node_modules, or the bundle's file of its own).
    const probe =
      "import { createRequire } from 'node:module';" +
      "const cache = createRequire(process.cwd() + '/').cache;" +
      "process.on('exit', () => process.stderr.write('otel-modules=' + Object.keys(cache).filter((k) => /@opentelemetry|otel-sdk\\.js$/.test(k)).length + '\\n'));";
    const run = (args: string[]): number => {
      const child = spawnSync(process.execPath, ['--import', `data:text/javascript,${encodeURIComponent(probe)}`, bin, ...args], {
        env: { PATH: process.env.PATH ?? '', OTEL_EXPORTER_OTLP_ENDPOINT: 'http://127.0.0.1:9' },
        input: '',
        encoding: 'utf8',
        timeout: 60_000,
      });
      expect(child.status).toBe(0);
      return Number(/otel-modules=(\d+)/.exec(child.stderr)?.[1]);
    };
    expect(run([])).toBe(0);
    expect(run(['--metrics', '127.0.0.1:0'])).toBe(0);
    expect(run(['--otel'])).toBeGreaterThan(0);
  },
  180_000,
);

test('the bundled program leaves the OpenTelemetry SDK out: it is in the file of its own that --otel reads', () => {
  const program = readFileSync(join(BUNDLE_DIR, 'program.js'), 'latin1');
  const separate = readFileSync(join(BUNDLE_DIR, 'otel-sdk.js'), 'latin1');
  // Names only the SDK's own code has (the batch processor's base class, the OTLP exporter's).
  for (const name of ['BatchSpanProcessorBase', 'OTLPExporterBase']) {
    expect(program).not.toContain(name);
    expect(separate).toContain(name);
  }
  expect(program).toContain('otel-sdk.js');
});

test('a tool call through wiremcp proxy into the server is one trace: proxy server span → proxy client span → server span', async () => {
  const otlp = await collector();
  const otel = { OTEL_EXPORTER_OTLP_ENDPOINT: otlp.url, OTEL_EXPORTER_OTLP_PROTOCOL: 'http/json' };
  const transport = new StdioClientTransport({
    command: process.execPath,
    // The proxy's target gets the OTEL_* variables through -e (a stdio target gets a safe environment by default).
    args: [
      ...[CLI, 'proxy', '--otel'],
      ...Object.entries({ ...otel, OTEL_SERVICE_NAME: 'wiremcp-grammar' }).flatMap(([name, value]) => ['-e', `${name}=${value}`]),
      ...[process.execPath, GRAMMAR, '--otel'],
    ],
    env: { PATH: process.env.PATH ?? '', ...otel, OTEL_SERVICE_NAME: 'wiremcp-proxy' },
    stderr: 'pipe',
    shutdownTimeoutMs: 5000,
  });
  cleanups.push(() => transport.close());
  const client = new McpClient({ name: 'otel-test', version: '1.0.0' }, { onError: () => {} });
  cleanups.push(() => client.close());
  await client.connect(transport);
  const traceparent = `00-${TRACE_ID}-${PARENT_ID}-01`;
  expect(
    (await client.callTool('conjugate', { verb: 'eat', tense: 'past simple', person: '3sg' }, { meta: { traceparent } })).isError,
  ).toBeFalsy();
  await client.close();
  // Both processes export: the proxy its two spans, the server its one (each flushes at exit).
  const inTrace = (): Array<OtlpSpan & { service: string }> =>
    otlp.exports.flatMap((e) =>
      (e.json?.resourceSpans ?? []).flatMap((r) =>
        r.scopeSpans.flatMap((s) =>
          s.spans
            .filter((span) => hex(span.traceId) === TRACE_ID)
            .map((span) => ({ ...span, service: String(attributes(r.resource.attributes)['service.name']) })),
        ),
      ),
    );
  await otlp.until(() => inTrace().filter((span) => span.name === 'tools/call conjugate').length >= 3);
  const calls = inTrace().filter((span) => span.name === 'tools/call conjugate');
  const proxyServer = calls.find((span) => span.service === 'wiremcp-proxy' && span.kind === 2)!;
  const proxyClient = calls.find((span) => span.service === 'wiremcp-proxy' && span.kind === 3)!;
  const server = calls.find((span) => span.service === 'wiremcp-grammar' && span.kind === 2)!;
  expect(hex(proxyServer.parentSpanId)).toBe(PARENT_ID);
  expect(hex(proxyClient.parentSpanId)).toBe(hex(proxyServer.spanId));
  expect(hex(server.parentSpanId)).toBe(hex(proxyClient.spanId));
  // Kept for the README's picture: `node scripts/trace-svg.mjs tests/interop/artifacts/proxy-trace.json docs/images/trace-tool-call.svg`.
  mkdirSync(ARTIFACTS, { recursive: true });
  writeFileSync(join(ARTIFACTS, 'proxy-trace.json'), JSON.stringify(inTrace(), null, 2));
}, 90_000);
