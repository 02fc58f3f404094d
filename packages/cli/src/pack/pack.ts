/**
 * `wiremcp pack [dir]`: makes a server package installable the two ways hosts install servers now — `server.json`
 * for the MCP registry (written next to package.json, where `mcp-publisher` reads it; checked against the
 * registry's schema before it is written) and an MCP Bundle (`.mcpb`, one file a desktop host installs with a
 * click; in `dist/mcpb/` unless `--out`). The bundle is staged in a temporary directory, its server started from
 * there and listed, then archived: a bundle is written only if it starts and answers.
 */
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { CLI_EXIT_CODES, CliError } from '../exit-codes.js';
import { archiveDirectory } from './bundle-archive.js';
import { buildMcpbManifest, type ServerOffer } from './mcpb-manifest.js';
import { readServerPackage } from './pack-config.js';
import { probeServer } from './probe-server.js';
import { buildServerJson } from './server-json.js';
import { stageServerFiles } from './stage-files.js';

/** Options of {@link runPack}. */
export interface PackOptions {
  /** Where the `.mcpb` goes (default `<dir>/dist/mcpb`). */
  readonly out?: string;
  /** The bin to run when the package has several. */
  readonly bin?: string;
  /** List the bundle in server.json at this download URL (`{version}` and `{file}` are filled in). */
  readonly bundleUrl?: string;
  /** Start the staged server and list its tools (default true). */
  readonly probe?: boolean;
  /** Do not write server.json: fail when the one on disk differs from what would be written. */
  readonly check?: boolean;
}

/** What a pack produced. */
export interface PackResult {
  readonly serverJsonPath: string;
  readonly serverJson: Record<string, unknown>;
  readonly bundlePath: string;
  readonly sha256: string;
  readonly files: number;
  readonly bytes: number;
  readonly offer: ServerOffer;
}

const SCHEMA_URL = new URL('../../schemas/server.schema.2025-12-11.json', import.meta.url);

/** Validates a server.json document against the vendored registry schema; throws a readable error. */
export async function checkServerJson(document: unknown): Promise<void> {
  const { createSchemaCompiler } = await import('@wiremcp/json-schema');
  const schema = JSON.parse(await readFile(SCHEMA_URL, 'utf8')) as object;
  const validate = await createSchemaCompiler({ maxSchemaBytes: 1024 * 1024 }).compile(schema);
  const outcome = validate(document);
  if (!outcome.valid) {
    throw new CliError(
      `server.json does not follow the registry schema 2025-12-11:\n  - ${outcome.errors.join('\n  - ')}`,
      CLI_EXIT_CODES.usage,
    );
  }
}

/** Packs the server package in `dir`. */
export async function packServer(dir: string, options: PackOptions = {}): Promise<PackResult> {
  const root = resolve(dir);
  const pkg = await readServerPackage(root, options.bin);
  const out = resolve(root, options.out ?? join('dist', 'mcpb'));
  const stage = await mkdtemp(join(tmpdir(), 'wiremcp-pack-'));
  try {
    for (const file of await stageServerFiles(root, pkg.manifest, out)) {
      const target = join(stage, file.path);
      await mkdir(dirname(target), { recursive: true });
      await writeFile(target, file.content ?? (await readFile(file.source!)), { mode: file.mode });
    }
    const offer: ServerOffer =
      options.probe === false ? { tools: [], prompts: [] } : await probeServer(pkg, join(stage, 'server', pkg.binPath));
    await writeFile(join(stage, 'manifest.json'), `${JSON.stringify(buildMcpbManifest(pkg, offer), null, 2)}\n`);
    const archive = await archiveDirectory(stage);
    const fileName = `${pkg.binName}-${pkg.manifest.version}.mcpb`;
    const bundlePath = join(out, fileName);
    await mkdir(out, { recursive: true });
    await writeFile(bundlePath, archive.bytes);
    const url = options.bundleUrl?.replaceAll('{version}', pkg.manifest.version).replaceAll('{file}', fileName);
    const serverJson = buildServerJson(pkg, url ? { url, sha256: archive.sha256 } : undefined);
    await checkServerJson(serverJson);
    const serverJsonPath = join(root, 'server.json');
    const text = `${JSON.stringify(serverJson, null, 2)}\n`;
    if (options.check) {
      const current = await readFile(serverJsonPath, 'utf8').catch(() => undefined);
      if (current !== text)
        throw new CliError(`${serverJsonPath} is not up to date: run wiremcp pack without --check`, CLI_EXIT_CODES.serverError);
    } else {
      await writeFile(serverJsonPath, text);
    }
    return { serverJsonPath, serverJson, bundlePath, sha256: archive.sha256, files: archive.files, bytes: archive.bytes.length, offer };
  } finally {
    await rm(stage, { recursive: true, force: true });
  }
}

/** The `pack` command: packs and prints what was written; resolves with exit code 0. */
export async function runPack(dir: string, options: PackOptions, print: (text: string) => void): Promise<number> {
  const result = await packServer(dir, options);
  const kib = (result.bytes / 1024).toFixed(0);
  print(
    `${options.check ? 'checked' : 'wrote'} ${result.serverJsonPath}\n` +
      `wrote ${result.bundlePath} (${result.files} files, ${kib} KiB, sha256 ${result.sha256})\n` +
      (options.probe === false
        ? 'the bundled server was not started (--no-probe): the manifest lists no tools\n'
        : `the bundled server started and listed ${result.offer.tools.length} tools` +
          (result.offer.prompts.length > 0 ? ` and ${result.offer.prompts.length} prompts` : '') +
          '\n'),
  );
  return CLI_EXIT_CODES.ok;
}
