/**
 * The files of a bundle's `server/` directory: the server package as npm would publish it, and every production
 * dependency it needs at run time, found the way Node finds them (the nearest `node_modules/<name>` upwards from
 * the package that needs it) and laid out as npm would hoist them (`server/node_modules/<name>`, nested under the
 * package that needs it when another version already took the name). Packages linked from a workspace (pnpm, npm
 * and yarn workspaces, `file:` links) contribute the files `npm pack` would publish — read from their `files` field
 * when it lists plain paths and negated globs, else from one `npm pack --dry-run --json` for all the others — with
 * `workspace:` ranges in their package.json replaced by the versions found; packages installed from a registry
 * are copied whole (less their own `node_modules`), as they were published. Type declarations and source maps are
 * left out: nothing loads them at run time.
 */
import { execFile } from 'node:child_process';
import type { Dirent } from 'node:fs';
import { readdir, readFile, realpath, stat } from 'node:fs/promises';
import { dirname, join, relative, sep } from 'node:path';
import { CLI_EXIT_CODES, CliError } from '../exit-codes.js';
import type { PackageManifest } from './pack-config.js';

/** Runs a command to its end; resolves with its standard output. */
function run(
  command: string,
  args: readonly string[],
  options: { maxBuffer: number; timeout: number; cwd: string },
): Promise<{ stdout: string }> {
  return new Promise((resolve, reject) => {
    execFile(command, args, { ...options, encoding: 'utf8' }, (error, stdout) => (error ? reject(error) : resolve({ stdout })));
  });
}

/** One file of the bundle: where it comes from (or its content), where it goes, its mode. */
export interface StagedFile {
  /** The path inside the bundle, `/`-separated. */
  readonly path: string;
  readonly source?: string;
  readonly content?: Uint8Array;
  readonly mode: number;
}

interface PlacedPackage {
  readonly real: string;
  readonly dest: string;
  readonly manifest: PackageManifest;
  readonly versions: Map<string, string>;
}

const isInstalled = (real: string): boolean => real.split(sep).includes('node_modules');

/** Files a server never loads at run time: type declarations and source maps (a third of a typical closure). */
const BUILD_ONLY = /\.(d\.[cm]?ts|map)$/;

/** The directory of dependency `name` as Node would find it from `from` (a real directory), or undefined. */
async function resolvePackage(name: string, from: string): Promise<string | undefined> {
  for (let dir = from; ; dir = dirname(dir)) {
    if (!dir.endsWith(`${sep}node_modules`)) {
      const candidate = join(dir, 'node_modules', name);
      const found = await stat(join(candidate, 'package.json')).then(
        () => true,
        () => false,
      );
      if (found) return realpath(candidate);
    }
    if (dirname(dir) === dir) return undefined;
  }
}

async function readManifest(dir: string): Promise<PackageManifest> {
  return JSON.parse(await readFile(join(dir, 'package.json'), 'utf8')) as PackageManifest;
}

/** The dependency graph from `root`, placed as npm would hoist it under `server/`. */
async function placePackages(rootDir: string, rootManifest: PackageManifest): Promise<PlacedPackage[]> {
  const root: PlacedPackage = { real: await realpath(rootDir), dest: 'server', manifest: rootManifest, versions: new Map() };
  const placed = [root];
  const top = new Map<string, string>();
  const seen = new Set<string>();
  const queue = [root];
  while (queue.length > 0) {
    const node = queue.shift()!;
    // Peers are the installing project's to provide: bundled when installed, skipped when not (like optional ones).
    const optional = new Set([
      ...Object.keys(node.manifest.optionalDependencies ?? {}),
      ...Object.keys(node.manifest.peerDependencies ?? {}),
    ]);
    const names = new Set([
      ...Object.keys(node.manifest.dependencies ?? {}),
      ...Object.keys(node.manifest.optionalDependencies ?? {}),
      ...Object.keys(node.manifest.peerDependencies ?? {}),
    ]);
    for (const name of [...names].sort()) {
      const real = await resolvePackage(name, node.real);
      if (real === undefined) {
        if (optional.has(name)) continue;
        throw new CliError(
          `${name}, a dependency of ${node.manifest.name}, is not installed (install the package's dependencies before packing)`,
          CLI_EXIT_CODES.usage,
        );
      }
      const manifest = await readManifest(real);
      node.versions.set(name, manifest.version);
      const hoisted = top.get(name);
      if (hoisted === real) continue;
      const dest = hoisted === undefined ? `server/node_modules/${name}` : `${node.dest}/node_modules/${name}`;
      if (hoisted === undefined) top.set(name, real);
      if (seen.has(dest)) continue;
      seen.add(dest);
      const child = { real, dest, manifest, versions: new Map<string, string>() };
      placed.push(child);
      queue.push(child);
    }
  }
  return placed;
}

/** Every file below `dir` (its own `node_modules` left out: dependencies are placed by the graph). */
async function walkInstalled(dir: string, base = dir): Promise<string[]> {
  let entries: Dirent[];
  try {
    entries = await readdir(dir, { withFileTypes: true });
  } catch {
    return [];
  }
  const files: string[] = [];
  for (const entry of entries) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) {
      if (dir === base && entry.name === 'node_modules') continue;
      files.push(...(await walkInstalled(path, base)));
    } else if (entry.isFile()) {
      files.push(relative(base, path));
    }
  }
  return files;
}

