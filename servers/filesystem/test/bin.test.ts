/**
 * The real bin over stdio, driven by our McpClient in both eras: every tool once, resources, and the command line
 * (usage errors, unusable directories, Content-Length framing), and --http. Needs the build
 * (`servers/filesystem/dist`); every process started is stopped by the test.
 */
import { spawn } from 'node:child_process';
import { existsSync, readFileSync, symlinkSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { McpClient } from '@wiremcp/client';
import { StdioClientTransport } from '@wiremcp/transport-stdio';
import { afterEach, beforeEach, describe, expect, test } from 'vitest';
import { ERAS, makeTree, SECRET, type Era, type ToolResult, type Tree } from './fixture.test-util.js';

const BIN = fileURLToPath(new URL('../bin/wiremcp-filesystem.js', import.meta.url));

let tree: Tree;
const clients: McpClient[] = [];
beforeEach(() => {
  tree = makeTree();
});
afterEach(async () => {
  await Promise.all(clients.splice(0).map((client) => client.close().catch(() => {})));
  tree.cleanup();
});

async function start(
  era: Era,
  args: string[],
): Promise<{ client: McpClient; call: (name: string, a?: Record<string, unknown>) => Promise<ToolResult> }> {
  const client = new McpClient({ name: 'bin-test', version: '1.0.0' }, { era });
  clients.push(client);
  await client.connect(new StdioClientTransport({ command: process.execPath, args: [BIN, ...args], stderr: 'pipe' }));
  return { client, call: async (name, a = {}) => (await client.callTool(name, a)) as unknown as ToolResult };
}

function run(args: string[], input = ''): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [BIN, ...args], { stdio: ['pipe', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`bin did not exit; stderr: ${stderr}`));
    }, 10_000);
    child.on('close', (code) => {
      clearTimeout(timer);
      resolve({ code, stdout, stderr });
    });
    child.stdin.end(input);
  });
}

