/**
 * The release gate, rehearsed through a real registry: `changeset version` in a scratch copy of the repository,
 * every public package published with `pnpm publish` to a local Verdaccio (from npm, on 127.0.0.1, stopped at the
 * end), then the READMEs followed literally against it as a new user would: `npx -y @wiremcp/server-…` from each
 * server README's host configuration, a clean project that installs `@wiremcp/server` and
 * `@wiremcp/transport-stdio` with npm, pnpm and yarn, the `@wiremcp/server` README's server type-checked under
 * `moduleResolution` node16, bundler and nodenext and run, the packages loaded from CommonJS, a client from the
 * `@wiremcp/client` README, and `publint` and `@arethetypeswrong/cli` on every published tarball.
 */
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import {
  bins,
  codeBlocks,
  manifestOf,
  packument,
  phase,
  probeServer,
  publishAll,
  publishedDirs,
  registryEnv,
  root,
  run,
  startRegistry,
  versionedCopy,
  type Manifest,
  type Registry,
} from './rehearsal.js';

let work: string;
let registry: Registry | undefined;
let env: NodeJS.ProcessEnv;
let published: Manifest[] = [];
let version: string;
/** name → the tarball as the registry serves it. */
const tarballs = new Map<string, string>();

beforeAll(async () => {
  work = mkdtempSync(join(tmpdir(), 'wiremcp-rehearsal-'));
  const scratch = join(work, 'repo');
  await phase('scratch copy, changeset version, install', () => versionedCopy(scratch));
  const started = (registry = await phase('start Verdaccio', () => startRegistry(join(work, 'registry'))));
  env = registryEnv(started, work);
  published = await phase('changeset publish', () => publishAll(scratch, env));
  version = published[0]!.version;
  const packs = join(work, 'tarballs');
  mkdirSync(packs);
  // The tarballs as the registry serves them, fetched as npm does (packument, then dist.tarball).
  await phase('download tarballs', async () => {
    for (const { name } of published) {
      const { versions } = await packument(started, name);
      const url = versions[version]?.dist.tarball;
      if (!url) throw new Error(`${name}@${version} is not in the registry`);
      const response = await fetch(url, { headers: { authorization: `Bearer ${started.token}` } });
      if (!response.ok) throw new Error(`${url}: ${response.status}`);
      const file = join(packs, `${name.slice(1).replace('/', '-')}-${version}.tgz`);
      writeFileSync(file, Buffer.from(await response.arrayBuffer()));
      tarballs.set(name, file);
    }
  });
}, 1_200_000);

afterAll(async () => {
  await registry?.stop();
  if (work) rmSync(work, { recursive: true, force: true });
}, 120_000);

/** A fresh directory under the rehearsal's work directory. */
function project(name: string, manifest: Record<string, unknown> = {}): string {
  const dir = join(work, name);
  mkdirSync(dir);
  writeFileSync(join(dir, 'package.json'), JSON.stringify({ name, private: true, type: 'module', ...manifest }, null, 2));
  return dir;
}

