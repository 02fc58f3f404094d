/**
 * `wiremcp new server` end to end: scaffold into a temporary workspace (the files the command reads copied from
 * this one, the workspace packages linked as `pnpm install` links them), then build the new package, run its
 * test, call its bin through `wiremcp`, and run the conformance app on it — with its registry entry and as a
 * command.
 */
import { execFile } from 'node:child_process';
import { copyFileSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterEach, beforeEach, expect, test } from 'vitest';
import { ROOT, startHttp, stopAll, wiremcp } from './cli.test-util.js';

const run = promisify(execFile);
let workspace: string;

beforeEach(() => {
  workspace = mkdtempSync(join(tmpdir(), 'wiremcp-new-server-'));
  mkdirSync(join(workspace, 'servers'));
  mkdirSync(join(workspace, 'apps', 'conformance'), { recursive: true });
  mkdirSync(join(workspace, 'node_modules', '@types'), { recursive: true });
  for (const file of ['pnpm-workspace.yaml', 'tsconfig.base.json']) copyFileSync(join(ROOT, file), join(workspace, file));
  copyFileSync(join(ROOT, 'apps', 'conformance', 'servers.yaml'), join(workspace, 'apps', 'conformance', 'servers.yaml'));
  symlinkSync(join(ROOT, 'node_modules', '@types', 'node'), join(workspace, 'node_modules', '@types', 'node'), 'dir');
});

afterEach(async () => {
  await stopAll();
  rmSync(workspace, { recursive: true, force: true });
});

