/**
 * The published packages' surface, pinned: what each may depend on and import, that the core packages are
 * web-standard (no Node built-ins, no Node globals, no runtime dependencies), the `exports` maps and the
 * names each entry exports. A change to any of these is deliberate: update the pin in the same commit.
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, test } from 'vitest';
import { PINNED_NAMES } from './pinned-names.js';

const root = join(import.meta.dirname, '..', '..', '..');

interface PackageJson {
  name: string;
  version?: string;
  sideEffects?: boolean;
  files?: string[];
  engines?: { node?: string };
  dependencies?: Record<string, string>;
  exports?: Record<string, Record<string, string> | string>;
}

function readPackage(dir: string): PackageJson {
  return JSON.parse(readFileSync(join(root, 'packages', dir, 'package.json'), 'utf8')) as PackageJson;
}

function sources(dir: string): string[] {
  const out: string[] = [];
  const walk = (path: string): void => {
    for (const name of readdirSync(path)) {
      const full = join(path, name);
      if (statSync(full).isDirectory()) walk(full);
      else if (full.endsWith('.ts') && !/\.test(-util)?\.ts$/.test(full) && !full.endsWith('.test.ts')) out.push(full);
    }
  };
  walk(join(root, 'packages', dir, 'src'));
  return out;
}

function importsOf(file: string): string[] {
  const text = readFileSync(file, 'utf8');
  const found = new Set<string>();
  for (const match of text.matchAll(/(?:^|\n)\s*(?:import|export)\s[^'"]*?from\s+['"]([^'"]+)['"]/g)) found.add(match[1]!);
  for (const match of text.matchAll(/import\(\s*['"]([^'"]+)['"]\s*\)/g)) found.add(match[1]!);
  return [...found].filter((specifier) => !specifier.startsWith('.'));
}

/** Package directory → the packages its sources may import (the DESIGN.md arrows, see docs/architecture.md). */
const ALLOWED: Record<string, string[]> = {
  protocol: [],
  framing: [],
  jsonrpc: ['@wiremcp/protocol'],
  'json-schema': ['ajv', 'ajv/dist/2020.js', 'ajv-formats', '@standard-schema/spec', '@cfworker/json-schema'],
  client: ['@wiremcp/jsonrpc', '@wiremcp/protocol', '@wiremcp/json-schema'],
  server: ['@wiremcp/jsonrpc', '@wiremcp/protocol', '@wiremcp/json-schema'],
  'transport-stdio': [
    '@wiremcp/framing',
    '@wiremcp/jsonrpc',
    '@wiremcp/protocol',
    'node:child_process',
    'node:stream',
    'node:events',
    'node:process',
    'node:buffer',
    'node:string_decoder',
    'node:util',
  ],
  'transport-websocket': ['@wiremcp/jsonrpc', '@wiremcp/protocol', 'ws', 'node:http', 'node:net', 'node:stream'],
  process: [
    '@wiremcp/auth/server',
    '@wiremcp/jsonrpc',
    // `--rate-limit`: the limiter installed with the server's `use()`.
    '@wiremcp/server',
    '@wiremcp/transport-stdio',
    '@wiremcp/transport-http',
    '@wiremcp/transport-http/node',
    '@wiremcp/transport-websocket/node',
    '@wiremcp/redis',
    '@wiremcp/otel/metrics',
    '@wiremcp/otel/node',
    // --otel only (optional dependencies, loaded by import()).
    '@wiremcp/otel',
    '@opentelemetry/api',
    '@opentelemetry/context-async-hooks',
    '@opentelemetry/core',
    '@opentelemetry/resources',
    '@opentelemetry/sdk-trace',
    '@opentelemetry/exporter-trace-otlp-http',
    '@opentelemetry/exporter-trace-otlp-proto',
    'node:child_process',
    'node:console',
    'node:fs',
    'node:os',
    'node:stream',
    'node:util',
  ],
  'transport-http': [
    '@wiremcp/jsonrpc',
    '@wiremcp/protocol',
    'node:fs/promises',
    'node:http',
    'node:http2',
    'node:https',
    'node:net',
    'node:stream',
  ],
  redis: ['@wiremcp/server', '@wiremcp/transport-http', 'ioredis'],
  'ext-skills': ['@wiremcp/client', '@wiremcp/protocol', '@wiremcp/server', 'yaml', 'node:fs', 'node:fs/promises'],
  'ext-apps': ['@wiremcp/server'],
  otel: ['@opentelemetry/api', '@wiremcp/jsonrpc', 'node:http', 'node:net'],
  cli: [
    '@wiremcp/auth/client',
    '@wiremcp/auth/node',
    '@wiremcp/client',
    '@wiremcp/ext-apps',
    '@wiremcp/ext-apps/host',
    '@wiremcp/ext-skills',
    '@wiremcp/framing',
    '@wiremcp/host',
    '@wiremcp/json-schema',
    '@wiremcp/jsonrpc',
    '@wiremcp/process',
    '@wiremcp/protocol',
    '@wiremcp/server',
    '@wiremcp/transport-http',
    '@wiremcp/transport-stdio',
    'commander',
    'esbuild',
    'fflate',
    'picocolors',
    'node:child_process',
    'node:crypto',
    'node:fs',
    'node:fs/promises',
    'node:http',
    'node:net',
    'node:os',
    'node:path',
    'node:url',
  ],
  host: [
    '@wiremcp/auth',
    '@wiremcp/auth/client',
    '@wiremcp/auth/node',
    '@wiremcp/client',
    '@wiremcp/jsonrpc',
    '@wiremcp/protocol',
    '@wiremcp/transport-http',
    '@wiremcp/transport-stdio',
    'jsonc-parser',
    'node:fs/promises',
    'node:os',
    'node:path',
    'node:util',
  ],
  auth: [
    '@wiremcp/protocol',
    'jose',
    'oauth4webapi',
    'node:child_process',
    'node:crypto',
    'node:dns/promises',
    'node:fs/promises',
    'node:http',
    'node:net',
    'node:path',
  ],
};