describe('changeset version and publish', () => {
  test('every public package is published at one version, the bump the changesets ask for', async () => {
    const before = publishedDirs(root).map((dir) => manifestOf(join(root, dir)));
    expect(published.map((m) => m.name).sort()).toEqual(before.map((m) => m.name).sort());
    expect(new Set(published.map((m) => m.version))).toEqual(new Set([version]));
    // The changesets ask for minor at most: a 0.x minor bump (a peer dependency must not turn it into a major).
    const [major, minor] = before[0]!.version.split('.').map(Number) as [number, number];
    expect(version).toBe(`${major}.${minor + 1}.0`);
    for (const { name } of published) expect((await packument(registry!, name))['dist-tags'].latest, name).toBe(version);
    // And as npm itself sees it.
    const { stdout } = await run('npm', ['view', '@wiremcp/server', 'version'], { env, timeout: 60_000 });
    expect(stdout.trim()).toBe(version);
  }, 300_000);

  test('the tarballs: LICENSE, README, dist, no source maps, internal dependencies at the released version', async () => {
    expect(tarballs.size).toBeGreaterThanOrEqual(16);
    for (const [name, file] of tarballs) {
      const { stdout } = await run('tar', ['-tzf', file]);
      const files = stdout.split('\n').filter(Boolean);
      expect(files, name).toContain('package/LICENSE');
      expect(files, name).toContain('package/README.md');
      expect(
        files.some((f) => f.startsWith('package/dist/')),
        name,
      ).toBe(true);
      expect(
        files.filter((f) => f.endsWith('.map') || f.includes('dist/mcpb/')),
        name,
      ).toEqual([]);
      const manifest = JSON.parse((await run('tar', ['-xzOf', file, 'package/package.json'])).stdout) as Manifest & {
        repository?: { type: string; url: string; directory: string };
        publishConfig?: Record<string, unknown>;
      };
      expect(JSON.stringify(manifest), name).not.toMatch(/workspace:/);
      for (const [dep, range] of Object.entries(manifest.dependencies ?? {})) {
        if (dep.startsWith('@wiremcp/')) expect(range, `${name} → ${dep}`).toBe(version);
      }
      // Provenance-ready: `npm publish --provenance` requires repository to name the repository that built it.
      expect(manifest.repository, name).toMatchObject({ type: 'git', url: expect.stringMatching(/^git\+https:\/\/github\.com\//) });
      expect(manifest.publishConfig, name).toEqual({ access: 'public' });
    }
  }, 300_000);

  test('publint and @arethetypeswrong pass on every published tarball (one process for all)', async () => {
    const lint = join(import.meta.dirname, '..', 'scripts', 'lint-tarballs.mjs');
    const result = await run(process.execPath, [lint, ...tarballs.values()], { timeout: 300_000 }).catch(
      (error: { stdout?: string; stderr?: string }) => ({ stdout: error.stdout ?? '', stderr: error.stderr ?? String(error) }),
    );
    const reports = result.stdout
      .split('\n')
      .filter(Boolean)
      .map((line) => JSON.parse(line) as { file: string; publint: string[]; attw: string[] | null });
    expect(reports.map((r) => r.file).sort(), result.stderr).toEqual([...tarballs.values()].sort());
    expect(reports.filter((r) => r.publint.length > 0 || (r.attw?.length ?? 0) > 0)).toEqual([]);
    // Every library declares types and was checked; only bin-only packages may have none.
    expect(reports.filter((r) => r.attw !== null).length).toBeGreaterThanOrEqual(tarballs.size - 4);
  }, 300_000);
});

describe('the READMEs, followed literally against the registry', () => {
  test.each(['everything', 'filesystem', 'grammar', 'resources-demo'])(
    'servers/%s: the npx host configuration starts the server from the registry',
    async (server) => {
      const readme = readFileSync(join(root, 'servers', server, 'README.md'), 'utf8');
      const configs = codeBlocks(readme, 'json')
        .filter((block) => block.trimStart().startsWith('{')) // other json blocks show wire transcripts
        .map((block) => JSON.parse(block) as { mcpServers?: Record<string, { command: string; args: string[] }> })
        .flatMap((config) => Object.values(config.mcpServers ?? {}))
        .filter((entry) => entry.command === 'npx');
      expect(configs, 'an npx host configuration in the README').toHaveLength(1);
      const allowed = join(work, `allowed-${server}`);
      mkdirSync(allowed);
      const cwd = project(`host-${server}`);
      // The README's placeholder for a directory is the only thing replaced.
      const args = configs[0]!.args.map((arg) => (arg === '/path/to/allowed/dir' ? allowed : arg));
      const { serverInfo, tools } = await probeServer('npx', args, { cwd, env, timeoutMs: 180_000 });
      expect(serverInfo.name).toMatch(new RegExp(server.split('-')[0]!));
      expect(serverInfo.version, 'serverInfo.version is the released package version').toBe(version);
      expect(tools.length).toBeGreaterThan(2);
    },
    240_000,
  );

  test('npx -y @wiremcp/cli: its version is the released one, and it lists a server started through npx', async () => {
    const cwd = project('cli-user');
    const { stdout } = await run('npx', ['-y', '@wiremcp/cli', '--version'], { cwd, env, timeout: 180_000 });
    expect(stdout.trim()).toBe(version);
    // wiremcp hands a stdio server a safe set of variables (PATH, HOME, …), not its own environment: the npm settings
    // that point at the registry are passed on with -e, as a user with a registry in the environment would.
    const npmSettings = ['npm_config_userconfig', 'npm_config_registry', 'npm_config_cache'].flatMap((name) => [
      '-e',
      `${name}=${env[name]}`,
    ]);
    const listed = await run(
      'npx',
      ['-y', '@wiremcp/cli', 'list', '--json', '--only', 'tools', ...npmSettings, 'npx', '-y', '@wiremcp/server-grammar'],
      { cwd, env, timeout: 180_000 },
    );
    expect((JSON.parse(listed.stdout) as { tools: Array<{ name: string }> }).tools.map((t) => t.name)).toContain('lookup_spanish');
  }, 400_000);
});

/** The first TypeScript block of the @wiremcp/server README: the server a new user copies. */
const serverExample = (): string => codeBlocks(readFileSync(join(root, 'packages', 'server', 'README.md'), 'utf8'), 'ts')[0]!;

const TS_TOOLS = ['typescript@5.9.3', '@types/node@20.19.43'];
const RESOLUTIONS = [
  { moduleResolution: 'node16', module: 'node16' },
  { moduleResolution: 'nodenext', module: 'nodenext' },
  { moduleResolution: 'bundler', module: 'esnext' },
] as const;

/** Type-checks server.ts of `dir` under the three resolutions, with the project's own TypeScript. */
async function typecheck(dir: string): Promise<void> {
  writeFileSync(join(dir, 'server.ts'), serverExample());
  for (const options of RESOLUTIONS) {
    const tsconfig = `tsconfig.${options.moduleResolution}.json`;
    writeFileSync(
      join(dir, tsconfig),
      JSON.stringify({
        compilerOptions: { ...options, target: 'es2022', strict: true, noEmit: true, types: ['node'] },
        files: ['server.ts'],
      }),
    );
    const tsc = join(dir, 'node_modules', 'typescript', 'bin', 'tsc');
    await run(process.execPath, [tsc, '-p', tsconfig], { cwd: dir, timeout: 120_000 }).catch(
      (error: { stdout?: string; message?: string }) => {
        throw new Error(`tsc under ${options.moduleResolution}:\n${error.stdout}\n${error.message}`);
      },
    );
  }
}

/** Compiles the README server (nodenext) and answers `initialize` and `tools/list` from it. */
async function runExample(dir: string): Promise<void> {
  writeFileSync(
    join(dir, 'tsconfig.json'),
    JSON.stringify({
      compilerOptions: { module: 'nodenext', target: 'es2022', strict: true, types: ['node'], outDir: 'out' },
      files: ['server.ts'],
    }),
  );
  await run(process.execPath, [join(dir, 'node_modules', 'typescript', 'bin', 'tsc'), '-p', 'tsconfig.json'], {
    cwd: dir,
    timeout: 120_000,
  });
  const { serverInfo, tools } = await probeServer(process.execPath, ['out/server.js'], { cwd: dir, env, timeoutMs: 30_000 });
  expect(serverInfo).toEqual({ name: 'weather', version: '1.0.0' });
  expect(tools.map((t) => t.name)).toEqual(['get_forecast']);
}

describe('a clean project installs @wiremcp/server and @wiremcp/transport-stdio', () => {
  test('npm: README server type-checks under node16, nodenext and bundler, runs, and loads from CommonJS', async () => {
    const dir = project('npm-user');
    await run('npm', ['install', '@wiremcp/server', '@wiremcp/transport-stdio', ...TS_TOOLS], { cwd: dir, env, timeout: 300_000 });
    expect(
      (JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8')) as { dependencies: Record<string, string> }).dependencies,
    ).toMatchObject({
      '@wiremcp/server': `^${version}`,
    });
    await typecheck(dir);
    await runExample(dir);
    // require(esm): Node 20.19+, 22.12+ and 24 load ES modules from CommonJS; older Nodes cannot (documented).
    writeFileSync(
      join(dir, 'load.cjs'),
      "const { McpServer } = require('@wiremcp/server');\nconst { createProcessStdioTransport } = require('@wiremcp/transport-stdio');\n" +
        'console.log(typeof McpServer, typeof createProcessStdioTransport);\n',
    );
    const features = process.features as { require_module?: boolean };
    if (features.require_module) {
      const { stdout } = await run(process.execPath, ['load.cjs'], { cwd: dir, env, timeout: 30_000 });
      expect(stdout.trim()).toBe('function function');
    } else {
      await expect(run(process.execPath, ['load.cjs'], { cwd: dir, env, timeout: 30_000 })).rejects.toThrow(/ERR_REQUIRE_ESM/);
    }
  }, 600_000);

  test('pnpm: installs, type-checks and runs the README server', async () => {
    const dir = project('pnpm-user');
    await run(bins.pnpm, ['add', '@wiremcp/server', '@wiremcp/transport-stdio', ...TS_TOOLS, '--store-dir', join(work, 'pnpm-store')], {
      cwd: dir,
      env,
      timeout: 300_000,
    });
    await typecheck(dir);
    await runExample(dir);
  }, 600_000);

  test('yarn: installs, type-checks and runs the README server', async () => {
    const dir = project('yarn-user');
    // Yarn 4 (from npm) with the node_modules linker; immutable installs are its default under CI=true.
    writeFileSync(
      join(dir, '.yarnrc.yml'),
      `npmRegistryServer: "${registry!.url.replace(/\/$/, '')}"\nunsafeHttpWhitelist: ["127.0.0.1"]\nnodeLinker: node-modules\n` +
        'enableImmutableInstalls: false\nenableTelemetry: false\nenableGlobalCache: false\n' +
        // Yarn >= 4.10 installs no version younger than npmMinimalAgeGate (default one day): a release is
        // installable by yarn a day later, or at once by a project that pre-approves it (the root README says so).
        'npmPreapprovedPackages: ["@wiremcp/*"]\n',
    );
    writeFileSync(join(dir, 'yarn.lock'), '');
    await run('npx', ['-y', '-p', '@yarnpkg/cli-dist@4.18.1', 'yarn', 'add', '@wiremcp/server', '@wiremcp/transport-stdio', ...TS_TOOLS], {
      cwd: dir,
      env,
      timeout: 300_000,
    }).catch((error: { stdout?: string; message?: string }) => {
      throw new Error(`yarn add: ${error.message}\n${error.stdout ?? ''}`); // yarn reports on stdout
    });
    await typecheck(dir);
    await runExample(dir);
  }, 600_000);
});

describe('installed from the registry, used as the other READMEs show', () => {
  test('a client from the @wiremcp/client README talks to the README server in both eras; the installed bins work', async () => {
    const dir = project('client-user');
    await run(
      'npm',
      ['install', '@wiremcp/server', '@wiremcp/client', '@wiremcp/transport-stdio', '@wiremcp/cli', '@wiremcp/server-grammar'],
      {
        cwd: dir,
        env,
        timeout: 300_000,
      },
    );
    writeFileSync(
      join(dir, 'server.mjs'),
      `import { McpServer } from '@wiremcp/server';
import { createProcessStdioTransport } from '@wiremcp/transport-stdio';
const server = new McpServer({ name: 'weather', version: '1.0.0' });
server.registerTool(
  { name: 'get_forecast', inputSchema: { type: 'object', properties: { city: { type: 'string' } }, required: ['city'] } },
  async ({ city }) => ({ content: [{ type: 'text', text: '21 °C in ' + city }] }),
);
await server.connect(createProcessStdioTransport());
`,
    );
    writeFileSync(
      join(dir, 'client.mjs'),
      `import { McpClient } from '@wiremcp/client';
import { StdioClientTransport } from '@wiremcp/transport-stdio';
const out = [];
for (const era of ['legacy', 'modern']) {
  const client = new McpClient({ name: 'my-app', version: '1.0.0' }, { era });
  await client.connect(new StdioClientTransport({ command: process.execPath, args: ['server.mjs'] }));
  out.push({ era: client.era, text: (await client.callTool('get_forecast', { city: 'Paris' })).content[0].text });
  await client.close();
}
console.log(JSON.stringify(out));
`,
    );
    const { stdout } = await run(process.execPath, ['client.mjs'], { cwd: dir, timeout: 30_000 });
    expect(JSON.parse(stdout)).toEqual([
      { era: 'legacy', text: '21 °C in Paris' },
      { era: 'modern', text: '21 °C in Paris' },
    ]);
    const bin = (name: string): string => join(dir, 'node_modules', '.bin', name);
    const called = await run(bin('wiremcp'), ['call', '--json', '-a', 'english_form=ate', 'lookup_spanish', bin('wiremcp-grammar')], {
      cwd: dir,
      timeout: 30_000,
    });
    expect(JSON.parse(called.stdout)).toMatchObject({ content: [{ type: 'text', text: 'comió' }] });
    // A server's stdout carries protocol only: its --version goes to stderr, the command's to stdout.
    expect((await run(bin('wiremcp-grammar'), ['--version'], { cwd: dir, timeout: 30_000 })).stderr.trim()).toBe(
      `wiremcp-grammar ${version}`,
    );
    expect((await run(bin('wiremcp'), ['--version'], { cwd: dir, timeout: 30_000 })).stdout.trim()).toBe(version);
    // What a project does with a server installed from a registry: dependencies found under node_modules.
    const out = join(work, 'grammar-bundle');
    const packed = await run(bin('wiremcp'), ['pack', '--out', out, join(dir, 'node_modules', '@wiremcp', 'server-grammar')], {
      cwd: dir,
      timeout: 120_000,
    });
    expect(packed.stdout).toMatch(/the bundled server started and listed \d+ tools/);
    expect(readdirSync(out)).toEqual([`wiremcp-grammar-${version}.mcpb`]);
  }, 600_000);
});
