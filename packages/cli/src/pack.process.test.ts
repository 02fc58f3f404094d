/**
 * `wiremcp pack` on packages made for the test outside the workspace (their wiremcp dependencies linked as a
 * package manager links them): what it writes for a good package — a server.json the registry schema accepts, a
 * bundle whose server starts, the same bytes twice — and how it refuses a bad one without writing anything: a
 * package.json that lacks what the registry needs, a dependency that is not installed, a server that does not start,
 * a server.json gone stale under `--check`.
 */
import { execFile } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterEach, beforeEach, expect, test } from 'vitest';
import { checkServerJson } from './pack/pack.js';
import { ROOT, stopAll, wiremcp } from './cli.test-util.js';

const run = promisify(execFile);
let base: string;
let pkg: string;

const SERVER = `import { McpServer } from '@wiremcp/server';
import { createProcessStdioTransport } from '@wiremcp/transport-stdio';
const server = new McpServer({ name: 'tiny', version: '1.2.3' });
server.registerTool({ name: 'ping', description: 'Answers pong.', inputSchema: { type: 'object' } }, () => ({ content: [{ type: 'text', text: 'pong' }] }));
if (process.argv.includes('--crash')) { process.stderr.write('tiny: cannot start\\n'); process.exit(7); }
await server.connect(createProcessStdioTransport());
`;

function writePackage(overrides: Record<string, unknown> = {}): void {
  const manifest = {
    name: '@example/tiny',
    version: '1.2.3',
    description: 'A tiny server for the pack test.',
    mcpName: 'io.github.example/tiny',
    license: 'MIT',
    author: 'Example <dev@example.com>',
    type: 'module',
    bin: { tiny: './bin.js' },
    files: ['bin.js', '!**/*.secret'],
    dependencies: { '@wiremcp/server': 'workspace:*', '@wiremcp/transport-stdio': 'workspace:*' },
    wiremcp: {
      server: { title: 'Tiny', httpFlag: '--http', environmentVariables: [{ name: 'TINY_TOKEN', isSecret: true, description: 'a token' }] },
    },
    ...overrides,
  };
  writeFileSync(join(pkg, 'package.json'), `${JSON.stringify(manifest, null, 2)}\n`);
}

beforeEach(() => {
  base = mkdtempSync(join(tmpdir(), 'wiremcp-pack-'));
  pkg = join(base, 'tiny');
  mkdirSync(join(pkg, 'node_modules', '@wiremcp'), { recursive: true });
  for (const name of ['server', 'transport-stdio'])
    symlinkSync(join(ROOT, 'packages', name), join(pkg, 'node_modules', '@wiremcp', name), 'dir');
  writeFileSync(join(pkg, 'bin.js'), SERVER);
  writeFileSync(join(pkg, 'notes.secret'), 'not published');
  writePackage();
});

afterEach(async () => {
  await stopAll();
  rmSync(base, { recursive: true, force: true });
});

