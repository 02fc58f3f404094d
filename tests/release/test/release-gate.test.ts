/**
 * The release gate: every published package packed as `pnpm publish` would pack it, the tarballs checked (a
 * LICENSE, no source maps pointing at sources that are not shipped, the entry points present), installed with npm
 * into a fresh project outside the workspace (third-party dependencies from the registry), and used as a user
 * would: a server written as the `@wiremcp/server` README shows, a client as the `@wiremcp/client` README shows,
 * a reference server through its bin, and the `wiremcp` command.
 */
import { execFile } from 'node:child_process';
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';

const run = promisify(execFile);
const root = join(import.meta.dirname, '..', '..', '..');
const pnpm = join(root, 'node_modules', '.bin', 'pnpm');

interface Manifest {
  name: string;
  version: string;
  private?: boolean;
  bin?: Record<string, string>;
}

function publishedDirs(): string[] {
  return ['packages', 'servers'].flatMap((group) =>
    readdirSync(join(root, group))
      .map((name) => join(root, group, name))
      .filter((dir) => (JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8')) as Manifest).private !== true),
  );
}

let work: string;
let project: string;
const tarballs = new Map<string, string>();

beforeAll(async () => {
  work = mkdtempSync(join(tmpdir(), 'wiremcp-release-'));
  const packs = join(work, 'tarballs');
  mkdirSync(packs);
  for (const dir of publishedDirs()) {
    const manifest = JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8')) as Manifest;
    const { stdout } = await run(pnpm, ['pack', '--pack-destination', packs], { cwd: dir, timeout: 60_000 });
    const file = stdout.trim().split('\n').pop()!.trim();
    tarballs.set(manifest.name, file.startsWith('/') ? file : join(packs, file));
  }
  project = join(work, 'project');
  mkdirSync(project);
  const deps = Object.fromEntries([...tarballs].map(([name, file]) => [name, `file:${file}`]));
  // The tarballs depend on each other by version (0.1.0): the overrides make npm take them from here, not the registry.
  writeFileSync(
    join(project, 'package.json'),
    JSON.stringify({ name: 'release-gate', private: true, type: 'module', dependencies: deps, overrides: deps }, null, 2),
  );
  await run('npm', ['install', '--no-audit', '--no-fund', '--ignore-scripts', '--loglevel=error'], { cwd: project, timeout: 240_000 });
}, 300_000);

afterAll(() => {
  if (work) rmSync(work, { recursive: true, force: true });
});

describe('the tarballs', () => {
  test('every published package: LICENSE, README, dist, no source maps, no workspace: ranges', async () => {
    expect(tarballs.size).toBeGreaterThanOrEqual(15);
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
        files.filter((f) => f.endsWith('.map')),
        name,
      ).toEqual([]);
      const { stdout: manifest } = await run('tar', ['-xzOf', file, 'package/package.json']);
      expect(manifest, name).not.toMatch(/workspace:/);
    }
  });
});

describe('installed outside the workspace', () => {
  test('a server from the @wiremcp/server README and a client from the @wiremcp/client README talk, in both eras', async () => {
    writeFileSync(
      join(project, 'server.mjs'),
      `import { McpServer } from '@wiremcp/server';
import { createProcessStdioTransport } from '@wiremcp/transport-stdio';
const server = new McpServer({ name: 'weather', version: '1.0.0' }, { instructions: 'Use get_forecast.' });
server.registerTool(
  {
    name: 'get_forecast',
    inputSchema: { type: 'object', properties: { city: { type: 'string' } }, required: ['city'] },
    outputSchema: { type: 'object', properties: { celsius: { type: 'number' } }, required: ['celsius'] },
  },
  async ({ city }) => ({ content: [{ type: 'text', text: '21 °C in ' + city }], structuredContent: { celsius: 21 } }),
);
await server.connect(createProcessStdioTransport());
`,
    );
    writeFileSync(
      join(project, 'client.mjs'),
      `import { McpClient } from '@wiremcp/client';
import { StdioClientTransport } from '@wiremcp/transport-stdio';
const out = [];
for (const era of ['legacy', 'modern']) {
  const client = new McpClient({ name: 'my-app', version: '1.0.0' }, { era });
  await client.connect(new StdioClientTransport({ command: process.execPath, args: ['server.mjs'] }));
  const result = await client.callTool('get_forecast', { city: 'Paris' });
  out.push({ era: client.era, text: result.content[0].text, structured: result.structuredContent });
  await client.close();
}
console.log(JSON.stringify(out));
`,
    );
    const { stdout } = await run(process.execPath, ['client.mjs'], { cwd: project, timeout: 30_000 });
    expect(JSON.parse(stdout)).toEqual([
      { era: 'legacy', text: '21 °C in Paris', structured: { celsius: 21 } },
      { era: 'modern', text: '21 °C in Paris', structured: { celsius: 21 } },
    ]);
  });

  test('a reference server through its installed bin, inspected with the installed wiremcp command', async () => {
    const bin = (name: string): string => join(project, 'node_modules', '.bin', name);
    const { stdout } = await run(bin('wiremcp'), ['call', '--json', '-a', 'english_form=ate', 'lookup_spanish', bin('wiremcp-grammar')], {
      cwd: project,
      timeout: 30_000,
    });
    expect(JSON.parse(stdout)).toMatchObject({ content: [{ type: 'text', text: 'comió' }] });
    const listed = await run(bin('wiremcp'), ['list', '--json', '--only', 'tools', bin('wiremcp-everything')], {
      cwd: project,
      timeout: 30_000,
    });
    expect((JSON.parse(listed.stdout) as { tools: unknown[] }).tools.length).toBeGreaterThan(5);
  });

  test('the installed wiremcp packs an installed reference server: server.json and a bundle that starts', async () => {
    // What a project (or a release rehearsal) does with packages installed from a registry: dependencies are found
    // under node_modules and copied as published.
    const installed = join(project, 'node_modules', '@wiremcp', 'server-grammar');
    const out = join(work, 'grammar-bundle');
    const { stdout } = await run(join(project, 'node_modules', '.bin', 'wiremcp'), ['pack', '--out', out, installed], {
      cwd: project,
      timeout: 120_000,
    });
    expect(stdout).toMatch(/the bundled server started and listed \d+ tools/);
    expect(JSON.parse(readFileSync(join(installed, 'server.json'), 'utf8'))).toMatchObject({ name: 'io.github.wiremcp/server-grammar' });
    expect(readdirSync(out)).toEqual([expect.stringMatching(/^wiremcp-grammar-.*\.mcpb$/)]);
  });
});
