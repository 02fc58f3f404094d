/**
 * The official conformance suite's CLI for tests: `@modelcontextprotocol/conformance` and the Node 22 it needs,
 * installed once from the npm registry into a cache directory (reused by later runs), then run inside a network
 * namespace whose only interface is loopback. The suite's mock servers listen on every interface; the namespace keeps
 * them unreachable from outside, and keeps the run from reaching anything but the processes it starts.
 */
import { execFile, spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdir } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';

const run = promisify(execFile);

/** The referee version the project measures against. */
export const CONFORMANCE_VERSION = '0.2.0-alpha.12';
const NODE_VERSION = '22';

const CACHE = join(tmpdir(), `wiremcp-official-conformance-${CONFORMANCE_VERSION}`);
const NODE = join(CACHE, 'node_modules', 'node', 'bin', 'node');
const CLI = join(CACHE, 'node_modules', '@modelcontextprotocol', 'conformance', 'dist', 'index.js');

/** Installs the CLI and Node 22 (once; a later call finds them installed); rejects when the install fails. */
export async function installOfficialCli(): Promise<void> {
  if (existsSync(NODE) && existsSync(CLI)) return;
  await mkdir(CACHE, { recursive: true });
  process.stderr.write(`installing @modelcontextprotocol/conformance@${CONFORMANCE_VERSION} and node@${NODE_VERSION} into ${CACHE}\n`);
  await run(
    'npm',
    [
      'install',
      '--no-save',
      '--no-audit',
      '--no-fund',
      '--prefix',
      CACHE,
      `node@${NODE_VERSION}`,
      `@modelcontextprotocol/conformance@${CONFORMANCE_VERSION}`,
    ],
    { timeout: 300_000 },
  );
  if (!existsSync(NODE) || !existsSync(CLI)) throw new Error(`the install into ${CACHE} did not produce ${NODE} and ${CLI}`);
}

/** Whether this machine can make a loopback-only network namespace (root, `unshare`, `ip`). */
export async function canIsolateNetwork(): Promise<boolean> {
  try {
    await run('unshare', ['-n', 'sh', '-c', 'ip link set lo up'], { timeout: 10_000 });
    return true;
  } catch {
    return false;
  }
}

/** The outcome of one CLI run. */
export interface CliRun {
  readonly code: number | null;
  readonly output: string;
}

/**
 * Runs `conformance client --command "<node> <program>" <args>` in a loopback-only namespace, the client program
 * under the same Node 22. Resolves when it exits (killed after `timeoutMs`).
 */
export function runOfficialClient(program: string, args: readonly string[], timeoutMs: number): Promise<CliRun> {
  const inner = [NODE, CLI, 'client', '--command', `${NODE} ${program}`, ...args];
  const child = spawn('unshare', ['-n', 'sh', '-c', 'ip link set lo up && exec "$@"', 'netns', ...inner], {
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString('utf8')));
  child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString('utf8')));
  return new Promise((resolve) => {
    const timer = setTimeout(() => child.kill('SIGKILL'), timeoutMs);
    child.once('close', (code) => {
      clearTimeout(timer);
      resolve({ code, output });
    });
  });
}

/** The `✓`/`✗ name: N passed, M failed` lines of a suite run's summary, by scenario. */
export function suiteSummary(output: string): Map<string, { passed: number; failed: number }> {
  const summary = new Map<string, { passed: number; failed: number }>();
  const start = output.indexOf('=== SUITE SUMMARY ===');
  if (start < 0) return summary;
  for (const match of output.slice(start).matchAll(/^\S+ (\S+): (\d+) passed, (\d+) failed/gm)) {
    summary.set(match[1]!, { passed: Number(match[2]), failed: Number(match[3]) });
  }
  return summary;
}
