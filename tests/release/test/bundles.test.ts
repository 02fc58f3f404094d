/**
 * How hosts install the reference servers: each one's `server.json` (MCP registry) and `.mcpb` bundle, made by
 * `wiremcp pack` in the build, checked with the official tools — the registry's JSON schema (2025-12-11, vendored in
 * packages/cli/schemas with its source) compiled by ajv, and the official `mcpb` CLI (`@anthropic-ai/mcpb`, from
 * npm) validating each manifest, reading and unpacking each bundle — and then the unpacked bundle started the way a
 * desktop host starts it (`mcp_config` with `${__dirname}` and the user's answers filled in), answering `initialize`.
 */
import { execFile, spawn } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { Ajv } from 'ajv';
import addFormats from 'ajv-formats';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';

const run = promisify(execFile);
const root = join(import.meta.dirname, '..', '..', '..');
const mcpb = join(import.meta.dirname, '..', 'node_modules', '.bin', 'mcpb');
const wiremcp = join(root, 'packages', 'cli', 'bin', 'wiremcp.js');
const SERVERS = ['everything', 'filesystem', 'grammar', 'resources-demo'];

interface Manifest {
  manifest_version: string;
  name: string;
  version: string;
  server: { entry_point: string; mcp_config: { command: string; args: string[]; env?: Record<string, string> } };
  user_config?: Record<string, { type: string; multiple?: boolean; required?: boolean }>;
  tools?: Array<{ name: string }>;
}

let work: string;
beforeAll(() => {
  work = mkdtempSync(join(tmpdir(), 'wiremcp-bundles-'));
});
afterAll(() => {
  if (work) rmSync(work, { recursive: true, force: true });
});

function bundleOf(server: string): string {
  const dir = join(root, 'servers', server, 'dist', 'mcpb');
  const files = readdirSync(dir).filter((name) => name.endsWith('.mcpb'));
  expect(files, `one bundle in ${dir}`).toHaveLength(1);
  return join(dir, files[0]!);
}

/** Sends `initialize` to a started server and resolves with its result (or rejects with what went wrong). */
function initialize(command: string, args: string[], env: Record<string, string>): Promise<Record<string, unknown>> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { env: { ...process.env, ...env }, stdio: ['pipe', 'pipe', 'pipe'] });
    let out = '';
    let err = '';
    const timer = setTimeout(() => {
      child.kill();
      reject(new Error(`no answer to initialize within 20 s; stderr: ${err}`));
    }, 20_000);
    child.stderr.on('data', (chunk: Buffer) => (err += chunk.toString()));
    child.stdout.on('data', (chunk: Buffer) => {
      out += chunk.toString();
      const line = out.split('\n').find((text) => text.includes('"id":1'));
      if (!line) return;
      clearTimeout(timer);
      child.stdin.end();
      child.on('close', () => resolve(JSON.parse(line) as Record<string, unknown>));
    });
    child.on('error', (error) => {
      clearTimeout(timer);
      reject(error);
    });
    const params = { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'bundle-test', version: '1.0.0' } };
    child.stdin.write(`${JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'initialize', params })}\n`);
  });
}

describe('server.json', () => {
  const schema = JSON.parse(readFileSync(join(root, 'packages', 'cli', 'schemas', 'server.schema.2025-12-11.json'), 'utf8')) as object;
  const ajv = new Ajv({ allErrors: true, strict: false });
  addFormats.default(ajv);
  const validate = ajv.compile(schema);

  test.each(SERVERS)('%s: follows the registry schema 2025-12-11, names the npm package and its mcpName, is up to date', async (server) => {
    const dir = join(root, 'servers', server);
    const document = JSON.parse(readFileSync(join(dir, 'server.json'), 'utf8')) as Record<string, unknown>;
    const valid = validate(document);
    expect(validate.errors ?? [], JSON.stringify(validate.errors)).toEqual([]);
    expect(valid).toBe(true);
    const pkg = JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8')) as { name: string; version: string; mcpName: string };
    expect(document).toMatchObject({ name: pkg.mcpName, version: pkg.version });
    const packages = document.packages as Array<Record<string, unknown>>;
    expect(packages[0]).toMatchObject({ registryType: 'npm', identifier: pkg.name, version: pkg.version, transport: { type: 'stdio' } });
    expect(packages.some((entry) => (entry.transport as { type: string }).type === 'streamable-http')).toBe(true);
    // What the build wrote is what pack makes now (a bundle into a scratch directory; server.json only compared).
    await run(process.execPath, [wiremcp, 'pack', '--check', '--no-probe', '--out', join(work, `check-${server}`), dir], {
      timeout: 120_000,
    });
  });

  test('the schema refuses what the registry refuses (the check can fail)', () => {
    expect(validate({ name: 'no-slash', description: 'x', version: '1.0.0' })).toBe(false);
    expect(validate({ name: 'io.github.a/b', description: 'x'.repeat(101), version: '1.0.0' })).toBe(false);
    expect(
      validate({ name: 'io.github.a/b', description: 'x', version: '1.0.0', packages: [{ registryType: 'npm', identifier: 'x' }] }),
    ).toBe(false);
  });
});

describe.each(SERVERS)('%s bundle', (server) => {
  test('the official mcpb CLI validates its manifest, reads it, and unpacks it; the unpacked server answers initialize', async () => {
    const bundle = bundleOf(server);
    const info = await run(mcpb, ['info', bundle], { timeout: 60_000 });
    expect(info.stdout).toContain(`File: ${bundle.split('/').pop()}`);
    const unpacked = join(work, `unpacked-${server}`);
    await run(mcpb, ['unpack', bundle, unpacked], { timeout: 120_000 });
    const validated = await run(mcpb, ['validate', join(unpacked, 'manifest.json')], { timeout: 60_000 });
    expect(validated.stdout).toContain('Manifest schema validation passes');
    const manifest = JSON.parse(readFileSync(join(unpacked, 'manifest.json'), 'utf8')) as Manifest;
    expect(manifest.manifest_version).toBe('0.3');
    expect(manifest.tools?.length).toBeGreaterThan(0);
    // As a host does: ${__dirname} is where the bundle was unpacked, ${user_config.*} the user's answers.
    const scratch = mkdtempSync(join(work, 'answers-'));
    const answer = (key: string): string[] => (manifest.user_config?.[key]?.type === 'directory' ? [scratch] : ['value']);
    const args = manifest.server.mcp_config.args.flatMap((arg) => {
      const key = /^\$\{user_config\.(\w+)\}$/.exec(arg)?.[1];
      return key ? answer(key) : [arg.replaceAll('${__dirname}', unpacked)];
    });
    expect(manifest.server.mcp_config.command).toBe('node');
    const answered = await initialize(process.execPath, args, manifest.server.mcp_config.env ?? {});
    expect(answered).toMatchObject({
      id: 1,
      result: { serverInfo: { name: expect.stringMatching(/wiremcp|everything|grammar|resources/) } },
    });
  });
});

test('mcpb validate fails on a broken manifest (the check can fail)', async () => {
  const broken = join(work, 'broken.json');
  const { writeFileSync } = await import('node:fs');
  writeFileSync(broken, JSON.stringify({ manifest_version: '0.3', name: 'x' }));
  await expect(run(mcpb, ['validate', broken], { timeout: 60_000 })).rejects.toThrow();
});
