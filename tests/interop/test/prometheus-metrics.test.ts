/**
 * A real Prometheus (Debian's `prometheus` package, installed with apt-get when missing — we run as root — and said
 * so on stderr) scrapes the everything server's `--metrics` listener while a client calls tools over Streamable
 * HTTP; the duration histogram is then read back through Prometheus's HTTP API. Also: the metrics listener refuses a
 * foreign Host and any Origin, and an MCP request refused for its Origin is counted by reason.
 * Everything started here listens on 127.0.0.1 on free ports and is stopped after, also on failure.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { request } from 'node:http';
import { McpClient } from '@wiremcp/client';
import { httpTransportFactory } from '@wiremcp/transport-http';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { freePort } from '../../../apps/conformance/src/session/free-port.js';
import { ensureDebianPackages } from '../../../scripts/debian-packages.js';

const PROMETHEUS = '/usr/bin/prometheus';
const EVERYTHING = fileURLToPath(new URL('../../../servers/everything/dist/bin.js', import.meta.url));

/** Installs Debian's prometheus when missing; returns why it cannot be had, or undefined when it is there. */
function ensurePrometheus(): string | undefined {
  try {
    ensureDebianPackages(['prometheus'], (line) => process.stderr.write(`[prometheus] ${line}\n`));
    return existsSync(PROMETHEUS) ? undefined : `apt-get installed prometheus, but ${PROMETHEUS} is missing`;
  } catch (error) {
    return (error as Error).message;
  }
}

const children: ChildProcess[] = [];
let dataDir: string | undefined;

/** Spawns `command` and resolves once `pattern` shows in its stderr (with the match), rejecting if it exits first. */
function spawnUntil(
  command: string,
  args: string[],
  pattern: RegExp,
): Promise<{ child: ChildProcess; match: RegExpExecArray; output: () => string }> {
  const child = spawn(command, args, { stdio: ['ignore', 'pipe', 'pipe'] });
  children.push(child);
  let output = '';
  return new Promise((resolve, reject) => {
    const onData = (chunk: Buffer): void => {
      output = (output + chunk.toString()).slice(-16_384);
      const match = pattern.exec(output);
      if (match) resolve({ child, match, output: () => output });
    };
    child.stderr!.on('data', onData);
    child.stdout!.on('data', onData);
    child.once('exit', (code) => reject(new Error(`${command} exited with ${code}:\n${output}`)));
  });
}

/** A GET with chosen headers (fetch would not let the Host header be set). */
function get(url: URL, headers: Record<string, string>): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const req = request(url, { headers }, (res) => {
      let body = '';
      res.on('data', (chunk: Buffer) => (body += chunk.toString()));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body }));
    });
    req.once('error', reject);
    req.end();
  });
}

/** Queries Prometheus until `accept` takes the result (each scrape is 1 s apart; bounded to 60 tries). */
async function queryUntil(api: string, query: string, accept: (value: number) => boolean): Promise<number> {
  let last = Number.NaN;
  for (let attempt = 0; attempt < 60; attempt++) {
    const response = await fetch(`${api}/api/v1/query?query=${encodeURIComponent(query)}`);
    const body = (await response.json()) as { status: string; data: { result: Array<{ value: [number, string] }> } };
    const value = body.data.result[0]?.value[1];
    last = value === undefined ? Number.NaN : Number(value);
    if (accept(last)) return last;
    // Wait for the next scrape: Prometheus's own readiness is the event, a second is its scrape interval.
    await new Promise((resolve) => setTimeout(resolve, 1000));
  }
  return last;
}

let serverOrigin: string;
let metricsUrl: URL;
let prometheusApi: string;

