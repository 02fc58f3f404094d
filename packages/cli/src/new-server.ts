/**
 * `wiremcp new server <name>`: scaffolds a reference server in a wiremcp workspace — `servers/<name>` (package,
 * bin, server with one typed tool, a test, README with host configuration) and its entry in the conformance
 * registry (`apps/conformance/servers.yaml`) — so that after `pnpm install` it builds, its test passes and the
 * conformance app runs it, as the reference servers are.
 */
import { existsSync } from 'node:fs';
import { appendFile, mkdir, readFile, writeFile } from 'node:fs/promises';
import { dirname, join, resolve } from 'node:path';
import { CLI_EXIT_CODES, CliError } from './exit-codes.js';
import { serverFiles } from './server-template.js';

/** The workspace root from `start` upwards: the directory holding `pnpm-workspace.yaml` and `servers/`. */
export function findWorkspaceRoot(start: string): string | undefined {
  let dir = resolve(start);
  for (;;) {
    if (existsSync(join(dir, 'pnpm-workspace.yaml')) && existsSync(join(dir, 'servers'))) return dir;
    const parent = dirname(dir);
    if (parent === dir) return undefined;
    dir = parent;
  }
}

/** Writes the server package and registers it; resolves with exit code 0. Refuses a bad name or an existing server. */
export async function scaffoldServer(name: string, from: string, print: (text: string) => void): Promise<number> {
  if (!/^[a-z][a-z0-9]*(-[a-z0-9]+)*$/.test(name) || name.length > 40) {
    throw new CliError(
      `a server name is kebab-case letters and digits (e.g. weather, unit-converter), got ${JSON.stringify(name)}`,
      CLI_EXIT_CODES.usage,
    );
  }
  const root = findWorkspaceRoot(from);
  if (root === undefined)
    throw new CliError('not inside a wiremcp workspace (no pnpm-workspace.yaml with servers/ above here)', CLI_EXIT_CODES.usage);
  const dir = join(root, 'servers', name);
  if (existsSync(dir)) throw new CliError(`servers/${name} exists already`, CLI_EXIT_CODES.usage);
  const registry = join(root, 'apps', 'conformance', 'servers.yaml');
  const registered = existsSync(registry) ? await readFile(registry, 'utf8') : undefined;
  if (registered !== undefined && new RegExp(`^\\s*- id: ${name}\\s*$`, 'm').test(registered)) {
    throw new CliError(`the conformance registry already has a server '${name}'`, CLI_EXIT_CODES.usage);
  }
  const files = await serverFiles(name);
  for (const [path, text] of Object.entries(files)) {
    await mkdir(dirname(join(dir, path)), { recursive: true });
    await writeFile(join(dir, path), text, { mode: path.startsWith('bin/') ? 0o755 : 0o644 });
  }
  if (registered !== undefined) await appendFile(registry, registryEntry(name, registered.endsWith('\n')));
  print(
    `Created servers/${name} (${Object.keys(files).length} files)${registered === undefined ? '' : ' and its entry in apps/conformance/servers.yaml'}.\n` +
      'Next: pnpm install, then npm test; try it with\n' +
      `  wiremcp list node servers/${name}/bin/wiremcp-${name}.js\n`,
  );
  return CLI_EXIT_CODES.ok;
}

/**
 * The registry entry: the bin (runServerMain) serves stdio in both framings, with --http the three HTTP wires, and
 * with --ws WebSocket (every revision on one endpoint), as the reference servers' entries say.
 */
function registryEntry(name: string, endsWithNewline: boolean): string {
  return `${endsWithNewline ? '' : '\n'}
  - id: ${name}
    title: ${name} server (servers/${name})
    command: [node, servers/${name}/dist/bin.js]
    requiresFiles: [servers/${name}/dist/bin.js]
    revisions: all
    capabilities: [tools, logging]
    features: [dual-era]
    serverInfo: { name: wiremcp-${name} }
    transports:
      stdio-ndjson: { args: [--framing, ndjson] }
      stdio-content-length: { args: [--framing, content-length] }
      streamable-http: { args: [--http, '127.0.0.1:{{port}}'], url: 'http://127.0.0.1:{{port}}/mcp', revisions: [2025-03-26, 2025-06-18, 2025-11-25] }
      streamable-http-stateless: { args: [--http, '127.0.0.1:{{port}}'], url: 'http://127.0.0.1:{{port}}/mcp', revisions: [2026-07-28] }
      http-sse: { args: [--http, '127.0.0.1:{{port}}', --legacy-sse], url: 'http://127.0.0.1:{{port}}/sse', revisions: [2024-11-05] }
      websocket: { args: [--ws, '127.0.0.1:{{port}}'], url: 'ws://127.0.0.1:{{port}}/mcp' }
`;
}
