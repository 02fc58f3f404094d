// The bundled bin's compile cache (scripts/bin-launcher.cjs), driven through the real bin: the first start writes the
// cache, later starts use it, and a cache that is corrupt, foreign-writable, a symlink or turned off never changes what
// the server answers. The hand-made V8 cache (Node 20's) is tested on every Node with WIREMCP_COMPILE_CACHE=vm; Node's
// own compile cache, which the launcher uses on Node >= 22.1, in the last block (run by CI's Node 22 and 24 legs).
import { spawn } from 'node:child_process';
import * as nodeModule from 'node:module';
import { chmodSync, existsSync, mkdtempSync, readdirSync, rmSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { assertBuilt, BIN } from './server-process.test-util.js';

const INITIALIZE = `${JSON.stringify({
  jsonrpc: '2.0',
  id: 1,
  method: 'initialize',
  params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'compile-cache-test', version: '1' } },
})}\n`;

interface Run {
  readonly code: number | null;
  readonly stdout: string;
  /** The launcher's debug lines, without the `compile cache: ` prefix. */
  readonly cache: string[];
  readonly stderr: string;
}

/** Starts the bin, sends `initialize`, closes stdin and waits for the exit. */
function start(env: Record<string, string | undefined>): Promise<Run> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [BIN], {
      env: { ...process.env, WIREMCP_COMPILE_CACHE_DEBUG: '1', WIREMCP_COMPILE_CACHE: 'vm', ...env },
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString('utf8')));
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString('utf8')));
    const guard = setTimeout(() => child.kill('SIGKILL'), 15_000);
    child.once('error', reject);
    child.once('exit', (code) => {
      clearTimeout(guard);
      const cache = stderr
        .split('\n')
        .filter((line) => line.startsWith('compile cache: '))
        .map((line) => line.slice('compile cache: '.length));
      resolve({ code, stdout, cache, stderr });
    });
    child.stdin.end(INITIALIZE);
  });
}

function expectInitialized(run: Run): void {
  expect(run.code).toBe(0);
  const answer = JSON.parse(run.stdout.split('\n')[0]!) as { id: number; result: { serverInfo: { name: string } } };
  expect(answer.id).toBe(1);
  expect(answer.result.serverInfo.name).toBe('wiremcp-everything');
}

const posix = typeof process.getuid === 'function';
let root: string;
let dir: string;

beforeEach(() => {
  assertBuilt();
  root = mkdtempSync(join(tmpdir(), 'wiremcp-compile-cache-'));
  dir = join(root, 'cache');
});

afterEach(() => {
  rmSync(root, { recursive: true, force: true });
});

