/**
 * The client over real child processes (`StdioClientTransport`), against fixture servers that import the built
 * packages (the test command builds first). Every process started is stopped in afterEach.
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { StdioClientTransport, type StdioClientTransportOptions } from '@wiremcp/transport-stdio';
import { afterAll, afterEach, describe, expect, test } from 'vitest';
import { McpClient } from './client.js';
import { SEED_TRACE } from './client.test-util.js';
import type { InputHandlers } from './options.js';

const fixture = (name: string) => fileURLToPath(new URL(`../test/fixtures/${name}`, import.meta.url));
const started: StdioClientTransport[] = [];
const scratch = mkdtempSync(join(tmpdir(), 'wiremcp-client-stdio-'));

function spawnServer(name: string, args: string[] = [], options: Partial<StdioClientTransportOptions> = {}): StdioClientTransport {
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [fixture(name), ...args],
    stderr: 'pipe',
    shutdownTimeoutMs: 500,
    ...options,
  });
  started.push(transport);
  return transport;
}

afterEach(async () => {
  await Promise.all(started.splice(0).map((transport) => transport.close()));
});

afterAll(() => rmSync(scratch, { recursive: true, force: true }));

const handlers: InputHandlers = {
  elicitation: () => ({ action: 'accept', content: { name: 'Ada' } }),
  sampling: () => ({ role: 'assistant', content: { type: 'text', text: 'calm' }, model: 'm' }),
};

describe.each(['ndjson', 'content-length'] as const)('over stdio (%s framing)', (framing) => {
  test.each(['auto', 'legacy', 'modern'] as const)("era '%s': handshake, tools, input handlers, progress, close", async (era) => {
    const transport = spawnServer('demo-server.mjs', [framing], { framing });
    const client = new McpClient({ name: 'stdio-test', version: '1.0.0' }, { era, handlers });
    await client.connect(transport);
    expect(client.era).toBe(era === 'legacy' ? 'legacy' : 'modern');
    expect(client.serverInfo).toMatchObject({ name: 'stdio-demo' });
    expect((await client.listAllTools()).map((t) => t.name)).toEqual(['echo', 'add', 'greet', 'progress', 'crash']);
    expect(await client.callTool('echo', { text: 'über ✓' })).toMatchObject({ content: [{ type: 'text', text: 'über ✓' }] });
    expect((await client.callTool('add', { a: 20, b: 22 })).structuredContent).toEqual({ sum: 42 });
    expect((await client.callTool('greet')).content).toEqual([{ type: 'text', text: 'Hello Ada, calm' }]);
    const progress: number[] = [];
    await client.callTool('progress', {}, { onprogress: (p) => progress.push(p.progress) });
    expect(progress).toEqual([1, 2, 3]);
    expect((await client.readResource('demo://a')).contents).toEqual([{ uri: 'demo://a', text: 'A' }]);
    await client.close();
    // close() runs the transport's shutdown sequence: the child has exited (stdin EOF, exit code 0).
    expect(transport.exitCode).toBe(0);
  });
});

describe('server failures over stdio', () => {
  test('a server that crashes mid-call fails the call with SERVER_EXITED promptly, and later calls too', async () => {
    const transport = spawnServer('demo-server.mjs');
    const client = new McpClient({ name: 'stdio-test', version: '1.0.0' }, { era: 'legacy' });
    await client.connect(transport);
    const closes: unknown[] = [];
    client.onClose((error) => closes.push(error));
    const started = Date.now();
    const error = await client.callTool('crash').catch((e: unknown) => e);
    expect(Date.now() - started).toBeLessThan(2000);
    expect(error).toMatchObject({ code: 'SERVER_EXITED' });
    expect((error as Error).message).toMatch(/code 3/);
    expect((error as Error).message).toMatch(/crashing on purpose/);
    await expect(client.listTools()).rejects.toMatchObject({ code: 'SERVER_EXITED' });
    expect(closes).toEqual([expect.objectContaining({ code: 'SERVER_EXITED' })]);
  });

  test('a server that cannot be started makes connect reject with SERVER_EXITED', async () => {
    const transport = new StdioClientTransport({ command: join(scratch, 'no-such-server') });
    started.push(transport);
    const client = new McpClient({ name: 'stdio-test', version: '1.0.0' });
    await expect(client.connect(transport)).rejects.toMatchObject({ code: 'SERVER_EXITED' });
    expect(client.connected).toBe(false);
  });

  test.each(['auto', 'legacy', 'modern'] as const)(
    "era '%s': a server that writes a non-JSON line on stdout fails the handshake at once, quoting the line",
    async (era) => {
      // It prints a banner where protocol bytes belong, then reads its stdin and never answers.
      const script = "process.stdout.write('Debugger listening on ws://127.0.0.1:9229\\n'); process.stdin.resume();";
      const transport = new StdioClientTransport({
        command: process.execPath,
        args: ['-e', script],
        stderr: 'pipe',
        shutdownTimeoutMs: 500,
      });
      started.push(transport);
      // A request timeout longer than the test's own: without the fast failure, the test fails by timing out.
      const client = new McpClient({ name: 'stdio-test', version: '1.0.0' }, { era, requestTimeoutMs: 60_000 });
      const error = await client.connect(transport).catch((e: unknown) => e);
      expect(error).toMatchObject({ code: 'PROTOCOL_VIOLATION' });
      expect((error as Error).message).toMatch(/not JSON-RPC.*handshake.*"Debugger listening on ws:\/\/127\.0\.0\.1:9229"/);
      expect(client.connected).toBe(false);
    },
  );

  test('the line quoted in a handshake failure is bounded', async () => {
    const script = "process.stdout.write('x'.repeat(100000) + '\\n'); process.stdin.resume();";
    const transport = new StdioClientTransport({ command: process.execPath, args: ['-e', script], stderr: 'pipe', shutdownTimeoutMs: 500 });
    started.push(transport);
    const client = new McpClient({ name: 'stdio-test', version: '1.0.0' }, { era: 'legacy', requestTimeoutMs: 60_000 });
    const error = (await client.connect(transport).catch((e: unknown) => e)) as Error;
    expect(error).toMatchObject({ code: 'PROTOCOL_VIOLATION' });
    expect(error.message).toMatch(/"x{20,}…"/);
    expect(error.message.length).toBeLessThan(600);
  });

  test('the seed trace, byte for byte, as read by a raw server on its stdin', async () => {
    const record = join(scratch, 'seed.jsonl');
    const transport = spawnServer('seed-recorder.mjs', [record]);
    const client = new McpClient({ name: 'test', version: '0.1' }, { era: 'legacy', protocolVersion: '2024-11-05' });
    await client.connect(transport);
    await client.listTools();
    await client.callTool('conjugate', { verb: 'eat', tense: 'past simple', person: '3rd singular' });
    await client.close();
    expect(readFileSync(record, 'utf8')).toBe(`${SEED_TRACE.join('\n')}\n`);
  });
});
