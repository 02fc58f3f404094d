/**
 * Configuration loading: every format detected and read, references resolved, each kind of mistake reported with its
 * file, server and field — and no configured secret in any message or printed configuration.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, test, vi } from 'vitest';
import { ConfigError } from './config-error.js';
import { findConfigFiles } from './locations.js';
import { loadConfig, parseConfigText } from './load-config.js';
import { MAX_CONFIG_BYTES } from './parse-config.js';
import { describeServerConfig, REDACTED } from './redact.js';

const SECRET = 'sk-live-0123456789abcdef';
const env = { API_TOKEN: SECRET, HOME: '/home/ada', EMPTY: '' };
let dir: string;

beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'wiremcp-host-config-'));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

function write(relative: string, text: string): string {
  const file = join(dir, relative);
  mkdirSync(join(file, '..'), { recursive: true });
  writeFileSync(file, text);
  return file;
}

async function issuesOf(promise: Promise<unknown>): Promise<ConfigError> {
  const error = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(ConfigError);
  return error as ConfigError;
}

describe('formats', () => {
  test('Claude Desktop: mcpServers in claude_desktop_config.json, stdio with env', async () => {
    const file = write(
      'Claude/claude_desktop_config.json',
      JSON.stringify({ mcpServers: { fs: { command: 'npx', args: ['-y', 'x'], env: { K: 'v' } } } }),
    );
    const config = await loadConfig(file, { env });
    expect(config.servers).toMatchObject([{ name: 'fs', transport: 'stdio', command: 'npx', args: ['-y', 'x'], env: { K: 'v' } }]);
    expect(config.servers[0]!.source).toEqual({ file, format: 'claude-desktop' });
  });

  test('VS Code: servers + inputs, comments and trailing commas, ${input:} asked once, ${workspaceFolder} is the project', async () => {
    const file = write(
      '.vscode/mcp.json',
      `{
        // the GitHub server
        "servers": {
          "github": { "type": "http", "url": "https://api.example.com/mcp/", "headers": { "Authorization": "Bearer \${input:pat}", }, },
          "local": { "type": "stdio", "command": "node", "args": ["\${workspaceFolder}/server.js", "--token=\${input:pat}"], "cwd": "sub" },
        },
        "inputs": [{ "type": "promptString", "id": "pat", "description": "GitHub token", "password": true }],
      }`,
    );
    const asked = vi.fn(() => SECRET);
    const config = await loadConfig(file, { env, inputs: asked });
    expect(asked).toHaveBeenCalledTimes(1);
    expect(asked.mock.calls[0]).toEqual([{ id: 'pat', type: 'promptString', description: 'GitHub token', password: true, file }]);
    const [github, local] = config.servers;
    expect(github).toMatchObject({ transport: 'http', headers: { Authorization: `Bearer ${SECRET}` }, source: { format: 'vscode' } });
    expect(local).toMatchObject({ args: [`${dir}/server.js`, `--token=${SECRET}`], cwd: join(dir, 'sub') });
    expect(local!.secrets).toContain(SECRET);
  });

  test('Cursor: .cursor/mcp.json, url without type is HTTP, ${env:} and ${userHome}', async () => {
    const file = write(
      '.cursor/mcp.json',
      JSON.stringify({
        mcpServers: {
          remote: { url: 'https://x.example/mcp', headers: { 'X-Key': '${env:API_TOKEN}' } },
          home: { command: '${userHome}/bin/s' },
        },
      }),
    );
    const config = await loadConfig(file, { env, home: '/home/ada' });
    expect(config.servers.map((s) => [s.name, s.transport, s.source.format])).toEqual([
      ['remote', 'http', 'cursor'],
      ['home', 'stdio', 'cursor'],
    ]);
    expect(config.servers[1]!.command).toBe('/home/ada/bin/s');
  });

  test('mcp.json (SEP-2633): explicit types, chains, oauth, disabled and enabled', async () => {
    const config = await parseConfigText(
      JSON.stringify({
        mcpServers: {
          a: {
            type: 'streamable-http',
            url: 'https://a.example/mcp',
            oauth: { clientId: 'cid', scopes: ['read'], redirectUri: 'http://127.0.0.1:3118/callback' },
          },
          b: { type: 'sse', url: 'https://b.example/sse', headers: { 'X-Key': '${env:MISSING | env:EMPTY | value:fallback}' } },
          c: { type: 'stdio', command: 'x', disabled: true },
          d: { type: 'stdio', command: 'x', enabled: false },
          e: { command: 'x', env: { TOKEN: '${API_TOKEN}', LEVEL: '${LOG_LEVEL:-info}' } },
        },
      }),
      { env, file: join(dir, 'mcp.json') },
    );
    const [a, b, c, d, e] = config.servers;
    expect(a).toMatchObject({ transport: 'streamable-http', oauth: { clientId: 'cid', scopes: ['read'], grant: 'authorization_code' } });
    expect(b).toMatchObject({ transport: 'sse', headers: { 'X-Key': 'fallback' } });
    expect([c!.disabled, d!.disabled, e!.disabled]).toEqual([true, true, false]);
    expect(e!.env).toEqual({ TOKEN: SECRET, LEVEL: 'info' });
    expect(config.warnings.join('\n')).toMatch(/server "e" has no "type"/);
  });

  test('envFile is read (relative to the workspace folder) and env overrides it', async () => {
    write('.env', `A=from-file\nB=${SECRET}\n`);
    const file = write('mcp.json', JSON.stringify({ mcpServers: { s: { command: 'x', envFile: '.env', env: { A: 'from-env' } } } }));
    const [server] = (await loadConfig(file, { env })).servers;
    expect(server!.env).toEqual({ A: 'from-env', B: SECRET });
    expect(server!.secrets).toContain(SECRET);
  });

  test('several files: a server defined twice keeps its first definition, with a warning', async () => {
    const first = write('one/mcp.json', JSON.stringify({ mcpServers: { s: { command: 'first' } } }));
    const second = write('two/.vscode/mcp.json', JSON.stringify({ servers: { s: { command: 'second' }, t: { command: 't' } } }));
    const config = await loadConfig([first, second], { env });
    expect(config.servers.map((s) => [s.name, s.command])).toEqual([
      ['s', 'first'],
      ['t', 't'],
    ]);
    expect(config.warnings.join('\n')).toContain(`server "s" is also defined in ${first}`);
  });
});

describe('errors name the file, server and field, never a value', () => {
  test('every problem of every server at once', async () => {
    const file = write(
      'mcp.json',
      JSON.stringify({
        mcpServers: {
          both: { command: 'x', url: 'https://x' },
          badType: { type: 'websocket', url: 'wss://x' },
          stdioHeaders: { type: 'stdio', command: 'x', headers: { A: 'b' }, oauth: {} },
          remoteEnv: { type: 'http', url: 'https://x', env: { A: 'b' } },
          missing: { command: 'x', env: { T: '${env:NOT_SET_ANYWHERE}' } },
          scheme: { command: 'x', args: ['${op://vault/item/field}'] },
          timeout: { command: 'x', connectTimeoutMs: -1 },
          filter: { command: 'x', tools: { allow: 'all' } },
          url: { url: '${env:API_TOKEN}' },
          nothing: {},
          credentials: { type: 'http', url: 'https://x', oauth: { grant: 'client_credentials', clientId: 'c' } },
        },
      }),
    );
    const error = await issuesOf(loadConfig(file, { env }));
    const lines = error.issues.map((i) => `${i.server}/${i.field ?? ''}: ${i.message}`);
    expect(lines).toEqual([
      'both/: has both "command" (stdio) and "url" (remote); keep one',
      'badType/type: must be "stdio", "http", "streamable-http" or "sse" (a transport this host speaks)',
      'badType/url: must be an http:// or https:// URL',
      'stdioHeaders/headers: applies to remote servers only',
      'stdioHeaders/oauth: applies to remote servers only',
      'remoteEnv/env: applies to stdio servers only',
      'missing/env.T: "${env:NOT_SET_ANYWHERE}": environment variable NOT_SET_ANYWHERE is not set',
      expect.stringContaining('scheme/args[0]: "${op://vault/item/field}" is not a reference this host resolves'),
      'timeout/connectTimeoutMs: must be a positive integer (milliseconds)',
      'filter/tools.allow: must be an array of names',
      'url/url: must be an http:// or https:// URL',
      'nothing/: needs "command" (a stdio server) or "url" (a remote server)',
      'credentials/oauth: the client_credentials grant needs "clientId" and "clientSecret"',
    ]);
    expect(error.issues.every((i) => i.file === file)).toBe(true);
    expect(error.message).toContain(`${file}, server "missing", field "env.T"`);
    expect(error.message).not.toContain(SECRET);
  });

  test('bad JSON: line and column', async () => {
    const file = write('mcp.json', '{\n  "mcpServers": {\n    "a": { "command": "x" ]\n}');
    const error = await issuesOf(loadConfig(file));
    expect(error.issues[0]).toMatchObject({ file, position: '3:27' });
    expect(error.message).toMatch(/not valid JSON/);
  });

  test('a missing file, a file that is no configuration, an oversized file', async () => {
    const missing = join(dir, 'nope.json');
    const other = write('package.json', '{"name": "x"}');
    const big = write('big.json', `{"mcpServers": {}, "pad": "${'x'.repeat(MAX_CONFIG_BYTES)}"}`);
    const error = await issuesOf(loadConfig([missing, other, big]));
    expect(error.issues.map((i) => [i.file, i.message])).toEqual([
      [missing, 'does not exist'],
      [other, 'has no "mcpServers" (Claude Desktop, Cursor, mcp.json) or "servers" (VS Code) object'],
      [big, `is larger than ${MAX_CONFIG_BYTES} bytes`],
    ]);
  });

  test('an input nobody supplies, and an unsupported input type', async () => {
    const error = await issuesOf(
      parseConfigText(
        JSON.stringify({ servers: { s: { command: 'x', args: ['${input:key}'] } }, inputs: [{ id: 'c', type: 'command', command: 'x' }] }),
      ),
    );
    expect(error.issues.map((i) => i.message)).toEqual(['input "c": type "command" is not supported (promptString, pickString)']);
    const second = await issuesOf(parseConfigText(JSON.stringify({ servers: { s: { command: 'x', args: ['${input:key}'] } } })));
    expect(second.issues[0]).toMatchObject({ server: 's', field: 'args[0]', message: '"${input:key}": input "key" is not set' });
  });
});

test('a printed configuration shows no secret', async () => {
  const config = await parseConfigText(
    JSON.stringify({
      mcpServers: {
        s: { command: 'node', args: ['--key', '${env:API_TOKEN}'], env: { PLAIN: 'not-secret-but-hidden' } },
        r: {
          url: 'https://x.example/mcp?key=${env:API_TOKEN}',
          headers: { Authorization: 'Bearer literal-token' },
          oauth: { clientId: 'c', clientSecret: 'shh-secret' },
        },
      },
    }),
    { env },
  );
  const printed = JSON.stringify(config.servers.map(describeServerConfig));
  for (const secret of [SECRET, 'not-secret-but-hidden', 'literal-token', 'shh-secret']) expect(printed).not.toContain(secret);
  expect(printed).toContain(`"args":["--key","${REDACTED}"]`);
  expect(printed).toContain(`https://x.example/mcp?key=${REDACTED}`);
});

test('the usual locations: project files from the working directory up, then the user files', async () => {
  const home = join(dir, 'home');
  const project = join(home, 'work', 'project');
  mkdirSync(join(project, 'deep'), { recursive: true });
  const vscode = write('home/work/project/.vscode/mcp.json', '{"servers": {}}');
  const parent = write('home/work/mcp.json', '{"mcpServers": {}}');
  const cursor = write('home/.cursor/mcp.json', '{"mcpServers": {}}');
  const claude = write('home/.config/Claude/claude_desktop_config.json', '{"mcpServers": {}}');
  write('outside/mcp.json', '{"mcpServers": {}}');
  const found = await findConfigFiles({ cwd: join(project, 'deep'), home, platform: 'linux', env: {} });
  expect(found).toEqual([vscode, parent, cursor, claude]);
});