describe.each(ERAS)('wiremcp-filesystem over stdio, %s era', (era) => {
  test('every tool answers, and nothing outside comes back', async () => {
    tree.write('a.txt', 'alpha\nbeta\n');
    tree.write('img.png', Buffer.from([0x89, 0x50, 0x4e, 0x47]));
    tree.write('gone.txt', 'x');
    tree.write('dir/inner.txt', 'inner');
    symlinkSync(tree.secret, tree.at('out-link'));
    const { client, call } = await start(era, [tree.root, '--allow-delete']);
    expect(client.era).toBe(era);
    expect(client.serverInfo).toMatchObject({ name: 'wiremcp-filesystem' });
    const tools = (await client.listAllTools()).map((tool) => tool.name).sort();
    expect(tools).toEqual(
      [
        'copy_file',
        'create_directory',
        'delete_directory',
        'delete_file',
        'directory_tree',
        'edit_file',
        'get_file_info',
        'list_allowed_directories',
        'list_directory',
        'list_directory_with_sizes',
        'move_file',
        'read_file',
        'read_media_file',
        'read_multiple_files',
        'read_text_file',
        'search_file_contents',
        'search_files',
        'write_file',
      ].sort(),
    );
    const a = tree.at('a.txt');
    const expectations: Array<[string, Record<string, unknown>, (result: ToolResult) => void]> = [
      ['read_text_file', { path: a, tail: 1 }, (r) => expect(r.content[0]!.text).toBe('beta\n')],
      ['read_file', { path: a, head: 1 }, (r) => expect(r.content[0]!.text).toBe('alpha\n')],
      [
        'read_media_file',
        { path: tree.at('img.png') },
        (r) => expect(r.content[0]).toMatchObject({ type: 'image', mimeType: 'image/png' }),
      ],
      ['read_multiple_files', { paths: [a] }, (r) => expect(r.structuredContent!.files).toHaveLength(1)],
      ['write_file', { path: tree.at('w.txt'), content: 'w' }, () => expect(readFileSync(tree.at('w.txt'), 'utf8')).toBe('w')],
      [
        'edit_file',
        { path: a, edits: [{ oldText: 'beta', newText: 'gamma' }] },
        () => expect(readFileSync(a, 'utf8')).toBe('alpha\ngamma\n'),
      ],
      ['create_directory', { path: tree.at('made/deep') }, () => expect(existsSync(tree.at('made/deep'))).toBe(true)],
      ['list_directory', { path: tree.root }, (r) => expect(r.content[0]!.text).toContain('[LINK] out-link')],
      ['list_directory_with_sizes', { path: tree.root }, (r) => expect(r.structuredContent!.totals.files).toBeGreaterThan(0)],
      ['directory_tree', { path: tree.root }, (r) => expect(r.content[0]!.text).toContain('dir/\n  inner.txt')],
      [
        'move_file',
        { source: tree.at('w.txt'), destination: tree.at('moved.txt') },
        () => expect(existsSync(tree.at('moved.txt'))).toBe(true),
      ],
      [
        'copy_file',
        { source: a, destination: tree.at('copy.txt') },
        () => expect(readFileSync(tree.at('copy.txt'), 'utf8')).toBe('alpha\ngamma\n'),
      ],
      ['search_files', { path: tree.root, pattern: '*.txt' }, (r) => expect(r.structuredContent!.matches.length).toBeGreaterThan(3)],
      ['search_file_contents', { path: tree.root, pattern: 'gamma' }, (r) => expect(r.structuredContent!.filesMatched).toBe(2)],
      ['get_file_info', { path: a }, (r) => expect(r.structuredContent).toMatchObject({ type: 'file', isFile: true })],
      ['list_allowed_directories', {}, (r) => expect(r.structuredContent!.directories).toEqual([tree.root])],
      ['delete_file', { path: tree.at('gone.txt') }, () => expect(existsSync(tree.at('gone.txt'))).toBe(false)],
      ['delete_directory', { path: tree.at('dir'), recursive: true }, () => expect(existsSync(tree.at('dir'))).toBe(false)],
      ['read_text_file', { path: tree.at('out-link') }, (r) => expect(r.isError).toBe(true)],
    ];
    for (const [name, args, check] of expectations) {
      const result = await call(name, args);
      expect(JSON.stringify(result)).not.toContain(SECRET);
      if (name !== 'read_text_file' || args.path !== tree.at('out-link'))
        expect(result.isError, `${name}: ${result.content[0]?.text}`).toBeFalsy();
      check(result);
    }
    const resource = await client.readResource(`file://${a}`);
    expect(resource.contents[0]).toMatchObject({ text: 'alpha\ngamma\n' });
  });

  test('--read-only lists only the reading tools', async () => {
    const { client } = await start(era, ['--read-only', tree.root]);
    const tools = (await client.listAllTools()).map((tool) => tool.name);
    expect(tools).toHaveLength(11);
    for (const tool of await client.listAllTools()) expect(tool.annotations?.readOnlyHint).toBe(true);
  });
});

