import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { McpClient } from '@wiremcp/client';
import { StdioClientTransport } from '@wiremcp/transport-stdio';
import { afterEach, describe, expect, test } from 'vitest';

// The built bin (the test command builds before running the tests).
const BIN = fileURLToPath(new URL('../bin/wiremcp-grammar.js', import.meta.url));
const TABLE = fileURLToPath(new URL('../data/a13.yaml', import.meta.url));

const children: ChildProcess[] = [];
const clients: McpClient[] = [];
afterEach(async () => {
  await Promise.all(clients.splice(0).map((client) => client.close().catch(() => {})));
  for (const child of children.splice(0)) if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
});

/** Runs the bin with `input` on stdin (then closes it); resolves with stdout bytes, stderr text and the exit code. */
function runRaw(
  args: string[],
  input: string | Buffer,
  timeoutMs = 10_000,
): Promise<{ stdout: Buffer; stderr: string; code: number | null }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [BIN, ...args], { stdio: ['pipe', 'pipe', 'pipe'] });
    children.push(child);
    const out: Buffer[] = [];
    let err = '';
    child.stdout.on('data', (chunk: Buffer) => out.push(chunk));
    child.stderr.on('data', (chunk: Buffer) => (err += chunk.toString('utf8')));
    const timer = setTimeout(() => reject(new Error(`bin did not exit within ${timeoutMs} ms; stderr: ${err}`)), timeoutMs);
    child.on('error', reject);
    child.on('close', (code) => {
      clearTimeout(timer);
      resolve({ stdout: Buffer.concat(out), stderr: err, code });
    });
    child.stdin.end(input);
  });
}

const SEED_STDIN = [
  '{"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":"2024-11-05","capabilities":{},"clientInfo":{"name":"test","version":"0.1"}}}',
  '{"jsonrpc":"2.0","method":"notifications/initialized"}',
  '{"jsonrpc":"2.0","id":1,"method":"tools/list"}',
  '{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"conjugate","arguments":{"verb":"eat","tense":"past simple","person":"3rd singular"}}}',
  '{"jsonrpc":"2.0","id":3,"method":"tools/call","params":{"name":"lookup_spanish","arguments":{"english_form":"ate"}}}',
];

function contentLength(lines: string[]): Buffer {
  return Buffer.concat(
    lines.map((line) => {
      const body = Buffer.from(line, 'utf8');
      return Buffer.concat([Buffer.from(`Content-Length: ${body.length}\r\n\r\n`, 'ascii'), body]);
    }),
  );
}

function parseContentLength(bytes: Buffer): unknown[] {
  const messages: unknown[] = [];
  let at = 0;
  while (at < bytes.length) {
    const end = bytes.indexOf('\r\n\r\n', at);
    const length = Number(/Content-Length: (\d+)/i.exec(bytes.subarray(at, end).toString('ascii'))![1]);
    messages.push(JSON.parse(bytes.subarray(end + 4, end + 4 + length).toString('utf8')));
    at = end + 4 + length;
  }
  return messages;
}

/** A message the server wrote, as the seed checks read it. */
interface SeedAnswer {
  id: number;
  jsonrpc: string;
  result: { protocolVersion?: string; tools: Array<{ name: string }>; content?: unknown };
}

function checkSeedAnswers(messages: SeedAnswer[]): void {
  expect(messages.map((m) => m.id)).toEqual([0, 1, 2, 3]);
  expect(messages[0]!.result.protocolVersion).toBe('2024-11-05');
  expect(messages[1]!.result.tools.map((t) => t.name)).toEqual([
    'conjugate',
    'lookup_irregular_verb',
    'lookup_spanish',
    'check_subject_verb_agreement',
  ]);
  expect(messages[2]!.result.content).toEqual([{ type: 'text', text: 'ate' }]);
  expect(messages[3]!.result.content).toEqual([{ type: 'text', text: 'comió' }]);
}