beforeAll(async () => {
  const missing = ensurePrometheus();
  if (missing !== undefined) throw new Error(missing);
  if (!existsSync(EVERYTHING)) throw new Error(`build first: ${EVERYTHING} is missing (npm run build)`);
  const server = await spawnUntil(
    process.execPath,
    [EVERYTHING, '--http', '127.0.0.1:0', '--metrics', '127.0.0.1:0'],
    /Prometheus metrics at (http:\/\/\S+)[\s\S]*serving MCP on (http:\/\/127\.0\.0\.1:\d+)\/mcp/,
  );
  metricsUrl = new URL(server.match[1]!);
  serverOrigin = server.match[2]!;
  dataDir = mkdtempSync(join(tmpdir(), 'wiremcp-prometheus-'));
  const config = join(dataDir, 'prometheus.yml');
  writeFileSync(
    config,
    [
      'global:',
      '  scrape_interval: 1s',
      'scrape_configs:',
      '  - job_name: wiremcp-everything',
      `    metrics_path: ${metricsUrl.pathname}`,
      '    static_configs:',
      `      - targets: ['${metricsUrl.host}']`,
      '',
    ].join('\n'),
  );
  const port = await freePort();
  await spawnUntil(
    PROMETHEUS,
    [`--config.file=${config}`, `--storage.tsdb.path=${join(dataDir, 'data')}`, `--web.listen-address=127.0.0.1:${port}`],
    /Server is ready to receive web requests/,
  );
  prometheusApi = `http://127.0.0.1:${port}`;
}, 900_000);

afterAll(async () => {
  await Promise.all(
    children.map(
      (child) =>
        new Promise<void>((resolve) => {
          if (child.exitCode !== null || child.signalCode !== null) return resolve();
          const timer = setTimeout(() => child.kill('SIGKILL'), 5000);
          child.once('exit', () => (clearTimeout(timer), resolve()));
          child.kill('SIGTERM');
        }),
    ),
  );
  if (dataDir !== undefined) rmSync(dataDir, { recursive: true, force: true });
});

test('Prometheus scrapes the server and the tool-call duration histogram is queried back', async () => {
  const client = new McpClient({ name: 'prometheus-test', version: '1.0.0' }, { era: 'modern', onError: () => {} });
  await client.connect(httpTransportFactory(`${serverOrigin}/mcp`));
  const calls = 5;
  for (let i = 0; i < calls; i++) expect((await client.callTool('test_simple_text', {})).isError).toBeFalsy();
  await client.close();
  const selector = 'mcp_server_operation_duration_seconds_count{mcp_method_name="tools/call",gen_ai_tool_name="test_simple_text"}';
  expect(await queryUntil(prometheusApi, selector, (value) => value >= calls)).toBe(calls);
  // Every observation is at most the largest bound: the +Inf bucket equals the count, and a quantile is computable.
  const inf = await queryUntil(
    prometheusApi,
    'sum(mcp_server_operation_duration_seconds_bucket{mcp_method_name="tools/call",le="+Inf"})',
    (value) => value >= calls,
  );
  expect(inf).toBe(calls);
  const p50 = await queryUntil(
    prometheusApi,
    'histogram_quantile(0.5, sum by (le) (mcp_server_operation_duration_seconds_bucket{mcp_method_name="tools/call"}))',
    (value) => Number.isFinite(value),
  );
  expect(p50).toBeGreaterThan(0);
  expect(p50).toBeLessThanOrEqual(300);
}, 120_000);

test('an MCP request refused for its Origin is counted by reason', async () => {
  const refused = await fetch(`${serverOrigin}/mcp`, {
    method: 'POST',
    headers: { origin: 'https://evil.example', 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
    body: '{}',
  });
  expect(refused.status).toBe(403);
  const counted = await queryUntil(prometheusApi, 'wiremcp_http_rejected_requests_total{reason="origin"}', (value) => value >= 1);
  expect(counted).toBeGreaterThanOrEqual(1);
}, 120_000);

test('the metrics listener refuses a foreign Host and any Origin, and serves its own Host', async () => {
  expect((await get(metricsUrl, { host: 'evil.example' })).status).toBe(403);
  expect((await get(metricsUrl, { host: metricsUrl.host, origin: 'https://evil.example' })).status).toBe(403);
  const ok = await get(metricsUrl, { host: metricsUrl.host });
  expect(ok.status).toBe(200);
  expect(ok.body).toContain('# TYPE mcp_server_operation_duration_seconds histogram');
  expect(ok.body).not.toContain('evil.example');
});