describe('command line', () => {
  test('no directory, a bad flag or value are usage errors (exit 2, one line and a hint on stderr, nothing on stdout)', async () => {
    for (const args of [
      [],
      ['--roots', 'widen', tree.root],
      ['--bogus', tree.root],
      ['--http', 'nowhere', tree.root],
      ['--read-only', '--allow-delete', tree.root],
    ]) {
      const result = await run(args);
      expect(result.code, args.join(' ')).toBe(2);
      expect(result.stdout).toBe('');
      expect(result.stderr).toContain("Run 'wiremcp-filesystem --help' for usage.");
    }
  });

  test('--help prints the usage; directories that do not exist are skipped, none usable exits 1', async () => {
    const help = await run(['--help']);
    expect(help.code).toBe(0);
    expect(help.stderr).toContain('Usage: wiremcp-filesystem [options] <directory>...');
    const none = await run([tree.at('missing')]);
    expect(none.code).toBe(1);
    expect(none.stderr).toContain('none of the directories can be used');
    expect(none.stdout).toBe('');
  });

  test('SIGTERM closes the connection and exits 0; --version names the server', async () => {
    const child = spawn(process.execPath, [BIN, tree.root], { stdio: ['pipe', 'pipe', 'pipe'] });
    try {
      let stderr = '';
      await new Promise<void>((resolve, reject) => {
        child.on('error', reject);
        child.stderr.on('data', (chunk: Buffer) => {
          stderr += chunk.toString();
          if (stderr.includes('serving MCP on stdio')) resolve();
        });
      });
      const exited = new Promise<number | null>((resolve) => child.on('close', (code) => resolve(code)));
      child.kill('SIGTERM');
      expect(await exited).toBe(0);
      expect(stderr).toContain('SIGTERM, shutting down');
    } finally {
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
    }
    expect((await run(['--version'])).stderr).toBe('wiremcp-filesystem 0.1.0\n');
  });

  test('--http: both eras on one endpoint, the URL on stderr, SIGTERM exits 0', async () => {
    tree.write('h.txt', 'over http');
    const child = spawn(process.execPath, [BIN, '--http', '127.0.0.1:0', tree.root], { stdio: ['ignore', 'pipe', 'pipe'] });
    try {
      let stderr = '';
      const url = await new Promise<string>((resolve, reject) => {
        child.on('error', reject);
        child.on('close', () => reject(new Error(`exited early: ${stderr}`)));
        child.stderr.on('data', (chunk: Buffer) => {
          stderr += chunk.toString();
          const match = /serving MCP on (http:\/\/127\.0\.0\.1:\d+\/mcp) /.exec(stderr);
          if (match) resolve(match[1]!);
        });
      });
      const meta = { 'io.modelcontextprotocol/protocolVersion': '2026-07-28', 'io.modelcontextprotocol/clientCapabilities': {} };
      const read = await fetch(url, {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          accept: 'application/json, text/event-stream',
          'mcp-protocol-version': '2026-07-28',
          'mcp-method': 'tools/call',
          'mcp-name': 'read_text_file',
        },
        body: JSON.stringify({
          jsonrpc: '2.0',
          id: 1,
          method: 'tools/call',
          params: { name: 'read_text_file', arguments: { path: tree.at('h.txt') }, _meta: meta },
        }),
      });
      expect(await read.json()).toMatchObject({ result: { resultType: 'complete', content: [{ type: 'text', text: 'over http' }] } });
      const init = await fetch(url, {
        method: 'POST',
        headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
        body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-11-25', capabilities: {} } }),
      });
      expect(init.headers.get('mcp-session-id')).toBeTruthy();
      expect(stderr).toContain('1 allowed directory');
      const exited = new Promise<number | null>((resolve) => child.on('close', (code) => resolve(code)));
      child.kill('SIGTERM');
      expect(await exited).toBe(0);
    } finally {
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
    }
  });

  test('Content-Length framing: initialize and a call, then a clean exit when stdin closes', async () => {
    tree.write('x.txt', 'framed');
    const frame = (message: unknown): string => {
      const body = JSON.stringify(message);
      return `Content-Length: ${Buffer.byteLength(body)}\r\n\r\n${body}`;
    };
    const input =
      frame({
        jsonrpc: '2.0',
        id: 1,
        method: 'initialize',
        params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 't', version: '1' } },
      }) +
      frame({ jsonrpc: '2.0', method: 'notifications/initialized' }) +
      frame({ jsonrpc: '2.0', id: 2, method: 'tools/call', params: { name: 'read_text_file', arguments: { path: tree.at('x.txt') } } });
    const result = await run(['--framing', 'content-length', tree.root], input);
    expect(result.code).toBe(0);
    expect(result.stdout).toMatch(/^Content-Length: \d+\r\n\r\n/);
    expect(result.stdout).toContain('"text":"framed"');
  });
});