const WEB_STANDARD = [
  'protocol',
  'framing',
  'jsonrpc',
  'json-schema',
  'client',
  'server',
  'auth',
  'transport-http',
  'ext-skills',
  'ext-apps',
  'otel',
];
/** Node-only subpaths of otherwise web-standard packages (their `./node` entry), skipped by the web-standard check. */
const NODE_ONLY_DIRS: Record<string, string> = { auth: 'node', 'transport-http': 'node', 'ext-skills': 'node', otel: 'node' };
const NO_RUNTIME_DEPENDENCIES: Record<string, string[]> = { protocol: [], framing: [], jsonrpc: ['@wiremcp/protocol'], 'ext-apps': [] };
/** Web-standard entries of Node-only packages (`packages/<dir>/src/<sub>`), with the package files they may also use. */
const WEB_STANDARD_ENTRIES: Record<string, { dir: string; alsoUses: string[] }> = {
  'host/llm': { dir: join('host', 'src', 'llm'), alsoUses: [join('host', 'src', 'host', 'host-error.ts')] },
};

describe('dependencies and imports', () => {
  test.each(Object.entries(NO_RUNTIME_DEPENDENCIES))('%s has no runtime dependency beyond its arrows', (dir, allowed) => {
    expect(Object.keys(readPackage(dir).dependencies ?? {}).sort()).toEqual([...allowed].sort());
  });

  test.each(Object.keys(ALLOWED))('%s imports only what its arrows allow', (dir) => {
    const allowed = new Set(ALLOWED[dir]);
    const offending = sources(dir).flatMap((file) =>
      importsOf(file)
        .filter((s) => !allowed.has(s))
        .map((s) => `${file}: ${s}`),
    );
    expect(offending).toEqual([]);
  });

  test.each(WEB_STANDARD)('%s uses no Node built-in and no Node global', (dir) => {
    const offending: string[] = [];
    const nodeOnly = NODE_ONLY_DIRS[dir];
    const files = sources(dir).filter((file) => nodeOnly === undefined || !file.startsWith(join(root, 'packages', dir, 'src', nodeOnly)));
    for (const file of files) {
      const text = readFileSync(file, 'utf8').replace(/\/\*[\s\S]*?\*\/|\/\/.*$/gm, '');
      if (/from\s+['"](node:|fs|path|os|child_process|http|https|net|stream|crypto|buffer|events|util)['"]/.test(text))
        offending.push(`${file}: Node import`);
      // A bare identifier, not a member or private name (`#require`, `x.process`), nor a word in a quoted string.
      const code = text.replace(/'(?:[^'\\\n]|\\.)*'|"(?:[^"\\\n]|\\.)*"/g, "''");
      if (/(?<![#.\w$])(Buffer|process|__dirname|__filename|setImmediate)\b|(?<![#.\w$])require\s*\(/.test(code))
        offending.push(`${file}: Node global`);
    }
    expect(offending).toEqual([]);
  });
});

describe('web-standard entries of Node packages', () => {
  test.each(Object.entries(WEB_STANDARD_ENTRIES))('%s uses no Node built-in and no Node global', (_entry, { dir, alsoUses }) => {
    const files = [
      ...readdirSync(join(root, 'packages', dir))
        .filter((name) => name.endsWith('.ts') && !/\.test(-util)?\.ts$/.test(name))
        .map((name) => join(root, 'packages', dir, name)),
      ...alsoUses.map((file) => join(root, 'packages', file)),
    ];
    const offending: string[] = [];
    for (const file of files) {
      const text = readFileSync(file, 'utf8').replace(/\/\*[\s\S]*?\*\/|\/\/.*$/gm, '');
      if (/from\s+['"]node:/.test(text) || /(?<![#.\w$])(Buffer|process|__dirname|__filename|setImmediate)\b/.test(text))
        offending.push(file);
      for (const match of text.matchAll(/from\s+['"](\.[^'"]+)['"]/g)) {
        const target = join(file, '..', match[1]!.replace(/\.js$/, '.ts'));
        if (!target.startsWith(join(root, 'packages', dir)) && !alsoUses.some((f) => target === join(root, 'packages', f)))
          offending.push(`${file}: ${match[1]}`);
      }
    }
    expect(offending).toEqual([]);
  });
});

describe('package manifests', () => {
  const published = readdirSync(join(root, 'packages'));

  test.each(published)('%s: exports with types first, sideEffects false, files, version, engines, README with an example', (dir) => {
    const pkg = readPackage(dir);
    expect(pkg.name).toBe(`@wiremcp/${dir}`);
    expect(pkg.version).toMatch(/^\d+\.\d+\.\d+/);
    expect(pkg.sideEffects).toBe(false);
    expect(pkg.files).toContain('dist');
    expect(pkg.engines?.node).toBe('>=20');
    for (const [key, target] of Object.entries(pkg.exports ?? {})) {
      if (key === './package.json') continue;
      expect(typeof target).toBe('object');
      expect(Object.keys(target as object)[0]).toBe('types');
    }
    const readme = readFileSync(join(root, 'packages', dir, 'README.md'), 'utf8');
    expect(readme).toMatch(/```(ts|typescript|js)\n[\s\S]*?import[\s\S]*?```/);
  });
});

describe('pinned exports', () => {
  const EXPORT_KEYS: Record<string, string[]> = {
    protocol: [
      '.',
      './package.json',
      ...['2024-11-05', '2025-03-26', '2025-06-18', '2025-11-25', '2026-07-28'].flatMap((v) => [`./schemas/${v}`, `./validators/${v}`]),
      './validators',
    ],
    framing: ['.', './package.json'],
    jsonrpc: ['.', './package.json'],
    'json-schema': ['.', './package.json'],
    server: ['.', './package.json'],
    client: ['.', './package.json'],
    'transport-stdio': ['.', './package.json'],
    process: ['.', './package.json'],
    auth: ['.', './client', './node', './package.json', './server'],
    'transport-http': ['.', './node', './package.json'],
    'transport-websocket': ['.', './node', './package.json'],
    redis: ['.', './package.json'],
    'ext-skills': ['.', './node', './package.json', './server'],
    'ext-apps': ['.', './host', './package.json', './server'],
    otel: ['.', './metrics', './node', './package.json'],
    cli: ['.', './package.json'],
    host: ['.', './llm', './package.json'],
  };

  test.each(Object.entries(EXPORT_KEYS))('%s export paths', (dir, keys) => {
    expect(Object.keys(readPackage(dir).exports ?? {}).sort()).toEqual([...keys].sort());
  });

  const NAMES = PINNED_NAMES;

  test.each(Object.entries(NAMES))('%s runtime exports', async (entry, names) => {
    const [dir, sub] = entry.split('/') as [string, string | undefined];
    const file = sub === undefined ? join(root, 'packages', dir, 'src', 'index.ts') : join(root, 'packages', dir, 'src', sub, 'index.ts');
    const module = (await import(file)) as Record<string, unknown>;
    expect(Object.keys(module).sort()).toEqual([...names].sort());
  });
});