test('scaffolds a server that builds, passes its test, runs, and passes the conformance scenarios', { timeout: 420_000 }, async () => {
  const created = await wiremcp(['new', 'server', 'word-count', '--dir', workspace]);
  expect(created.code).toBe(0);
  expect(created.stdout).toMatch(/^Created servers\/word-count \(8 files\) and its entry in apps\/conformance\/servers\.yaml/);
  const dir = join(workspace, 'servers', 'word-count');
  expect(JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8'))).toMatchObject({
    name: '@wiremcp/server-word-count',
    bin: { 'wiremcp-word-count': './bin/wiremcp-word-count.js' },
  });
  expect(readFileSync(join(dir, 'README.md'), 'utf8')).toMatch(/"mcpServers": \{\n\s+"word-count": \{\n\s+"command": "node"/);

  // Again: refused, nothing overwritten.
  const again = await wiremcp(['new', 'server', 'word-count', '--dir', workspace]);
  expect(again.code).toBe(2);
  expect((await wiremcp(['new', 'server', 'Bad_Name', '--dir', workspace])).code).toBe(2);

  // What `pnpm install` would link.
  mkdirSync(join(dir, 'node_modules', '@wiremcp'), { recursive: true });
  for (const name of ['server', 'process', 'client', 'jsonrpc'])
    symlinkSync(join(ROOT, 'packages', name), join(dir, 'node_modules', '@wiremcp', name), 'dir');
  symlinkSync(join(ROOT, 'node_modules', 'vitest'), join(dir, 'node_modules', 'vitest'), 'dir');

  await run(process.execPath, [join(ROOT, 'node_modules', 'typescript', 'bin', 'tsc'), '-p', join(dir, 'tsconfig.build.json')], {
    timeout: 60_000,
  });
  expect(existsSync(join(dir, 'dist', 'bin.js'))).toBe(true);
  // The rest of its build: the registry and bundle metadata.
  const packed = await wiremcp(['pack', dir], { timeoutMs: 60_000 });
  expect(packed.stderr).toBe('');
  expect(packed.code).toBe(0);
  expect(JSON.parse(readFileSync(join(dir, 'server.json'), 'utf8'))).toMatchObject({ name: 'io.github.wiremcp/server-word-count' });
  expect(existsSync(join(dir, 'dist', 'mcpb', 'wiremcp-word-count-0.1.0.mcpb'))).toBe(true);
  const tested = await run(process.execPath, [join(ROOT, 'node_modules', 'vitest', 'vitest.mjs'), 'run', '--reporter=dot'], {
    cwd: dir,
    timeout: 60_000,
    env: { ...process.env, NO_COLOR: '1' },
  });
  expect(tested.stdout).toMatch(/Tests\s+4 passed/);

  const bin = join(dir, 'bin', 'wiremcp-word-count.js');
  const called = await wiremcp(['call', '--json', '-a', 'name=Ada', 'greet', 'node', bin]);
  expect(called.code).toBe(0);
  expect(JSON.parse(called.stdout)).toMatchObject({ structuredContent: { greeting: 'Hello, Ada!' } });

  const conformance = join(ROOT, 'apps', 'conformance', 'dist', 'cli.js');
  // The registry entry is valid: the app reads it and knows the server.
  const listed = await run(
    process.execPath,
    [conformance, '--registry', join(workspace, 'apps', 'conformance', 'servers.yaml'), '--server', 'word-count', '--list', '--plain'],
    {
      timeout: 60_000,
    },
  );
  expect(listed.stdout).toMatch(/scenarios, 1 servers/);
  // Registered for every transport its bin serves: both stdio framings, --http's three wires, and --ws.
  for (const wire of ['stdio-ndjson', 'stdio-content-length', 'streamable-http', 'streamable-http-stateless', 'http-sse', 'websocket'])
    expect(listed.stdout).toMatch(new RegExp(`word-count {2}${wire} {2}`));
  expect(listed.stdout).toMatch(/word-count {2}streamable-http-stateless {2}2026-07-28/);
  expect(listed.stdout).toMatch(/word-count {2}http-sse {2}2024-11-05/);
  expect(listed.stdout).not.toMatch(/word-count {2}streamable-http {2}2026-07-28/);
  expect(listed.stdout).toMatch(/word-count {2}websocket {2}2024-11-05/);
  expect(listed.stdout).toMatch(/word-count {2}websocket {2}2026-07-28/);
  // And the server passes every scenario that applies to it, on both stdio framings.
  const out = join(workspace, 'out');
  const replayed = await run(
    process.execPath,
    [conformance, '--command', `node ${bin}`, '--name', 'word-count', '--transport', 'stdio', '--out', out, '--no-html', '--plain'],
    {
      timeout: 100_000,
    },
  );
  expect(replayed.stdout).toMatch(/ 0 failed, /);
  expect(replayed.stdout).toMatch(/\d+ passed/);
  // Its bin's --http serves what the registry entry says: 2026-07-28 stateless and the 2025 revisions on sessions.
  const served = await startHttp([bin, '--http', '127.0.0.1:0']);
  const overHttp = await run(
    process.execPath,
    [
      conformance,
      '--url',
      served.url,
      '--name',
      'word-count',
      '--scenario',
      'lifecycle/*',
      '--scenario',
      'discover',
      '--out',
      out,
      '--no-html',
      '--plain',
    ],
    { timeout: 100_000 },
  );
  expect(overHttp.stdout).toMatch(/ 0 failed, /);
  expect(overHttp.stdout).toMatch(/word-count +streamable-http-stateless[ ·]+[1-9]\d*\/0/);
  // And its --ws serves what the entry says: `initialize` (and every lifecycle scenario) answered over WebSocket.
  const wsServed = await startHttp([bin, '--ws', '127.0.0.1:0']);
  expect(wsServed.url).toMatch(/^ws:\/\/127\.0\.0\.1:\d+\/mcp$/);
  const overWs = await run(
    process.execPath,
    [conformance, '--url', wsServed.url, '--name', 'word-count', '--scenario', 'lifecycle/*', '--out', out, '--no-html', '--plain'],
    { timeout: 100_000 },
  );
  expect(overWs.stdout).toMatch(/ 0 failed, /);
  expect(overWs.stdout).toMatch(/word-count +websocket[ ·]+[1-9]\d*\/0/);
});
