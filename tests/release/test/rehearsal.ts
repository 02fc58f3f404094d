/**
 * The release rehearsal's moving parts: a scratch copy of the repository versioned by `changeset version`, a local
 * Verdaccio registry (from npm, on a free port of 127.0.0.1, stopped by whoever started it), every public package
 * published to it with `pnpm publish`, and the environment that points npm, npx, pnpm and yarn at that registry
 * with fresh caches, as on a machine that has never seen the packages.
 */
import { execFile, spawn, type ChildProcess } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { promisify } from 'node:util';

/** `execFile` as a promise (stdout, stderr; rejects on a non-zero exit, with both in the error). */
export const run = promisify(execFile);
/** The repository root. */
export const root = join(import.meta.dirname, '..', '..', '..');
/** The workspace's pinned pnpm and changesets. */
export const bins = {
  pnpm: join(root, 'node_modules', '.bin', 'pnpm'),
  changeset: join(root, 'node_modules', '.bin', 'changeset'),
  tsc: join(root, 'node_modules', '.bin', 'tsc'),
};

/**
 * Runs one phase of the rehearsal and prints how long it took on stderr (`[rehearsal] publish: 41.2 s`), so that
 * what the rehearsal costs in CI is known phase by phase.
 */
export async function phase<T>(name: string, body: () => Promise<T>): Promise<T> {
  const started = performance.now();
  try {
    return await body();
  } finally {
    process.stderr.write(`[rehearsal] ${name}: ${((performance.now() - started) / 1000).toFixed(1)} s\n`);
  }
}

/** A package's document (packument) as the registry serves it, the way npm, pnpm and yarn read it. */
export async function packument(
  registry: Registry,
  name: string,
): Promise<{ 'dist-tags': Record<string, string>; versions: Record<string, { dist: { tarball: string } }> }> {
  const response = await fetch(`${registry.url}${name.replace('/', '%2f')}`, { headers: { authorization: `Bearer ${registry.token}` } });
  if (!response.ok) throw new Error(`${name}: the registry answered ${response.status}`);
  return (await response.json()) as Awaited<ReturnType<typeof packument>>;
}

/** A workspace package.json, as far as the rehearsal reads it. */
export interface Manifest {
  name: string;
  version: string;
  private?: boolean;
  bin?: Record<string, string>;
  dependencies?: Record<string, string>;
  peerDependencies?: Record<string, string>;
}

/** Reads a package.json. */
export function manifestOf(dir: string): Manifest {
  return JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8')) as Manifest;
}

/** The directories (relative to a workspace root) of the packages that are published: packages/* and servers/* not private. */
export function publishedDirs(workspace: string): string[] {
  return ['packages', 'servers'].flatMap((group) =>
    readdirSync(join(workspace, group))
      .map((name) => join(group, name))
      .filter((dir) => existsSync(join(workspace, dir, 'package.json')) && manifestOf(join(workspace, dir)).private !== true),
  );
}

/**
 * A scratch copy of the repository as a release job sees it: the files git knows (tracked and new, not ignored), the
 * built outputs of the published packages (the build of this commit; nothing the rehearsal checks depends on the
 * version number being compiled in), then `changeset version` and an offline install from the lockfile, which links
 * the workspace packages so that `pnpm publish` can replace their `workspace:` ranges.
 */
export async function versionedCopy(scratch: string): Promise<void> {
  const { stdout } = await run('git', ['ls-files', '-z', '--cached', '--others', '--exclude-standard'], { cwd: root, maxBuffer: 64 << 20 });
  for (const file of stdout.split('\0').filter(Boolean)) {
    if (!existsSync(join(root, file))) continue; // deleted in the work tree, not yet committed
    mkdirSync(dirname(join(scratch, file)), { recursive: true });
    cpSync(join(root, file), join(scratch, file));
  }
  for (const dir of publishedDirs(root)) {
    const built = join(root, dir, 'dist');
    if (!existsSync(built)) throw new Error(`${dir} is not built (run the build first)`);
    cpSync(built, join(scratch, dir, 'dist'), { recursive: true, filter: (source) => !source.includes(`${join(dir, 'dist', 'mcpb')}`) });
  }
  await run(bins.changeset, ['version'], { cwd: scratch, timeout: 120_000 });
  await run(bins.pnpm, ['install', '--offline', '--frozen-lockfile', '--ignore-scripts', '--reporter=silent'], {
    cwd: scratch,
    timeout: 180_000,
    env: cleanEnv({}),
  });
}