/** A glob of a `files` negation (`*`, `**`, `?`) as a regular expression over `/`-separated paths. */
function globRegExp(glob: string): RegExp {
  let pattern = '';
  for (let i = 0; i < glob.length; i++) {
    const char = glob[i]!;
    if (char === '*' && glob[i + 1] === '*') {
      pattern += glob[i + 2] === '/' ? '(?:.*/)?' : '.*';
      i += glob[i + 2] === '/' ? 2 : 1;
    } else if (char === '*') pattern += '[^/]*';
    else if (char === '?') pattern += '[^/]';
    else pattern += char.replace(/[.+^${}()|[\]\\]/g, '\\$&');
  }
  return new RegExp(`^${pattern}(?:/.*)?$`);
}

const ALWAYS = /^(package\.json|readme(\.[^/]*)?|licen[cs]e(\.[^/]*)?|copying(\.[^/]*)?)$/i;

/**
 * The files npm publishes for a package whose `files` lists plain paths (directories or files) and negated globs —
 * the usual shape, and every wiremcp package's — plus package.json, README and LICENSE; undefined for anything
 * else (positive globs, no `files`), which is left to npm itself.
 */
async function filesFromField(dir: string, manifest: PackageManifest & { files?: string[]; main?: string }): Promise<string[] | undefined> {
  const field = manifest.files;
  if (!Array.isArray(field)) return undefined;
  const positive = field.filter((entry) => !entry.startsWith('!')).map((entry) => entry.replace(/^\.\//, '').replace(/\/$/, ''));
  if (positive.some((entry) => /[*?[\]{}]/.test(entry))) return undefined;
  const negative = field.filter((entry) => entry.startsWith('!')).map((entry) => globRegExp(entry.slice(1).replace(/^\.\//, '')));
  const all = await walkInstalled(dir);
  const wanted = new Set([
    ...positive,
    ...(manifest.main ? [manifest.main.replace(/^\.\//, '')] : []),
    ...Object.values(typeof manifest.bin === 'string' ? { bin: manifest.bin } : (manifest.bin ?? {})).map((bin) =>
      bin.replace(/^\.\//, ''),
    ),
  ]);
  return all.filter((file) => {
    const path = file.split(sep).join('/');
    if (!path.includes('/') && ALWAYS.test(path)) return true;
    const listed = [...wanted].some((entry) => path === entry || path.startsWith(`${entry}/`));
    return listed && !negative.some((regexp) => regexp.test(path));
  });
}

/** The files `npm pack` would publish of each directory, with one npm run. */
async function packLists(dirs: readonly string[]): Promise<Map<string, string[]>> {
  const lists = new Map<string, string[]>();
  if (dirs.length === 0) return lists;
  let stdout: string;
  try {
    ({ stdout } = await run('npm', ['pack', '--dry-run', '--json', '--ignore-scripts', '--loglevel=error', ...dirs], {
      maxBuffer: 64 * 1024 * 1024,
      timeout: 120_000,
      // npm run from a directory of the workspace may read its settings; any directory will do.
      cwd: dirs[0]!,
    }));
  } catch (error) {
    throw new CliError(`npm pack --dry-run failed, so the files to publish are unknown: ${(error as Error).message}`, CLI_EXIT_CODES.usage);
  }
  const reports = JSON.parse(stdout) as Array<{ files: Array<{ path: string }> }>;
  if (reports.length !== dirs.length)
    throw new CliError('npm pack --dry-run listed an unexpected number of packages', CLI_EXIT_CODES.usage);
  dirs.forEach((dir, index) =>
    lists.set(
      dir,
      reports[index]!.files.map((file) => file.path),
    ),
  );
  return lists;
}

/** A linked package's package.json with `workspace:` ranges replaced by the versions of what was found. */
function rewrittenManifest(text: string, versions: ReadonlyMap<string, string>): Uint8Array {
  const manifest = JSON.parse(text) as Record<string, unknown>;
  for (const field of ['dependencies', 'optionalDependencies', 'peerDependencies']) {
    const deps = manifest[field] as Record<string, string> | undefined;
    for (const [name, range] of Object.entries(deps ?? {})) {
      if (range.startsWith('workspace:') && versions.has(name)) deps![name] = versions.get(name)!;
    }
  }
  delete manifest.devDependencies;
  return Buffer.from(`${JSON.stringify(manifest, null, 2)}\n`);
}

/**
 * The files of the bundle's `server/` for the package in `dir`. `skip` is a directory of the package left out
 * (the bundle output, so an earlier bundle is never packed into the next).
 */
export async function stageServerFiles(dir: string, manifest: PackageManifest, skip?: string): Promise<StagedFile[]> {
  const placed = await placePackages(dir, manifest);
  const linked = placed.filter((node) => node === placed[0] || !isInstalled(node.real));
  const lists = new Map<string, string[]>();
  for (const node of linked) {
    const files = await filesFromField(node.real, node.manifest);
    if (files) lists.set(node.real, files);
  }
  for (const [dir, files] of await packLists(linked.map((node) => node.real).filter((dir) => !lists.has(dir)))) lists.set(dir, files);
  const skipReal = skip === undefined ? undefined : await realpath(skip).catch(() => undefined);
  const files: StagedFile[] = [];
  for (const node of placed) {
    const names = lists.get(node.real) ?? (await walkInstalled(node.real));
    for (const name of names.sort()) {
      if (BUILD_ONLY.test(name)) continue;
      const source = join(node.real, name);
      if (skipReal !== undefined && (source === skipReal || source.startsWith(skipReal + sep))) continue;
      const info = await stat(source);
      const path = `${node.dest}/${name.split(sep).join('/')}`;
      if (name === 'package.json' && lists.has(node.real)) {
        files.push({ path, content: rewrittenManifest(await readFile(source, 'utf8'), node.versions), mode: info.mode & 0o777 });
      } else {
        files.push({ path, source, mode: info.mode & 0o777 });
      }
    }
  }
  return files;
}
