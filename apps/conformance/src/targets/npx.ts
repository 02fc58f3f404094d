/**
 * Warming `npx` once. A `--command "npx -y <package> …"` server is started many times in a run (a process per lane
 * and revision, and again after a cell that fails), and each `npx` start costs a second or two of npm before the
 * server runs. Before anything else, the package is installed (or found in npx's cache) once, with `npm exec`, and
 * the bin npx would run is located; every start of the run then runs that bin directly, with the same arguments.
 * A command that is not a plain `npx [-y] <package> [args…]`, or whose bin cannot be told, is left as it is.
 */
import { spawn } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { basename, delimiter, dirname, join } from 'node:path';
import type { Target } from './target.js';

/** An npx command line: the package spec, its name (no version), the arguments given to its bin. */
export interface NpxCommand {
  readonly spec: string;
  readonly name: string;
  readonly args: readonly string[];
}

const HARMLESS_FLAGS = new Set(['-y', '--yes', '-q', '--quiet', '--prefer-offline', '--prefer-online', '--no-update-notifier']);

/** Reads `npx [-y] <package> [args…]`; undefined for anything else (`-p`, `-c`, a path, no package). */
export function parseNpx(command: readonly string[]): NpxCommand | undefined {
  if (command.length < 2 || !['npx', 'npx.cmd'].includes(basename(command[0]!))) return undefined;
  let index = 1;
  while (index < command.length && command[index]!.startsWith('-')) {
    if (!HARMLESS_FLAGS.has(command[index]!)) return undefined;
    index += 1;
  }
  const spec = command[index];
  if (spec === undefined || spec.startsWith('.') || spec.startsWith('/') || spec.includes(':')) return undefined;
  const at = spec.indexOf('@', spec.startsWith('@') ? 1 : 0);
  return { spec, name: at > 0 ? spec.slice(0, at) : spec, args: command.slice(index + 1) };
}

/** The bin of package `name` that npx runs, found in a `node_modules/.bin` directory of `path`. */
export function binFromPath(path: string, name: string): string | undefined {
  for (const entry of path.split(delimiter)) {
    if (basename(entry) !== '.bin') continue;
    const manifest = join(dirname(entry), name, 'package.json');
    if (!existsSync(manifest)) continue;
    let bin: unknown;
    try {
      bin = (JSON.parse(readFileSync(manifest, 'utf8')) as { bin?: unknown }).bin;
    } catch {
      continue;
    }
    const unscoped = name.split('/').pop()!;
    const names = typeof bin === 'string' ? [unscoped] : typeof bin === 'object' && bin !== null ? Object.keys(bin) : [];
    // npx's rule: the only bin, or else the one named after the package.
    const chosen = names.length === 1 ? names[0] : names.find((candidate) => candidate === unscoped);
    if (chosen !== undefined && existsSync(join(entry, chosen))) return join(entry, chosen);
  }
  return undefined;
}

/** The PATH `npm exec` gives a command of the package (installing it first when it is not in the cache). */
function execPath(spec: string, cwd: string, timeoutMs: number): Promise<string | undefined> {
  return new Promise((resolve) => {
    const script = 'process.stdout.write(process.env.PATH ?? "")';
    const child = spawn('npm', ['exec', '--yes', `--package=${spec}`, '--', 'node', '-e', script], {
      cwd,
      stdio: ['ignore', 'pipe', 'ignore'],
    });
    let out = '';
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => (out += chunk));
    const timer = setTimeout(() => child.kill('SIGKILL'), timeoutMs);
    child.once('error', () => resolve(undefined));
    child.once('exit', (code) => {
      clearTimeout(timer);
      resolve(code === 0 ? out : undefined);
    });
  });
}

/**
 * The targets with every plain npx stdio command replaced by the bin npx would run (installed once here).
 * `log` says what was done; a command that cannot be resolved keeps npx.
 */
export async function warmNpx(targets: readonly Target[], timeoutMs: number, log: (line: string) => void): Promise<Target[]> {
  const out: Target[] = [];
  for (const target of targets) {
    const first = target.transports.find((transport) => transport.kind === 'stdio');
    const npx = first?.kind === 'stdio' ? parseNpx(first.command) : undefined;
    if (first?.kind !== 'stdio' || npx === undefined) {
      out.push(target);
      continue;
    }
    log(`warming npx for ${target.id}: npm exec ${npx.spec} (installs it once when it is not in npx's cache)…`);
    const path = await execPath(npx.spec, first.cwd, timeoutMs);
    const bin = path === undefined ? undefined : binFromPath(path, npx.name);
    if (bin === undefined) {
      log(`  ${target.id}: the bin npx runs for ${npx.spec} could not be told: every start goes through npx`);
      out.push(target);
      continue;
    }
    const command = [bin, ...npx.args];
    log(`  ${target.id}: npx runs ${bin}; the run starts it directly`);
    out.push({
      ...target,
      transports: target.transports.map((transport) =>
        transport.kind === 'stdio' && transport.command.join('\0') === first.command.join('\0') ? { ...transport, command } : transport,
      ),
    });
  }
  return out;
}
