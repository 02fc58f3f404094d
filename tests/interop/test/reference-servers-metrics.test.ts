/**
 * Every reference server records its request durations for `--metrics`, and with `--health` serves `/healthz` and
 * `/readyz` on the metrics listener too — over stdio the only place they can be. Each server runs over stdio with
 * `--metrics 127.0.0.1:0 --health`; a wiremcp client sends a few requests, then one scrape must hold their duration
 * histogram. Every process started here is stopped after each test, also on failure.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { request } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { McpClient } from '@wiremcp/client';
import { StdioClientTransport } from '@wiremcp/transport-stdio';
import { afterEach, describe, expect, test } from 'vitest';

const bin = (server: string): string => fileURLToPath(new URL(`../../../servers/${server}/dist/bin.js`, import.meta.url));

const cleanups: Array<() => Promise<void> | void> = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

/** Starts `server` over stdio with the flags, connects a client, and resolves with the metrics URL read from stderr. */
async function start(server: string, args: string[]): Promise<{ client: McpClient; metricsUrl: URL }> {
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [bin(server), ...args, '--metrics', '127.0.0.1:0', '--health'],
    stderr: 'pipe',
    shutdownTimeoutMs: 2000,
  });
  cleanups.push(() => transport.close());
  const client = new McpClient({ name: 'metrics-test', version: '1.0.0' }, { onError: () => {} });
  cleanups.push(() => client.close());
  await client.connect(transport);
  // The line is written before serving starts: the transport keeps the tail of stderr.
  const match = /Prometheus metrics at (http:\/\/\S+)/.exec(transport.stderrTail);
  if (match === null) throw new Error(`no metrics line on stderr:\n${transport.stderrTail}`);
  return { client, metricsUrl: new URL(match[1]!) };
}

/** A GET with chosen headers (fetch would not let the Host header be set). */
function get(url: URL, headers: Record<string, string> = {}): Promise<{ status: number; body: string; type: string | undefined }> {
  return new Promise((resolve, reject) => {
    const req = request(url, { headers }, (res) => {
      let body = '';
      res.on('data', (chunk: Buffer) => (body += chunk.toString()));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body, type: res.headers['content-type'] }));
    });
    req.once('error', reject);
    req.end();
  });
}

/** The count of the server operation duration histogram for `method` (and tool), from one scrape. */
function durationCount(exposition: string, method: string, tool?: string): number | undefined {
  for (const line of exposition.split('\n')) {
    if (!line.startsWith('mcp_server_operation_duration_seconds_count{')) continue;
    if (!line.includes(`mcp_method_name="${method}"`)) continue;
    if (tool !== undefined && !line.includes(`gen_ai_tool_name="${tool}"`)) continue;
    return Number(line.slice(line.lastIndexOf(' ') + 1));
  }
  return undefined;
}

describe.each([
  { server: 'grammar', args: [] as string[], tool: 'conjugate', toolArgs: { verb: 'eat', tense: 'past simple', person: '1sg' } },
  { server: 'resources-demo', args: [] as string[], tool: undefined, toolArgs: {} },
  { server: 'filesystem', args: ['<dir>'], tool: 'list_allowed_directories', toolArgs: {} },
  { server: 'everything', args: [] as string[], tool: 'test_simple_text', toolArgs: {} },
])('wiremcp-$server', ({ server, args, tool, toolArgs }) => {
  test('one scrape holds the duration histogram of its requests; /healthz and /readyz answer there', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'wiremcp-metrics-'));
    cleanups.push(() => rmSync(dir, { recursive: true, force: true }));
    const { client, metricsUrl } = await start(
      server,
      args.map((arg) => (arg === '<dir>' ? dir : arg)),
    );
    await client.listTools();
    await client.listTools();
    if (tool !== undefined) expect((await client.callTool(tool, toolArgs)).isError).toBeFalsy();
    else await client.listResources();

    const scrape = await get(metricsUrl, { host: metricsUrl.host });
    expect(scrape.status).toBe(200);
    expect(scrape.body).toContain('# TYPE mcp_server_operation_duration_seconds histogram');
    // The second list may be answered from the client's cache (grammar and resources-demo send caching hints).
    expect(durationCount(scrape.body, 'tools/list')).toBeGreaterThanOrEqual(1);
    if (tool !== undefined) expect(durationCount(scrape.body, 'tools/call', tool)).toBe(1);
    else expect(durationCount(scrape.body, 'resources/list')).toBe(1);

    const live = await get(new URL('/healthz', metricsUrl), { host: metricsUrl.host });
    expect(live).toMatchObject({ status: 200, type: 'application/json' });
    expect(JSON.parse(live.body)).toEqual({ status: 'ok' });
    const ready = await get(new URL('/readyz', metricsUrl), { host: metricsUrl.host });
    expect(ready.status).toBe(200);
    expect(JSON.parse(ready.body)).toEqual({ status: 'ok' });
    // The listener's protections hold for the health paths too.
    expect((await get(new URL('/healthz', metricsUrl), { host: 'evil.example' })).status).toBe(403);
    expect((await get(new URL('/readyz', metricsUrl), { host: metricsUrl.host, origin: 'https://evil.example' })).status).toBe(403);
    expect((await get(new URL('/elsewhere', metricsUrl), { host: metricsUrl.host })).status).toBe(404);
  }, 60_000);
});