/** The process environment without what npm, pnpm and yarn put there for scripts, plus `extra`. */
export function cleanEnv(extra: Record<string, string>): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {};
  for (const [key, value] of Object.entries(process.env)) {
    if (!/^(npm_|pnpm_|yarn_|berry_)/i.test(key)) env[key] = value;
  }
  return { ...env, ...extra };
}

/** A started registry: its URL, a publish token, and how to stop it. */
export interface Registry {
  url: string;
  token: string;
  /** What Verdaccio printed, for failure messages. */
  log: () => string;
  stop: () => Promise<void>;
}

/**
 * Starts Verdaccio with storage under `dir`: `@wiremcp/*` is served only from what is published here (never from
 * the upstream registry), everything else is proxied from the registry npm is configured with. Creates a user and
 * returns its token.
 */
export async function startRegistry(dir: string): Promise<Registry> {
  const upstream = (await run('npm', ['config', 'get', 'registry'], { env: cleanEnv({}) })).stdout.trim();
  mkdirSync(join(dir, 'storage'), { recursive: true });
  const config = join(dir, 'config.yaml');
  writeFileSync(
    config,
    [
      `storage: ${JSON.stringify(join(dir, 'storage'))}`,
      'auth:',
      '  htpasswd:',
      `    file: ${JSON.stringify(join(dir, 'htpasswd'))}`,
      // The throwaway user's password is checked on every request: bcrypt would spend most of a publish on it.
      '    algorithm: sha1',
      'uplinks:',
      '  upstream:',
      `    url: ${JSON.stringify(upstream)}`,
      '    timeout: 60s',
      'packages:',
      "  '@wiremcp/*':",
      '    access: $all',
      '    publish: $authenticated',
      "  '**':",
      '    access: $all',
      '    publish: $authenticated',
      '    proxy: upstream',
      'server:',
      '  keepAliveTimeout: 60',
      'log: { type: stdout, format: pretty, level: warn }',
      '',
    ].join('\n'),
  );
  const child = spawn(process.execPath, [join(import.meta.dirname, '..', 'scripts', 'registry-process.mjs'), config], {
    cwd: join(import.meta.dirname, '..'),
    stdio: ['pipe', 'pipe', 'pipe'],
    env: cleanEnv({}),
  });
  let output = '';
  child.stderr!.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const port = await new Promise<number>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`Verdaccio did not listen within 60 s:\n${output}`)), 60_000);
    child.stdout!.on('data', (chunk: Buffer) => {
      output += chunk.toString();
      const match = /\{"port":(\d+)\}/.exec(output);
      if (match) {
        clearTimeout(timer);
        resolve(Number(match[1]));
      }
    });
    child.on('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`Verdaccio exited with ${code}:\n${output}`));
    });
  });
  const url = `http://127.0.0.1:${port}/`;
  const response = await fetch(`${url}-/user/org.couchdb.user:rehearsal`, {
    method: 'PUT',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ name: 'rehearsal', password: 'rehearsal-password' }),
  });
  const body = (await response.json()) as { token?: string };
  if (!response.ok || !body.token) throw new Error(`Verdaccio refused the user: ${response.status} ${JSON.stringify(body)}`);
  return { url, token: body.token, log: () => output, stop: () => stopChild(child) };
}

function stopChild(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
  return new Promise((resolve) => {
    const timer = setTimeout(() => child.kill('SIGKILL'), 5_000);
    child.on('exit', () => {
      clearTimeout(timer);
      resolve();
    });
    child.kill('SIGTERM');
  });
}

/**
 * Writes an npmrc for the registry (its URL, the token) and returns the environment every client of the rehearsal
 * runs with: that npmrc, fresh npm and yarn caches under `dir`, no update notices.
 */