describe('the seed session over stdio, raw bytes', () => {
  test('NDJSON: every stdout line is a protocol message, the answers are the seed answers, stdin closed → exit 0', async () => {
    const { stdout, stderr, code } = await runRaw([], `${SEED_STDIN.join('\n')}\n`);
    expect(code).toBe(0);
    const text = stdout.toString('utf8');
    expect(text.endsWith('\n')).toBe(true);
    const messages = text
      .trimEnd()
      .split('\n')
      .map((line) => JSON.parse(line) as SeedAnswer);
    messages.forEach((m) => expect(m.jsonrpc).toBe('2.0'));
    checkSeedAnswers(messages);
    expect(stderr).toMatch(/serving MCP on stdio/);
  });

  test('Content-Length framing, detected automatically and forced', async () => {
    for (const args of [[], ['--framing', 'content-length']]) {
      const { stdout, code } = await runRaw(args, contentLength(SEED_STDIN));
      expect(code).toBe(0);
      expect(stdout.toString('ascii').startsWith('Content-Length: ')).toBe(true);
      checkSeedAnswers(parseContentLength(stdout) as SeedAnswer[]);
    }
  });

  test('malformed input gets -32700 and the server keeps serving', async () => {
    const { stdout, code } = await runRaw([], `{"jsonrpc":"2.0","id":1,"method":\n${SEED_STDIN[0]}\n`);
    expect(code).toBe(0);
    const [parseError, init] = stdout
      .toString('utf8')
      .trimEnd()
      .split('\n')
      .map((line) => JSON.parse(line));
    expect(parseError).toMatchObject({ id: null, error: { code: -32700 } });
    expect(init).toMatchObject({ id: 0, result: { protocolVersion: '2024-11-05' } });
  });
});

describe('the seed session with the wiremcp client', () => {
  test.each([
    ['legacy', 'ndjson'],
    ['legacy', 'content-length'],
    ['modern', 'ndjson'],
    ['modern', 'content-length'],
  ] as const)('%s era over %s', async (era, framing) => {
    const transport = new StdioClientTransport({ command: process.execPath, args: [BIN, '--framing', framing], framing, stderr: 'pipe' });
    // 'auto' detection finds the modern era on this dual-era server; 'legacy' forces initialize.
    const client = new McpClient({ name: 'test', version: '0.1' }, { era: era === 'modern' ? 'auto' : 'legacy' });
    clients.push(client);
    await client.connect(transport);
    expect(client.era).toBe(era);
    const tools = await client.listTools();
    expect(tools.tools).toHaveLength(4);
    const conjugated = await client.callTool('conjugate', { verb: 'eat', tense: 'past_simple', person: '3sg' });
    expect(conjugated.content).toEqual([{ type: 'text', text: 'ate' }]);
    expect(conjugated.structuredContent).toMatchObject({ spanish: 'comió' });
    const spanish = await client.callTool('lookup_spanish', { english_form: 'ate' });
    expect(spanish.content).toEqual([{ type: 'text', text: 'comió' }]);
    const outOfScope = await client.callTool('conjugate', { verb: 'run', tense: 'past simple', person: '3rd singular' });
    expect(outOfScope).toMatchObject({ isError: true, content: [{ type: 'text', text: "verb 'run' is out of scope (§A13)" }] });
    await client.close();
    expect(transport.exitCode).toBe(0);
  });

  test('a client pinned to 2024-11-05 negotiates it over both framings', async () => {
    for (const framing of ['ndjson', 'content-length'] as const) {
      const transport = new StdioClientTransport({ command: process.execPath, args: [BIN], framing, stderr: 'pipe' });
      const client = new McpClient({ name: 'test', version: '0.1' }, { era: 'legacy', protocolVersion: '2024-11-05' });
      clients.push(client);
      await client.connect(transport);
      expect(client.era).toBe('legacy');
      expect(client.protocolVersion).toBe('2024-11-05');
      expect((await client.callTool('lookup_spanish', { english_form: 'ate' })).content).toEqual([{ type: 'text', text: 'comió' }]);
      await client.close();
      expect(transport.exitCode).toBe(0);
    }
  });
});

describe('start-up failures', () => {
  test('a broken table stops the server with the file and the row on stderr and a non-zero exit', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'grammar-table-'));
    try {
      const broken = join(dir, 'a13.yaml');
      const original = readFileSync(TABLE, 'utf8');
      const damaged = original.replace(/english: ate,\s+spanish: comió/, 'english: ate');
      expect(damaged).not.toBe(original);
      writeFileSync(broken, damaged);
      const { stdout, stderr, code } = await runRaw(['--table', broken], '');
      expect(code).toBe(1);
      expect(stdout.length).toBe(0);
      expect(stderr).toContain(broken);
      expect(stderr).toMatch(/row \d+ \(eat\/past_simple\/3sg\)/);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  test('a bad command line exits 2 with the usage on stderr', async () => {
    const { stdout, stderr, code } = await runRaw(['--framing', 'xml'], '');
    expect(code).toBe(2);
    expect(stdout.length).toBe(0);
    expect(stderr).toMatch(/Usage: wiremcp-grammar/);
  });
});
