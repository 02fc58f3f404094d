import { spawn, type ChildProcess } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { McpClient } from '@wiremcp/client';
import { StdioClientTransport } from '@wiremcp/transport-stdio';
import { afterEach, describe, expect, test } from 'vitest';
import { nextNotification } from './resources-demo.test-util.js';

// The built bin (the test command builds before running the tests).
const BIN = fileURLToPath(new URL('../bin/wiremcp-resources-demo.js', import.meta.url));
const HEART = readFileSync(new URL('../data/images/pixel-art/heart.png', import.meta.url)).toString('base64');

const children: ChildProcess[] = [];
const clients: McpClient[] = [];
afterEach(async () => {
  await Promise.all(clients.splice(0).map((client) => client.close().catch(() => {})));
  for (const child of children.splice(0)) if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
});

/** Runs the bin with `input` on stdin (then closes it); resolves with stdout, stderr and the exit code. */
function runRaw(args: string[], input: string): Promise<{ stdout: string; stderr: string; code: number | null }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [BIN, ...args], { stdio: ['pipe', 'pipe', 'pipe'] });
    children.push(child);
    let out = '';
    let err = '';
    child.stdout.on('data', (chunk: Buffer) => (out += chunk.toString('utf8')));
    child.stderr.on('data', (chunk: Buffer) => (err += chunk.toString('utf8')));
    const timer = setTimeout(() => reject(new Error(`the bin did not exit within 10 s; stderr: ${err}`)), 10_000);
    child.on('error', reject);
    child.on('close', (code) => {
      clearTimeout(timer);
      resolve({ stdout: out, stderr: err, code });
    });
    child.stdin.end(input);
  });
}

const MODERN_META = {
  'io.modelcontextprotocol/protocolVersion': '2026-07-28',
  'io.modelcontextprotocol/clientCapabilities': {},
  'io.modelcontextprotocol/clientInfo': { name: 'raw', version: '0' },
};

describe('the bin over raw stdio', () => {
  test('both eras on one process; protocol bytes only on stdout; stdin closed → exit 0 while the clock runs', async () => {
    const lines = [
      {
        jsonrpc: '2.0',
        id: 1,
        method: 'initialize',
        params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'raw', version: '0' } },
      },
      { jsonrpc: '2.0', method: 'notifications/initialized' },
      { jsonrpc: '2.0', id: 2, method: 'resources/read', params: { uri: 'test://static-binary' } },
      { jsonrpc: '2.0', id: 3, method: 'resources/read', params: { uri: 'demo://nothing' } },
      { jsonrpc: '2.0', id: 4, method: 'resources/read', params: { uri: 'demo://files/docs/caching.md', _meta: MODERN_META } },
      { jsonrpc: '2.0', id: 5, method: 'resources/read', params: { uri: 'demo://nothing', _meta: MODERN_META } },
      { jsonrpc: '2.0', id: 6, method: 'resources/list', params: { cursor: 'bogus' } },
    ];
    const { stdout, stderr, code } = await runRaw([], lines.map((line) => JSON.stringify(line)).join('\n') + '\n');
    expect(code).toBe(0);
    expect(stderr).toMatch(/^wiremcp-resources-demo 0\.1\.0: serving MCP on stdio/);
    const messages = stdout
      .trimEnd()
      .split('\n')
      .map((line) => JSON.parse(line) as { id?: number; result?: Record<string, unknown>; error?: Record<string, unknown> });
    const byId = new Map(messages.map((message) => [message.id, message]));
    expect(byId.get(1)!.result).toMatchObject({
      protocolVersion: '2025-11-25',
      capabilities: { resources: { subscribe: true, listChanged: true } },
    });
    expect(byId.get(2)!.result).toEqual({ contents: [{ uri: 'test://static-binary', mimeType: 'image/png', blob: HEART }] });
    expect(byId.get(3)!.error).toMatchObject({ code: -32002, data: { uri: 'demo://nothing' } });
    expect(byId.get(4)!.result).toMatchObject({ resultType: 'complete', ttlMs: 3_600_000, cacheScope: 'public' });
    expect(byId.get(5)!.error).toMatchObject({ code: -32602, data: { uri: 'demo://nothing' } });
    expect(byId.get(6)!.error).toMatchObject({ code: -32602 });
    expect(messages).toHaveLength(6);
  });

  test('a bad command line exits 2 with one line and a hint; --help prints the usage and exits 0', async () => {
    const bad = await runRaw(['--page-size', 'many'], '');
    expect(bad).toMatchObject({ code: 2, stdout: '' });
    expect(bad.stderr).toBe(
      'wiremcp-resources-demo: --page-size must be an integer from 1 to 1000, got "many"\nRun \'wiremcp-resources-demo --help\' for usage.\n',
    );
    const help = await runRaw(['--help'], '');
    expect(help).toMatchObject({ code: 0, stdout: '' });
    expect(help.stderr).toMatch(/^Usage: wiremcp-resources-demo/);
  });
});

describe('the bin with the wiremcp client', () => {
  test.each([
    ['legacy', 'ndjson'],
    ['legacy', 'content-length'],
    ['modern', 'ndjson'],
    ['modern', 'content-length'],
  ] as const)('%s era over %s: pages, a blob, a clock that ticks by itself, a note that appears', async (era, framing) => {
    const transport = new StdioClientTransport({ command: process.execPath, args: [BIN, '--tick-ms', '50'], framing, stderr: 'pipe' });
    // 'auto' finds the modern era on this dual-era server; 'legacy' forces initialize.
    const client = new McpClient({ name: 'bin-test', version: '1.0.0' }, { era: era === 'modern' ? 'auto' : 'legacy' });
    clients.push(client);
    await client.connect(transport);
    expect(client.era).toBe(era);

    // 132 and the browse-catalogue skill's SKILL.md.
    expect(await client.listAllResources()).toHaveLength(133);
    expect((await client.readResource('demo://files/images/pixel-art/heart.png')).contents[0]).toMatchObject({ blob: HEART });

    const tick = nextNotification(client, 'notifications/resources/updated', (params) => params.uri === 'demo://live/clock');
    await client.subscribeResource('demo://live/clock');
    await tick;
    await client.unsubscribeResource('demo://live/clock');

    const listChanged = nextNotification(client, 'notifications/resources/list_changed');
    client.onResourcesListChanged(() => {});
    // In 2026-07-28 the listener opens a listen stream; a subscription call waits until it is acknowledged.
    await client.subscribeResource('test://watched-resource');
    await client.callTool('add_note', { title: 'from the bin test', text: 'hello' });
    await listChanged;
    expect((await client.readResource('demo://notes/1')).contents[0]).toMatchObject({ text: 'hello' });

    await client.close();
    expect(transport.exitCode).toBe(0);
  });
});
