/**
 * Interop: `@wiremcp/host` over one configuration mixing servers written here and servers no one here wrote — the four
 * wiremcp reference servers, the official `@modelcontextprotocol/server-everything` and `server-filesystem` from npm
 * (legacy-era servers on the official SDK), a server that exits at start and one that hangs. The catalogue, routing,
 * consent and input handlers behave across all of them, roots changes reach the official filesystem server, and after
 * `close()` no process, handle, timer or listener is left.
 */
import { mkdtempSync, readFileSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { isHostError, McpHost, parseConfigText, type ToolCallRequest } from '@wiremcp/host';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';

const require = createRequire(import.meta.url);

function binOf(pkg: string): string {
  const manifestPath = require.resolve(`${pkg}/package.json`);
  const manifest = JSON.parse(readFileSync(manifestPath, 'utf8')) as { bin: Record<string, string> };
  return join(dirname(manifestPath), Object.values(manifest.bin)[0]!);
}

const ours = (name: string): string => fileURLToPath(new URL(`../../../servers/${name}/bin/wiremcp-${name}.js`, import.meta.url));
const node = (...args: string[]) => ({ type: 'stdio', command: process.execPath, args });

function resources(): Record<string, number> {
  const counts: Record<string, number> = {};
  for (const kind of process.getActiveResourcesInfo()) counts[kind] = (counts[kind] ?? 0) + 1;
  for (const event of ['exit', 'SIGINT', 'SIGTERM']) counts[`listeners:${event}`] = process.listenerCount(event);
  return counts;
}

let host: McpHost;
let before: Record<string, number>;
let dir: string;
let other: string;
const consented: ToolCallRequest[] = [];
const asked: string[] = [];

beforeAll(async () => {
  dir = realpathSync(mkdtempSync(join(tmpdir(), 'wiremcp-host-interop-')));
  other = realpathSync(mkdtempSync(join(tmpdir(), 'wiremcp-host-interop-other-')));
  writeFileSync(join(dir, 'notes.txt'), 'first line\n');
  writeFileSync(join(other, 'other.txt'), 'elsewhere\n');
  before = resources();
  const config = await parseConfigText(
    JSON.stringify({
      mcpServers: {
        grammar: node(ours('grammar')),
        everything: node(ours('everything')),
        files: node(ours('filesystem'), dir),
        demo: node(ours('resources-demo')),
        'official-everything': node(binOf('@modelcontextprotocol/server-everything'), 'stdio'),
        'official-files': node(binOf('@modelcontextprotocol/server-filesystem'), dir),
        exits: node('-e', 'process.exit(3)'),
        hangs: { ...node('-e', 'process.stdin.resume(); setInterval(() => {}, 1000)'), connectTimeoutMs: 1500 },
      },
    }),
    { file: join(dir, 'mcp.json') },
  );
  host = new McpHost(config, {
    restart: { initialDelayMs: 20, maxDelayMs: 100, maxAttempts: 2 },
    roots: [{ uri: `file://${dir}`, name: 'work' }],
    consent: (request) => {
      consented.push(request);
      return !(request.server === 'official-files' && request.hints.destructive);
    },
    handlers: {
      sampling: (params, context) => {
        asked.push(`sampling:${context.server}`);
        return { role: 'assistant', content: { type: 'text', text: `model answers ${context.server}` }, model: 'host-test-model' };
      },
      elicitation: (params, context) => {
        asked.push(`elicitation:${context.server}`);
        return { action: 'accept', content: { name: 'Ada Lovelace', check: true } };
      },
    },
  });
  await host.start();
  await host.settled();
  // The two broken servers end `failed` after their retries; the others are ready by now.
  await new Promise<void>((resolve) => {
    const done = (): boolean => host.status().filter((row) => row.state === 'failed').length === 2;
    if (done()) return resolve();
    const off = host.on('state', () => done() && (off(), resolve()));
  });
});

afterAll(async () => {
  await host?.close();
  if (dir) rmSync(dir, { recursive: true, force: true });
  if (other) rmSync(other, { recursive: true, force: true });
});

describe('one host, eight servers', () => {
  test('each server is where it should be: six ready in their own era, two failed with their reason', () => {
    const rows = Object.fromEntries(host.status().map((row) => [row.name, row]));
    for (const name of ['grammar', 'everything', 'files', 'demo']) expect(rows[name]).toMatchObject({ state: 'ready', era: 'modern' });
    for (const name of ['official-everything', 'official-files']) expect(rows[name]).toMatchObject({ state: 'ready', era: 'legacy' });
    expect(rows.exits).toMatchObject({ state: 'failed', failures: 2, lastError: expect.stringMatching(/exited with code 3/) });
    expect(rows.hangs).toMatchObject({ state: 'failed', lastError: expect.stringMatching(/did not connect within 1500 ms/) });
    expect(rows['official-everything']!.serverInfo?.name).toMatch(/everything/i);
  });

  test('one catalogue: every ready server namespaced, nothing of the failed ones, names unique', () => {
    const names = host.catalogue.tools().map((t) => t.name);
    expect(new Set(names).size).toBe(names.length);
    for (const name of ['grammar.conjugate', 'everything.test_simple_text', 'files.read_text_file', 'demo.add_note'])
      expect(names).toContain(name);
    for (const name of ['official-everything.echo', 'official-everything.get-sum', 'official-files.read_text_file'])
      expect(names).toContain(name);
    expect(names.some((name) => name.startsWith('exits.') || name.startsWith('hangs.'))).toBe(false);
    expect(host.catalogue.prompts().some((p) => p.server === 'official-everything')).toBe(true);
    expect(host.catalogue.resources().some((r) => r.server === 'official-everything')).toBe(true);
  });

  test('calls route to the right server, written here or not', async () => {
    expect((await host.callTool('official-everything.echo', { message: 'via host' })).content).toEqual([
      { type: 'text', text: 'Echo: via host' },
    ]);
    expect((await host.callTool('official-files.read_text_file', { path: join(dir, 'notes.txt') })).structuredContent).toEqual({
      content: 'first line\n',
    });
    expect((await host.callTool('grammar.lookup_spanish', { english_form: 'ate' })).content).toEqual([{ type: 'text', text: 'comió' }]);
    const resource = host.catalogue.resources().find((r) => r.server === 'official-everything')!;
    expect((await host.readResource(resource.resource.uri)).contents[0]!.uri).toBe(resource.resource.uri);
  });

  test("the consent hook sees each server's annotations and can refuse", async () => {
    const error = await host.callTool('official-files.write_file', { path: join(dir, 'x.txt'), content: 'no' }).catch((e: unknown) => e);
    expect(isHostError(error, 'CONSENT_DENIED')).toBe(true);
    const request = consented.at(-1)!;
    expect(request).toMatchObject({ server: 'official-files', tool: 'write_file', hints: { readOnly: false, destructive: true } });
    expect(() => readFileSync(join(dir, 'x.txt'))).toThrow();
    const read = consented.find((r) => r.tool === 'read_text_file')!;
    expect(read.hints.readOnly).toBe(true);
  });

  test("the official server's sampling and elicitation requests reach the host's handlers, tagged with it", async () => {
    const sampled = await host.callTool('official-everything.trigger-sampling-request', { prompt: 'Say hi', maxTokens: 20 });
    expect(JSON.stringify(sampled.content)).toContain('model answers official-everything');
    const elicited = await host.callTool('official-everything.trigger-elicitation-request', {});
    expect(JSON.stringify(elicited.content)).toContain('Ada Lovelace');
    expect(asked).toEqual(expect.arrayContaining(['sampling:official-everything', 'elicitation:official-everything']));
  });

  test('a roots change fans out: the official filesystem server adopts the new root', async () => {
    const allowed = async (): Promise<string> =>
      ((await host.callTool('official-files.list_allowed_directories', {})).structuredContent as { content: string }).content;
    expect(await allowed()).toContain(dir);
    await host.setRoots([{ uri: `file://${other}`, name: 'other' }]);
    // The server re-asks for roots when told they changed; wait for it to take the new ones.
    for (let i = 0; i < 200 && !(await allowed()).includes(other); i++) await new Promise((resolve) => setImmediate(resolve));
    expect(await allowed()).toContain(other);
    const read = await host.callTool('official-files.read_text_file', { path: join(other, 'other.txt') });
    expect(read.structuredContent).toEqual({ content: 'elsewhere\n' });
  });

  test('model-facing tools of every API include the official servers and route back', async () => {
    for (const api of ['anthropic', 'openai-chat', 'openai-responses', 'gemini'] as const) {
      const tools = host.modelTools(api);
      expect(tools.names.apiName('official-everything.get-sum')).toBe('official-everything_get-sum');
    }
    const openai = host.modelTools('openai-chat');
    const answer = await openai.call({
      id: 'c1',
      type: 'function',
      function: { name: 'official-everything_get-sum', arguments: '{"a":2,"b":3}' },
    });
    expect(answer).toEqual({ role: 'tool', tool_call_id: 'c1', content: 'The sum of 2 and 3 is 5.' });
  });
});

test('after close(): no process, handle, timer or listener left', async () => {
  const pids = host.status().flatMap((row) => (row.pid === undefined ? [] : [row.pid]));
  expect(pids.length).toBe(6);
  await host.close();
  for (let turn = 0; turn < 2; turn++) await new Promise((resolve) => setImmediate(resolve));
  const after = resources();
  expect(Object.entries(after).filter(([kind, count]) => count > (before[kind] ?? 0))).toEqual([]);
  for (const pid of pids) expect(() => process.kill(pid, 0)).toThrow();
});
