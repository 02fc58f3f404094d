/**
 * The official MCP conformance suite (`@modelcontextprotocol/conformance`) as a program this app can run: installed
 * once, pinned, with the Node 22 it needs (its CLI uses `fs.globSync`) from the npm registry, into a cache under
 * the repository's `node_modules`, then run with that Node first on `PATH` — so the client programs it spawns run on
 * Node 22 too. The client leg runs in a network namespace with only loopback when the machine allows one (the
 * suite's mock servers listen on every interface).
 */
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { delimiter, join } from 'node:path';
import { REPO_ROOT } from '../paths.js';

/** The suite's version this app pins. */
export const OFFICIAL_SUITE_VERSION = '0.2.0-alpha.12';
/** The npm package of the suite. */
export const OFFICIAL_SUITE_PACKAGE = '@modelcontextprotocol/conformance';
/** The Node.js the suite runs on (npm package `node`). */
export const OFFICIAL_SUITE_NODE = '22.23.3';

/** An installed suite. */
export interface OfficialSuite {
  /** The suite package's directory (its `requirements/*.yaml`). */
  readonly packageDir: string;
  /** Environment with Node 22 first on `PATH`. */
  readonly env: NodeJS.ProcessEnv;
  /** The CLI's entry script. */
  readonly cli: string;
  /** The Node 22 binary. */
  readonly node: string;
  /** True when the client leg can run in a loopback-only network namespace (`unshare -n`). */
  readonly netns: boolean;
}

/** Where the suite is installed (git-ignored with the rest of `node_modules`). */
export const OFFICIAL_SUITE_DIR: string = join(REPO_ROOT, 'node_modules', '.cache', 'wiremcp-official-suite', OFFICIAL_SUITE_VERSION);

/** Installs the pinned suite and Node 22 when missing (says so on `log`); returns how to run it. */
export function ensureOfficialSuite(log: (line: string) => void): OfficialSuite {
  const dir = OFFICIAL_SUITE_DIR;
  const packageDir = join(dir, 'node_modules', ...OFFICIAL_SUITE_PACKAGE.split('/'));
  const nodeBin = join(dir, 'node_modules', 'node', 'bin');
  const node = join(nodeBin, process.platform === 'win32' ? 'node.exe' : 'node');
  if (!existsSync(join(packageDir, 'package.json')) || !existsSync(node)) {
    log(`installing ${OFFICIAL_SUITE_PACKAGE}@${OFFICIAL_SUITE_VERSION} and node@${OFFICIAL_SUITE_NODE} from npm into ${dir}`);
    mkdirSync(dir, { recursive: true });
    const manifest = {
      name: 'wiremcp-official-suite',
      private: true,
      dependencies: { [OFFICIAL_SUITE_PACKAGE]: OFFICIAL_SUITE_VERSION, node: OFFICIAL_SUITE_NODE },
    };
    writeFileSync(join(dir, 'package.json'), `${JSON.stringify(manifest, null, 2)}\n`);
    const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';
    const result = spawnSync(npm, ['install', '--no-audit', '--no-fund', '--loglevel=error'], {
      cwd: dir,
      stdio: ['ignore', 'inherit', 'inherit'],
    });
    if (result.error || result.status !== 0 || !existsSync(node)) {
      throw new Error(
        `could not install the official conformance suite into ${dir} (npm install exited with ${result.status ?? result.error?.message})`,
      );
    }
  }
  const pkg = JSON.parse(readFileSync(join(packageDir, 'package.json'), 'utf8')) as { bin?: string | Record<string, string> };
  const bin = typeof pkg.bin === 'string' ? pkg.bin : (pkg.bin?.conformance ?? 'dist/index.js');
  const env = { ...process.env, PATH: `${nodeBin}${delimiter}${process.env.PATH ?? ''}` };
  return { packageDir, env, cli: join(packageDir, bin), node, netns: canUseNetns() };
}

function canUseNetns(): boolean {
  if (process.platform !== 'linux') return false;
  const probe = spawnSync('unshare', ['-n', 'sh', '-c', 'ip link set lo up'], { stdio: 'ignore', timeout: 10_000 });
  return probe.status === 0;
}

/** What one run of the suite's CLI printed and how it ended. */
export interface SuiteRunOutput {
  readonly exitCode: number | null;
  readonly output: string;
}

/**
 * Runs the suite's CLI with `args` (in the loopback-only namespace when `isolate` and available), collecting its
 * output; a run over `timeoutMs` is killed.
 */
export function runOfficialSuite(
  suite: OfficialSuite,
  args: readonly string[],
  isolate: boolean,
  timeoutMs: number,
): Promise<SuiteRunOutput> {
  const [command, argv] =
    isolate && suite.netns
      ? ['unshare', ['-n', 'sh', '-c', 'ip link set lo up && exec "$@"', 'official-suite', suite.node, suite.cli, ...args]]
      : [suite.node, [suite.cli, ...args]];
  return new Promise((resolve) => {
    const child = spawn(command, argv, { env: suite.env, stdio: ['ignore', 'pipe', 'pipe'], cwd: REPO_ROOT });
    const chunks: string[] = [];
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => chunks.push(chunk));
    child.stderr.setEncoding('utf8').on('data', (chunk: string) => chunks.push(chunk));
    const timer = setTimeout(() => child.kill('SIGKILL'), timeoutMs);
    child.on('error', (error) => {
      clearTimeout(timer);
      resolve({ exitCode: null, output: `${chunks.join('')}\n${error.message}` });
    });
    child.on('close', (code) => {
      clearTimeout(timer);
      resolve({ exitCode: code, output: chunks.join('') });
    });
  });
}
