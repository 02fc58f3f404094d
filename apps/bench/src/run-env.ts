// What every bench command records about where it ran: clock ticks, the pinned CPU, the commit, package
// versions, and the command line as typed.
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

/** The bench package's directory (apps/bench). */
export const PACKAGE_ROOT = fileURLToPath(new URL('..', import.meta.url));
/** The repository's root. */
export const REPO_ROOT = resolve(PACKAGE_ROOT, '../..');

/** Clock ticks per second (`getconf CLK_TCK`; 100 when unknown): the unit of /proc CPU times. */
export function clockTicks(): number {
  try {
    const ticks = Number(execFileSync('getconf', ['CLK_TCK'], { encoding: 'utf8' }).trim());
    return Number.isFinite(ticks) && ticks > 0 ? ticks : 100;
  } catch {
    return 100;
  }
}

/**
 * The CPU that drivers and their servers share, or undefined (not pinned). On the bench VM two processes on different
 * vCPUs pay the hypervisor's wake-up latency on every message: sequential round trips were ~10 or ~20 µs depending
 * on where the scheduler happened to put the pair, which made per-repetition latency ratios bimodal. On one CPU they
 * measure the software. Needs Linux `taskset`; `--no-pin` turns it off.
 */
export function pinnedCpu(pin: boolean, cores: number): number | undefined {
  if (!pin || process.platform !== 'linux') return undefined;
  try {
    execFileSync('taskset', ['-c', String(cores - 1), 'true'], { stdio: 'ignore' });
    return cores - 1;
  } catch {
    return undefined;
  }
}

/** The short commit of the checkout, marked when packages/ has uncommitted changes; undefined outside git. */
export function gitCommit(): string | undefined {
  try {
    const commit = execFileSync('git', ['rev-parse', '--short', 'HEAD'], { cwd: REPO_ROOT, encoding: 'utf8' }).trim();
    const dirty = execFileSync('git', ['status', '--porcelain', '--untracked-files=no', '--', 'packages'], {
      cwd: REPO_ROOT,
      encoding: 'utf8',
    }).trim();
    return dirty === '' ? commit : `${commit} (packages/ with uncommitted changes)`;
  } catch {
    return undefined;
  }
}

/** The installed version of a dependency of the bench ('?' when it cannot be read). */
export function packageVersion(name: string): string {
  try {
    const manifest = join(PACKAGE_ROOT, 'node_modules', ...name.split('/'), 'package.json');
    return (JSON.parse(readFileSync(manifest, 'utf8')) as { version: string }).version;
  } catch {
    return '?';
  }
}

/** The command as typed: `npm run bench -- …` when run through the root script (npm sets the lifecycle event). */
export function commandLine(): string {
  const args = process.argv.slice(2).join(' ');
  if (process.env.npm_lifecycle_event === 'bench') return `npm run bench${args === '' ? '' : ` -- ${args}`}`;
  return `node ${relative(REPO_ROOT, process.argv[1] ?? 'apps/bench/dist/cli.js')}${args === '' ? '' : ` ${args}`}`;
}
