/**
 * Interop: the wiremcp client drives the official reference servers (`@modelcontextprotocol/server-everything` and
 * `@modelcontextprotocol/server-filesystem`, both built on the official TypeScript SDK v1) over stdio. They are
 * legacy servers: the client's `server/discover` probe is answered `-32601`, and it falls back to `initialize`.
 * Every process started here is stopped in afterAll/afterEach, on success and on failure.
 */
import { mkdtempSync, readFileSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { McpClient, MemoryEraCache, RpcError, type InputHandlers } from '@wiremcp/client';
import { StdioClientTransport } from '@wiremcp/transport-stdio';
import { changes } from './events.js';
import { afterAll, afterEach, beforeAll, describe, expect, test } from 'vitest';

const require = createRequire(import.meta.url);

/** The file a package's `bin` entry points to (read from its package.json, so no npx or PATH is involved). */
function binOf(pkg: string): string {
  const manifestPath = require.resolve(`${pkg}/package.json`);
  const manifest = JSON.parse(readFileSync(manifestPath, 'utf8')) as { bin: Record<string, string> };
  return join(dirname(manifestPath), Object.values(manifest.bin)[0]!);
}

const transports: StdioClientTransport[] = [];

/** Spawns a server and records the method of every message the client writes to it. */
function spawn(bin: string, args: string[]): { transport: StdioClientTransport; sent: string[] } {
  const transport = new StdioClientTransport({ command: process.execPath, args: [bin, ...args], stderr: 'pipe', shutdownTimeoutMs: 500 });
  transports.push(transport);
  const sent: string[] = [];
  const send = transport.send.bind(transport);
  transport.send = (message, options) => {
    const m = message as { method?: string; id?: unknown };
    sent.push(m.method ?? `response#${String(m.id)}`);
    return send(message, options);
  };
  return { transport, sent };
}

async function stopAll(): Promise<void> {
  await Promise.all(transports.splice(0).map((transport) => transport.close()));
}

/** What the handlers and listeners below record; tests wait on it instead of sleeping. */
const recorded = changes();
const until = (condition: () => boolean): Promise<void> => recorded.until(condition);

describe('official server-everything (stdio)', () => {
  const everything = binOf('@modelcontextprotocol/server-everything');
  const asked: string[] = [];
  const handlers: InputHandlers = {
    sampling: (params) => {
      asked.push('sampling');
      recorded.changed();
      return {
        role: 'assistant',
        content: { type: 'text', text: `model says hi to ${params.messages.length} message(s)` },
        model: 'wiremcp-test-model',
      };
    },
    elicitation: (params) => {
      asked.push(`elicitation:${params.mode ?? 'form'}`);
      recorded.changed();
      return { action: 'accept', content: { name: 'Ada Lovelace', check: true } };
    },
    roots: () => {
      asked.push('roots');
      recorded.changed();
      return { roots: [{ uri: 'file:///workspace', name: 'workspace' }] };
    },
  };
  let client: McpClient;
  let sent: string[];
  const logs: Array<{ level: string; data: unknown }> = [];

  beforeAll(async () => {
    const spawned = spawn(everything, ['stdio']);
    sent = spawned.sent;
    client = new McpClient(
      { name: 'wiremcp-interop', version: '1.0.0' },
      { handlers, eraCache: new MemoryEraCache(), serverKey: `node ${everything} stdio` },
    );
    client.onLogMessage((params) => {
      logs.push({ level: params.level, data: params.data });
      recorded.changed();
    });
    await client.connect(spawned.transport);
  });

  afterAll(async () => {
    await client?.close();
    await stopAll();
  });

  test('detection falls back to legacy: discover answered with an error, then initialize 2025-11-25', () => {
    expect(sent.slice(0, 3)).toEqual(['server/discover', 'initialize', 'notifications/initialized']);
    expect(client.era).toBe('legacy');
    expect(client.protocolVersion).toBe('2025-11-25');
    expect(client.serverInfo).toMatchObject({ name: 'mcp-servers/everything', title: 'Everything Reference Server' });
    expect(client.serverCapabilities).toMatchObject({
      tools: { listChanged: true },
      resources: { subscribe: true },
      logging: {},
      completions: {},
    });
    expect(client.instructions).toMatch(/Everything Server/);
  });

  test('the server asks for roots after initialization; the roots handler answers', async () => {
    await until(() => asked.includes('roots'));
    const result = await client.callTool('get-roots-list', {});
    expect((result.content[0] as { text: string }).text).toContain('file:///workspace');
  });

  test('lists tools, resources, templates and prompts', async () => {
    const tools = (await client.listAllTools()).map((t) => t.name);
    expect(tools).toEqual(
      expect.arrayContaining([
        'echo',
        'get-sum',
        'get-structured-content',
        'trigger-long-running-operation',
        'trigger-sampling-request',
        'trigger-elicitation-request',
      ]),
    );
    const resources = await client.listAllResources();
    expect(resources.length).toBeGreaterThan(0);
    expect(resources.every((r) => r.uri.startsWith('demo://'))).toBe(true);
    expect((await client.listAllResourceTemplates()).map((t) => t.uriTemplate)).toContain('demo://resource/dynamic/text/{resourceId}');
    expect((await client.listAllPrompts()).map((p) => p.name)).toEqual(
      expect.arrayContaining(['simple-prompt', 'args-prompt', 'completable-prompt']),
    );
  });

  test('calls echo, get-sum and a structured-output tool (validated against its draft-07 outputSchema)', async () => {
    expect(await client.callTool('echo', { message: 'héllo ✓' })).toEqual({ content: [{ type: 'text', text: 'Echo: héllo ✓' }] });
    expect((await client.callTool('get-sum', { a: 19, b: 23 })).content).toEqual([{ type: 'text', text: 'The sum of 19 and 23 is 42.' }]);
    const weather = await client.callTool('get-structured-content', { location: 'Chicago' });
    expect(weather.structuredContent).toEqual({ temperature: 36, conditions: 'Light rain / drizzle', humidity: 82 });
    // The official SDK v1 reports an unknown tool as a tool error (isError) wrapping -32602 text, not as a
    // JSON-RPC error; the client passes that result through unchanged.
    const unknown = await client.callTool('no-such-tool', {});
    expect(unknown).toEqual({ content: [{ type: 'text', text: 'MCP error -32602: Tool no-such-tool not found' }], isError: true });
  });

  test('a protocol error from the server is an RpcError with code, message and data intact', async () => {
    // A missing resource: the official SDK answers -32602 (the legacy spec suggests -32002; clients accept both).
    const missing = await client.readResource('demo://nothing/here').catch((e: unknown) => e);
    expect(missing).toBeInstanceOf(RpcError);
    expect(missing).toMatchObject({ code: -32602, message: 'MCP error -32602: Resource demo://nothing/here not found' });
    // A reader that throws: -32603 with the thrown message (the official SDK forwards internal error text).
    const failing = await client.readResource('demo://resource/dynamic/text/not-a-number').catch((e: unknown) => e);
    expect(failing).toMatchObject({ code: -32603, message: 'Unknown resource: demo://resource/dynamic/text/not-a-number' });
  });

  test('a long-running tool reports progress to the callback', async () => {
    const progress: Array<{ progress: number; total?: number }> = [];
    const result = await client.callTool(
      'trigger-long-running-operation',
      { duration: 0.3, steps: 3 },
      { onprogress: (p) => progress.push(p) },
    );
    expect((result.content[0] as { text: string }).text).toMatch(/Long running operation completed/);
    expect(progress).toEqual([
      { progress: 1, total: 3 },
      { progress: 2, total: 3 },
      { progress: 3, total: 3 },
    ]);
  });

  test('timeouts and AbortSignal cancellation against a slow tool', async () => {
    await expect(client.callTool('trigger-long-running-operation', { duration: 5, steps: 5 }, { timeoutMs: 100 })).rejects.toMatchObject({
      code: 'REQUEST_TIMEOUT',
    });
    const controller = new AbortController();
    // Aborted once the server reports progress: the call is under way.
    const call = client.callTool(
      'trigger-long-running-operation',
      { duration: 5, steps: 5 },
      { signal: controller.signal, onprogress: () => controller.abort('enough') },
    );
    await expect(call).rejects.toMatchObject({ code: 'REQUEST_CANCELLED' });
    expect(sent.filter((m) => m === 'notifications/cancelled').length).toBeGreaterThanOrEqual(2);
    // The connection is still healthy afterwards.
    expect(await client.ping()).toEqual({});
  });

  test('sampling and elicitation requests from the server are answered by the handlers', async () => {
    const sampled = await client.callTool('trigger-sampling-request', { prompt: 'Say hi', maxTokens: 20 });
    expect((sampled.content[0] as { text: string }).text).toContain('wiremcp-test-model');
    const elicited = await client.callTool('trigger-elicitation-request', {});
    expect(elicited.content.map((c) => (c as { text: string }).text).join('\n')).toContain('Name: Ada Lovelace');
    expect(asked).toEqual(expect.arrayContaining(['sampling', 'elicitation:form']));
  });

  test('reads static and templated resources', async () => {
    const [first] = await client.listAllResources();
    const read = await client.readResource(first!.uri);
    expect(read.contents[0]).toMatchObject({ uri: first!.uri, mimeType: 'text/markdown' });
    const dynamic = await client.readResource('demo://resource/dynamic/text/1');
    expect(dynamic.contents[0]).toMatchObject({ uri: 'demo://resource/dynamic/text/1' });
    expect(typeof (dynamic.contents[0] as { text?: unknown }).text).toBe('string');
  });

  test('gets prompts and completes prompt arguments (with context)', async () => {
    expect(await client.getPrompt('args-prompt', { city: 'Paris', state: 'Île-de-France' })).toEqual({
      messages: [{ role: 'user', content: { type: 'text', text: "What's weather in Paris, Île-de-France?" } }],
    });
    expect((await client.getPrompt('simple-prompt')).messages).toHaveLength(1);
    const departments = await client.complete({
      ref: { type: 'ref/prompt', name: 'completable-prompt' },
      argument: { name: 'department', value: 'S' },
    });
    expect(departments.completion.values).toEqual(['Sales', 'Support']);
    const people = await client.complete({
      ref: { type: 'ref/prompt', name: 'completable-prompt' },
      argument: { name: 'name', value: '' },
      context: { arguments: { department: 'Sales' } },
    });
    expect(people.completion.values).toEqual(['David', 'Eve', 'Frank']);
  });

  test('logging: setLoggingLevel is honoured and messages reach onLogMessage', async () => {
    await client.setLoggingLevel('debug');
    const before = logs.length;
    await client.callTool('toggle-simulated-logging', {});
    await until(() => logs.length > before);
    await client.callTool('toggle-simulated-logging', {});
    await client.subscribeResource('demo://resource/static/document/features.md');
    await until(() => logs.some((log) => String(log.data).includes('Subscribe Resource request')));
    await client.unsubscribeResource('demo://resource/static/document/features.md');
  });

  test('a second connection with the same server key skips the probe (era cache)', async () => {
    const cache = new MemoryEraCache();
    const key = 'everything';
    const first = spawn(everything, ['stdio']);
    const second = spawn(everything, ['stdio']);
    const a = new McpClient({ name: 'wiremcp-interop', version: '1.0.0' }, { eraCache: cache, serverKey: key });
    await a.connect(first.transport);
    await a.close();
    const b = new McpClient({ name: 'wiremcp-interop', version: '1.0.0' }, { eraCache: cache, serverKey: key });
    await b.connect(second.transport);
    expect(first.sent[0]).toBe('server/discover');
    expect(second.sent.slice(0, 2)).toEqual(['initialize', 'notifications/initialized']);
    expect((await b.callTool('echo', { message: 'cached' })).content).toEqual([{ type: 'text', text: 'Echo: cached' }]);
    await b.close();
  });
});

describe('official server-filesystem (stdio)', () => {
  const filesystem = binOf('@modelcontextprotocol/server-filesystem');
  let dir: string;
  let client: McpClient;

  beforeAll(async () => {
    // realpath: the server resolves symlinks (macOS /tmp) and compares against the real path.
    dir = realpathSync(mkdtempSync(join(tmpdir(), 'wiremcp-fs-interop-')));
    writeFileSync(join(dir, 'notes.txt'), 'first line\nsecond line\n');
    const { transport } = spawn(filesystem, [dir]);
    // No roots handler: the server keeps the directory given on its command line (with roots it would adopt ours).
    client = new McpClient({ name: 'wiremcp-interop', version: '1.0.0' });
    await client.connect(transport);
  });

  afterAll(async () => {
    await client?.close();
    await stopAll();
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  afterEach(() => {
    expect(client.connected).toBe(true);
  });

  test('detects legacy and lists its tools (all with output schemas)', async () => {
    expect(client.era).toBe('legacy');
    expect(client.serverInfo).toMatchObject({ name: 'secure-filesystem-server' });
    const tools = await client.listAllTools();
    expect(tools.map((t) => t.name)).toEqual(
      expect.arrayContaining(['read_text_file', 'write_file', 'list_directory', 'create_directory', 'move_file', 'search_files']),
    );
    expect(tools.every((t) => t.outputSchema !== undefined)).toBe(true);
  });

  test('reads, writes, lists, creates and moves inside the temporary directory', async () => {
    const read = await client.callTool('read_text_file', { path: join(dir, 'notes.txt') });
    expect(read.structuredContent).toEqual({ content: 'first line\nsecond line\n' });
    expect((await client.callTool('read_text_file', { path: join(dir, 'notes.txt'), head: 1 })).structuredContent).toEqual({
      content: 'first line',
    });
    await client.callTool('write_file', { path: join(dir, 'new.txt'), content: 'written by wiremcp ✓\n' });
    expect(readFileSync(join(dir, 'new.txt'), 'utf8')).toBe('written by wiremcp ✓\n');
    await client.callTool('create_directory', { path: join(dir, 'sub') });
    await client.callTool('move_file', { source: join(dir, 'new.txt'), destination: join(dir, 'sub', 'moved.txt') });
    const listing = await client.callTool('list_directory', { path: dir });
    expect((listing.structuredContent as { content: string }).content.split('\n').sort()).toEqual(['[DIR] sub', '[FILE] notes.txt']);
    const found = await client.callTool('search_files', { path: dir, pattern: '**/moved.txt' });
    expect(JSON.stringify(found.content)).toContain('moved.txt');
    expect((await client.callTool('list_allowed_directories', {})).structuredContent).toEqual({ content: `Allowed directories:\n${dir}` });
  });

  test('access outside the directory is a tool error (isError), not a protocol error', async () => {
    const outside = await client.callTool('read_text_file', { path: '/etc/hostname' });
    expect(outside.isError).toBe(true);
    expect((outside.content[0] as { text: string }).text).toMatch(/Access denied/);
  });
});