describe('the bundled bin compile cache', () => {
  it('is written on the first start and used on the next, with private permissions', async () => {
    const first = await start({ WIREMCP_COMPILE_CACHE_DIR: dir });
    expectInitialized(first);
    expect(first.cache[0]).toMatch(/^none yet at /);
    expect(first.cache.some((line) => line.startsWith('written '))).toBe(true);
    const files = readdirSync(dir);
    expect(files).toHaveLength(1);
    expect(files[0]).toMatch(new RegExp(`-${process.versions.v8.replaceAll('.', '\\.')}-${process.arch}\\.cache$`));
    if (posix) {
      expect(statSync(dir).mode & 0o777).toBe(0o700);
      expect(statSync(join(dir, files[0]!)).mode & 0o777).toBe(0o600);
    }

    const second = await start({ WIREMCP_COMPILE_CACHE_DIR: dir });
    expectInitialized(second);
    expect(second.cache).toEqual([`used ${join(dir, files[0]!)}`]);
    expect(second.stdout).toBe(first.stdout);
  });

  it("removes the caches of this program's earlier builds when it writes its own", async () => {
    expectInitialized(await start({ WIREMCP_COMPILE_CACHE_DIR: dir }));
    const [file] = readdirSync(dir);
    const [programHash] = file!.split('-');
    const stale = `${programHash}-1-2-${process.versions.v8}-${process.arch}.cache`;
    const otherProgram = `00000000-1-2-${process.versions.v8}-${process.arch}.cache`;
    rmSync(join(dir, file!));
    writeFileSync(join(dir, stale), Buffer.alloc(16), { mode: 0o600 });
    writeFileSync(join(dir, otherProgram), Buffer.alloc(16), { mode: 0o600 });

    const run = await start({ WIREMCP_COMPILE_CACHE_DIR: dir });
    expectInitialized(run);
    expect(run.cache).toContain(`removed ${stale}`);
    expect(readdirSync(dir).sort()).toEqual([otherProgram, file!].sort());
  });

  it('rejects a corrupt cache, still serves, and writes it anew', async () => {
    expectInitialized(await start({ WIREMCP_COMPILE_CACHE_DIR: dir }));
    const [file] = readdirSync(dir);
    writeFileSync(join(dir, file!), Buffer.alloc(4096, 0x5a), { mode: 0o600 });

    const corrupt = await start({ WIREMCP_COMPILE_CACHE_DIR: dir });
    expectInitialized(corrupt);
    expect(corrupt.cache[0]).toBe(`rejected ${join(dir, file!)}`);
    expect(corrupt.cache).toContain(`written ${join(dir, file!)}`);

    const again = await start({ WIREMCP_COMPILE_CACHE_DIR: dir });
    expectInitialized(again);
    expect(again.cache).toEqual([`used ${join(dir, file!)}`]);
  });

  it.runIf(posix)('does not use a directory others can write to', async () => {
    expectInitialized(await start({ WIREMCP_COMPILE_CACHE_DIR: dir }));
    chmodSync(dir, 0o777);
    const run = await start({ WIREMCP_COMPILE_CACHE_DIR: dir });
    expectInitialized(run);
    expect(run.cache).toEqual([`not used: ${dir} is not a directory only this user can write to`]);
  });

  it.runIf(posix)('does not follow a symlinked cache file, nor read one others can write to', async () => {
    expectInitialized(await start({ WIREMCP_COMPILE_CACHE_DIR: dir }));
    const [file] = readdirSync(dir);
    const path = join(dir, file!);

    chmodSync(path, 0o666);
    const writable = await start({ WIREMCP_COMPILE_CACHE_DIR: dir });
    expectInitialized(writable);
    expect(writable.cache[0]).toBe(`not used: ${path} is not a file only this user can write to`);

    const elsewhere = join(root, 'elsewhere.cache');
    rmSync(path);
    writeFileSync(elsewhere, Buffer.alloc(64), { mode: 0o600 });
    symlinkSync(elsewhere, path);
    const linked = await start({ WIREMCP_COMPILE_CACHE_DIR: dir });
    expectInitialized(linked);
    expect(linked.cache[0]).toMatch(/^not read: .*ELOOP|^not read: .*symbolic link/);
  });

  it('is off with WIREMCP_COMPILE_CACHE=0', async () => {
    const run = await start({ WIREMCP_COMPILE_CACHE_DIR: dir, WIREMCP_COMPILE_CACHE: '0' });
    expectInitialized(run);
    expect(run.cache).toEqual([]);
    expect(existsSync(dir)).toBe(false);
  });
});

const nodeCache = typeof (nodeModule as unknown as Record<string, unknown>).enableCompileCache === 'function';

describe.runIf(nodeCache)("Node's own compile cache (Node >= 22.1)", () => {
  const withNodeCache = {
    WIREMCP_COMPILE_CACHE_DIR: undefined as string | undefined,
    WIREMCP_COMPILE_CACHE: undefined,
    NODE_DEBUG_NATIVE: 'COMPILE_CACHE',
  };

  it('is enabled in the private directory: the first start writes an entry, the next one has it accepted', async () => {
    const first = await start({ ...withNodeCache, WIREMCP_COMPILE_CACHE_DIR: dir });
    expectInitialized(first);
    expect(first.cache[0]).toBe(`node ENABLED ${dir}`);
    const [versioned] = readdirSync(dir);
    expect(versioned).toMatch(new RegExp(`^v${process.versions.node.replaceAll('.', '\\.')}-`));
    expect(readdirSync(join(dir, versioned!)).length).toBeGreaterThan(0);
    expect(statSync(dir).mode & 0o077).toBe(0);
    const second = await start({ ...withNodeCache, WIREMCP_COMPILE_CACHE_DIR: dir });
    expectInitialized(second);
    expect(second.stderr).toMatch(/V8 code cache for CommonJS .*program\.js was accepted/);
  });

  it.runIf(posix)('is not enabled in a directory others can write to, and the server still answers', async () => {
    expectInitialized(await start({ ...withNodeCache, WIREMCP_COMPILE_CACHE_DIR: dir }));
    chmodSync(dir, 0o777);
    const run = await start({ ...withNodeCache, WIREMCP_COMPILE_CACHE_DIR: dir });
    expectInitialized(run);
    expect(run.cache).toEqual([`not used: ${dir} is not a directory only this user can write to`]);
    expect(run.stderr).not.toMatch(/\[compile cache\] resolved path/);
  });
});
