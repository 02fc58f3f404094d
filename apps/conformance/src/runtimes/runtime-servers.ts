/**
 * The everything server on other JavaScript runtimes: its web-standard handler (`createHttpHandler`) served by
 * Deno's `Deno.serve`, Bun's `Bun.serve`, and workerd (Cloudflare's Workers runtime) as a Worker module. Each
 * runtime comes from its npm package (pinned, installed on first use into `node_modules/.cache`, said on the log);
 * the entries in `runtimes/` are bundled with esbuild from the workspace sources. A runtime that cannot be installed
 * or started is an error, never a skip.
 */
import { spawnSync } from 'node:child_process';
import { copyFileSync, existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PACKAGE_ROOT, REPO_ROOT } from '../paths.js';
import { startHttpServer, type StartedHttpServer } from '../session/open-session.js';

/** The runtimes the everything server is served on, besides Node. */
export const RUNTIMES = {
  deno: { package: 'deno', version: '2.9.6', title: 'Deno', entry: 'deno.js', bin: 'deno' },
  bun: { package: 'bun', version: '1.4.4', title: 'Bun', entry: 'bun.js', bin: 'bun' },
  workerd: { package: 'workerd', version: '1.20261117.1', title: 'workerd', entry: 'worker.js', bin: 'workerd' },
} as const;

/** A runtime's name. */
export type RuntimeName = keyof typeof RUNTIMES;

/** True for a runtime's name. */
export function isRuntimeName(name: string): name is RuntimeName {
  return Object.hasOwn(RUNTIMES, name);
}

/** Where the runtimes are installed (git-ignored with the rest of `node_modules`). */
export const RUNTIMES_DIR: string = join(REPO_ROOT, 'node_modules', '.cache', 'wiremcp-runtimes');

/** Installs the runtime's pinned npm package when missing (says so on `log`); returns its executable. */
export function ensureRuntime(name: RuntimeName, log: (line: string) => void): string {
  const runtime = RUNTIMES[name];
  const dir = join(RUNTIMES_DIR, `${runtime.package}@${runtime.version}`);
  const bin = join(dir, 'node_modules', '.bin', runtime.bin);
  if (!existsSync(bin) || !works(bin)) {
    log(`installing ${runtime.package}@${runtime.version} from npm into ${dir}`);
    mkdirSync(dir, { recursive: true });
    const manifest = { name: `wiremcp-runtime-${name}`, private: true, dependencies: { [runtime.package]: runtime.version } };
    writeFileSync(join(dir, 'package.json'), `${JSON.stringify(manifest, null, 2)}\n`);
    const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';
    const result = spawnSync(npm, ['install', '--no-audit', '--no-fund', '--loglevel=error'], {
      cwd: dir,
      stdio: ['ignore', 'inherit', 'inherit'],
    });
    if (result.error || result.status !== 0 || !existsSync(bin) || !works(bin)) {
      throw new Error(
        `could not install ${runtime.title} (${runtime.package}@${runtime.version}) into ${dir}: npm install exited with ${result.status}`,
      );
    }
  }
  return bin;
}

function works(bin: string): boolean {
  return spawnSync(bin, ['--version'], { stdio: 'ignore', timeout: 30_000 }).status === 0;
}

/** The runtime's version as it reports it (`deno 2.9.6 …` → the first line). */
export function runtimeVersion(bin: string): string {
  const result = spawnSync(bin, ['--version'], { encoding: 'utf8', timeout: 30_000 });
  return (result.stdout ?? '').split('\n')[0]!.trim();
}

/** Bundles the runtime's entry (and the everything server, from the workspace sources) into `dir`. */
export async function bundleEntry(name: RuntimeName, dir: string): Promise<string> {
  const { build } = await import('esbuild');
  const outfile = join(dir, name === 'workerd' ? 'worker.mjs' : `${name}.mjs`);
  await build({
    entryPoints: [join(PACKAGE_ROOT, 'runtimes', RUNTIMES[name].entry)],
    bundle: true,
    format: 'esm',
    platform: 'neutral',
    mainFields: ['module', 'main'],
    conditions: ['wiremcp-source'],
    target: 'es2022',
    outfile,
    logLevel: 'error',
  });
  if (name === 'workerd') copyFileSync(join(PACKAGE_ROOT, 'runtimes', 'worker.capnp'), join(dir, 'worker.capnp'));
  return outfile;
}

/** The everything server running on a runtime. */
export interface RuntimeServer extends StartedHttpServer {
  readonly runtime: RuntimeName;
  /** e.g. `Deno 2.9.6`. */
  readonly label: string;
}

/** Installs the runtime if needed, bundles the entry, starts it on a free loopback port and waits until it listens. */
export async function startRuntimeServer(
  name: RuntimeName,
  log: (line: string) => void,
  startupTimeoutMs = 60_000,
): Promise<RuntimeServer> {
  const bin = ensureRuntime(name, log);
  const dir = mkdtempSync(join(tmpdir(), `wiremcp-${name}-`));
  let started: StartedHttpServer;
  try {
    const entry = await bundleEntry(name, dir);
    const command =
      name === 'deno'
        ? [bin, 'run', '--allow-net=127.0.0.1', '--no-prompt', entry, '127.0.0.1', '{{port}}']
        : name === 'bun'
          ? [bin, entry, '127.0.0.1', '{{port}}']
          : [bin, 'serve', join(dir, 'worker.capnp'), '--socket-addr', 'http=127.0.0.1:{{port}}'];
    started = await startHttpServer(
      {
        id: 'streamable-http',
        kind: 'http',
        // localhost, not 127.0.0.1: the suite's DNS-rebinding check sends the URL's own Host and expects it served.
        url: 'http://localhost:{{port}}/mcp',
        start: { command, cwd: dir, env: name === 'workerd' ? { LOCAL_PORT: '{{port}}' } : {} },
      },
      startupTimeoutMs,
    );
  } catch (error) {
    rmSync(dir, { recursive: true, force: true });
    throw new Error(`${RUNTIMES[name].title} could not serve the everything server: ${(error as Error).message}`);
  }
  const label = `${RUNTIMES[name].title} ${/\d[\w.-]*/.exec(runtimeVersion(bin))?.[0] ?? RUNTIMES[name].version}`;
  return {
    ...started,
    runtime: name,
    label,
    stop: async () => {
      await started.stop();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
