/**
 * The files of a new reference server (see `new-server.ts`): a package in the shape of the others in
 * `servers/`, with one tool typed from its JSON Schema, its bin on `runServerMain`, a test of both eras, a
 * README with the host configuration, and the registry and bundle metadata `wiremcp pack` reads (its build runs
 * it). The sources are the files of `templates/server` (shipped with the package), with `{{name}}`, `{{bin}}` and `{{factory}}` filled in.
 */
import { readFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';

/** Template file → where it goes in the new package. */
const TEMPLATES: Record<string, string> = {
  'server.ts.tmpl': 'src/server.ts',
  'bin.ts.tmpl': 'src/bin.ts',
  'server.test.ts.tmpl': 'src/server.test.ts',
  'README.md.tmpl': 'README.md',
};

// From dist/ (or src/) to the package's templates directory.
const TEMPLATE_DIR = new URL('../templates/server/', import.meta.url);

/** Relative path → contents of every file of the server `name`. */
export async function serverFiles(name: string): Promise<Record<string, string>> {
  const bin = `wiremcp-${name}`;
  const factory = `create${name.replace(/(^|-)([a-z0-9])/g, (_m, _dash: string, c: string) => c.toUpperCase())}Server`;
  const packageJson = {
    name: `@wiremcp/server-${name}`,
    version: '0.1.0',
    // The registry name: the namespace must be one the publisher can prove (see `wiremcp pack --help`).
    mcpName: `io.github.wiremcp/server-${name}`,
    private: true,
    description: `The ${name} MCP server, built on wiremcp.`,
    license: 'MIT',
    author: 'wiremcp contributors',
    type: 'module',
    bin: { [bin]: `./bin/${bin}.js` },
    exports: { '.': { types: './dist/index.d.ts', 'wiremcp-source': './src/index.ts', default: './dist/index.js' } },
    files: ['bin', 'dist', '!dist/mcpb', 'README.md'],
    engines: { node: '>=20' },
    // `wiremcp pack` writes server.json (MCP registry) and dist/mcpb/<bin>-<version>.mcpb (MCP Bundle).
    scripts: { build: 'tsc -p tsconfig.build.json && wiremcp pack' },
    dependencies: { '@wiremcp/process': 'workspace:*', '@wiremcp/server': 'workspace:*' },
    devDependencies: { '@wiremcp/cli': 'workspace:*', '@wiremcp/client': 'workspace:*', '@wiremcp/jsonrpc': 'workspace:*' },
    wiremcp: { server: { title: name, httpFlag: '--http' } },
  };
  const tsconfig = {
    extends: '../../tsconfig.base.json',
    compilerOptions: { rootDir: 'src', outDir: 'dist', lib: ['ES2022', 'DOM', 'ESNext.Disposable'], types: ['node'] },
    include: ['src/**/*.ts'],
    exclude: ['src/**/*.test.ts', 'src/**/*.test-util.ts'],
  };
  const files: Record<string, string> = {
    'package.json': `${JSON.stringify(packageJson, null, 2)}\n`,
    'tsconfig.build.json': `${JSON.stringify(tsconfig, null, 2)}\n`,
    [`bin/${bin}.js`]: `#!/usr/bin/env node\nimport '../dist/bin.js';\n`,
    'src/index.ts': `export { ${factory}, SERVER_INFO } from './server.js';\n`,
  };
  const fill = (text: string): string => text.replaceAll('{{name}}', name).replaceAll('{{bin}}', bin).replaceAll('{{factory}}', factory);
  for (const [template, path] of Object.entries(TEMPLATES)) {
    files[path] = fill(await readFile(fileURLToPath(new URL(template, TEMPLATE_DIR)), 'utf8'));
  }
  return files;
}