test('a good package: a valid server.json, a bundle that starts, the same bytes twice, --check', { timeout: 120_000 }, async () => {
  const packed = await wiremcp(['pack', pkg], { timeoutMs: 60_000 });
  expect(packed.stderr).toBe('');
  expect(packed.code).toBe(0);
  expect(packed.stdout).toMatch(/started and listed 1 tools/);
  const serverJson = JSON.parse(readFileSync(join(pkg, 'server.json'), 'utf8')) as Record<string, unknown>;
  await checkServerJson(serverJson);
  expect(serverJson).toMatchObject({
    name: 'io.github.example/tiny',
    title: 'Tiny',
    version: '1.2.3',
    packages: [
      {
        registryType: 'npm',
        identifier: '@example/tiny',
        transport: { type: 'stdio' },
        environmentVariables: [{ name: 'TINY_TOKEN', isSecret: true }],
      },
      { transport: { type: 'streamable-http', url: 'http://127.0.0.1:{port}/mcp' }, packageArguments: [{ type: 'named', name: '--http' }] },
    ],
  });
  const bundle = join(pkg, 'dist', 'mcpb', 'tiny-1.2.3.mcpb');
  const first = readFileSync(bundle);
  // Unpacked with the system's unzip: the manifest, the package, its dependencies; not what `files` leaves out.
  const unpacked = join(base, 'unpacked');
  await run('unzip', ['-q', bundle, '-d', unpacked]);
  const manifest = JSON.parse(readFileSync(join(unpacked, 'manifest.json'), 'utf8')) as Record<string, unknown>;
  expect(manifest).toMatchObject({
    manifest_version: '0.3',
    name: 'tiny',
    author: { name: 'Example', email: 'dev@example.com' },
    server: {
      type: 'node',
      entry_point: 'server/bin.js',
      mcp_config: { command: 'node', env: { TINY_TOKEN: '${user_config.tiny_token}' } },
    },
    tools: [{ name: 'ping', description: 'Answers pong.' }],
    user_config: { tiny_token: { type: 'string', sensitive: true } },
  });
  expect(existsSync(join(unpacked, 'server', 'notes.secret'))).toBe(false);
  expect(existsSync(join(unpacked, 'server', 'node_modules', '@wiremcp', 'jsonrpc', 'package.json'))).toBe(true);
  const staged = JSON.parse(readFileSync(join(unpacked, 'server', 'package.json'), 'utf8')) as { dependencies: Record<string, string> };
  expect(staged.dependencies['@wiremcp/server']).toMatch(/^\d+\.\d+\.\d+/);
  // Again: the same bytes (sorted entries, fixed dates), so a published SHA-256 can be checked.
  expect((await wiremcp(['pack', pkg], { timeoutMs: 60_000 })).code).toBe(0);
  expect(readFileSync(bundle).equals(first)).toBe(true);
  expect((await wiremcp(['pack', '--check', '--no-probe', pkg], { timeoutMs: 60_000 })).code).toBe(0);
  // A bundle URL lists the bundle with its SHA-256.
  const listed = await wiremcp(['pack', '--bundle-url', 'https://github.com/example/tiny/releases/download/v{version}/{file}', pkg], {
    timeoutMs: 60_000,
  });
  expect(listed.code).toBe(0);
  const withBundle = JSON.parse(readFileSync(join(pkg, 'server.json'), 'utf8')) as { packages: Array<Record<string, unknown>> };
  expect(withBundle.packages.at(-1)).toMatchObject({
    registryType: 'mcpb',
    identifier: 'https://github.com/example/tiny/releases/download/v1.2.3/tiny-1.2.3.mcpb',
    fileSha256: expect.stringMatching(/^[a-f0-9]{64}$/),
  });
  // Stale: --check fails and says how to fix it.
  writePackage({ version: '1.2.4' });
  const stale = await wiremcp(['pack', '--check', '--no-probe', pkg], { timeoutMs: 60_000 });
  expect(stale.code).toBe(1);
  expect(stale.stderr).toContain('is not up to date');
});

test('a package.json without what the registry needs: every problem named, nothing written', async () => {
  writePackage({ mcpName: undefined, description: 'x'.repeat(150), bin: undefined });
  const refused = await wiremcp(['pack', pkg]);
  expect(refused.code).toBe(2);
  expect(refused.stderr).toContain('mcpName is required');
  expect(refused.stderr).toContain('description of 1 to 100 characters');
  expect(refused.stderr).toContain('a "bin" is required');
  expect(existsSync(join(pkg, 'server.json'))).toBe(false);
  expect(existsSync(join(pkg, 'dist'))).toBe(false);
});

test('a dependency that is not installed is named', async () => {
  writePackage({ dependencies: { '@wiremcp/server': 'workspace:*', 'left-pad-not-installed': '1.0.0' } });
  const refused = await wiremcp(['pack', pkg]);
  expect(refused.code).toBe(2);
  expect(refused.stderr).toContain('left-pad-not-installed, a dependency of @example/tiny, is not installed');
});

test('a server that does not start: no bundle and no server.json are written', { timeout: 60_000 }, async () => {
  writePackage({ wiremcp: { server: { arguments: [{ type: 'named', name: '--crash', value: 'now', isRequired: true }] } } });
  const refused = await wiremcp(['pack', pkg], { timeoutMs: 45_000 });
  expect(refused.code).toBe(3);
  expect(refused.stderr).toContain('did not start and answer initialize');
  expect(existsSync(join(pkg, 'dist', 'mcpb', 'tiny-1.2.3.mcpb'))).toBe(false);
  expect(existsSync(join(pkg, 'server.json'))).toBe(false);
});

test(
  'a package without a "files" field: npm decides what is published (every file but the ignored ones)',
  { timeout: 60_000 },
  async () => {
    writePackage({ files: undefined });
    const packed = await wiremcp(['pack', '--no-probe', pkg], { timeoutMs: 45_000 });
    expect(packed.stderr).toBe('');
    expect(packed.code).toBe(0);
    const { stdout } = await run('unzip', ['-l', join(pkg, 'dist', 'mcpb', 'tiny-1.2.3.mcpb')]);
    // npm publishes everything without a "files" list, notes.secret included; node_modules never.
    expect(stdout).toContain('server/notes.secret');
    expect(stdout).toContain('server/bin.js');
    expect(stdout).not.toMatch(/server\/node_modules\/@wiremcp\/server\/node_modules/);
  },
);