export function registryEnv(registry: Registry, dir: string): NodeJS.ProcessEnv {
  const npmrc = join(dir, 'npmrc');
  const host = registry.url.replace(/^http:/, '');
  writeFileSync(npmrc, `registry=${registry.url}\n${host}:_authToken=${registry.token}\n`);
  return cleanEnv({
    npm_config_userconfig: npmrc,
    npm_config_registry: registry.url,
    npm_config_cache: join(dir, 'npm-cache'),
    npm_config_update_notifier: 'false',
    npm_config_audit: 'false',
    npm_config_fund: 'false',
    YARN_CACHE_FOLDER: join(dir, 'yarn-cache'),
    YARN_GLOBAL_FOLDER: join(dir, 'yarn-global'),
  });
}

/**
 * Publishes every public package of the versioned copy as the release does: `changeset publish` (which asks the
 * registry what is already there, then runs `pnpm publish` for the rest, replacing `workspace:` ranges), without
 * git tags (the copy is no repository). Returns the manifests of what it published.
 */
export async function publishAll(scratch: string, env: NodeJS.ProcessEnv): Promise<Manifest[]> {
  const path = `${join(root, 'node_modules', '.bin')}:${env.PATH ?? ''}`; // changesets runs `pnpm publish` by name
  await run(bins.changeset, ['publish', '--no-git-tag'], { cwd: scratch, env: { ...env, PATH: path }, timeout: 600_000 });
  return publishedDirs(scratch).map((dir) => manifestOf(join(scratch, dir)));
}

/**
 * Starts a stdio server, sends `initialize` (2025-11-25) and `tools/list`, and resolves with both results; the
 * process is stopped (stdin closed, then killed) whatever happens. `timeoutMs` covers an `npx` download.
 */
export function probeServer(
  command: string,
  args: string[],
  options: { cwd: string; env: NodeJS.ProcessEnv; timeoutMs: number },
): Promise<{ serverInfo: { name: string; version: string }; tools: Array<{ name: string }> }> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { cwd: options.cwd, env: options.env, stdio: ['pipe', 'pipe', 'pipe'] });
    let out = '';
    let err = '';
    let initialized: { serverInfo: { name: string; version: string } } | undefined;
    const finish = (error?: Error, value?: Parameters<typeof resolve>[0]): void => {
      clearTimeout(timer);
      child.stdin.end();
      if (child.exitCode === null) child.kill();
      if (error) reject(error);
      else resolve(value!);
    };
    const timer = setTimeout(
      () => finish(new Error(`${command} ${args.join(' ')}: no answer within ${options.timeoutMs} ms; stderr: ${err}`)),
      options.timeoutMs,
    );
    child.on('error', (error) => finish(error));
    child.on('exit', (code) => finish(new Error(`${command} ${args.join(' ')} exited with ${code}; stderr: ${err}`)));
    child.stderr.on('data', (chunk: Buffer) => (err += chunk.toString()));
    child.stdout.on('data', (chunk: Buffer) => {
      out += chunk.toString();
      const lines = out.split('\n');
      out = lines.pop()!;
      for (const line of lines) {
        const message = JSON.parse(line) as { id?: number; result?: Record<string, unknown>; error?: unknown };
        if (message.error) return finish(new Error(`error answer: ${line}`));
        if (message.id === 1) {
          initialized = message.result as typeof initialized;
          child.stdin.write('{"jsonrpc":"2.0","method":"notifications/initialized"}\n{"jsonrpc":"2.0","id":2,"method":"tools/list"}\n');
        } else if (message.id === 2) {
          finish(undefined, { serverInfo: initialized!.serverInfo, tools: (message.result as { tools: Array<{ name: string }> }).tools });
        }
      }
    });
    child.stdin.write(
      `${JSON.stringify({
        jsonrpc: '2.0',
        id: 1,
        method: 'initialize',
        params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'release-rehearsal', version: '1.0.0' } },
      })}\n`,
    );
  });
}

/** The fenced code blocks of a markdown file with the given info string (`json`, `ts`, `sh`), in order. */
export function codeBlocks(markdown: string, lang: string): string[] {
  const blocks: string[] = [];
  const fence = new RegExp('^```' + lang + '\\s*\\n([\\s\\S]*?)^```', 'gm');
  for (let match = fence.exec(markdown); match; match = fence.exec(markdown)) blocks.push(match[1]!);
  return blocks;
}
