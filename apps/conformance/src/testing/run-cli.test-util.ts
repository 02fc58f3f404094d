/**
 * Running the built CLI (`dist/cli.js`) as a user would, for the integration tests: plain progress, a temporary
 * `--out`, a hard time limit. Every process it starts is killed by {@link stopStarted}, which the tests call after
 * each test, on success and on failure.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PACKAGE_ROOT } from '../paths.js';
import type { RunReport } from '../report/run-report.js';

/** The built entry point. */
export const CLI = join(PACKAGE_ROOT, 'dist', 'cli.js');

const started = new Set<ChildProcess>();
const temporary: string[] = [];

/** A temporary directory removed by {@link stopStarted}. */
export function tempDir(prefix: string): string {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  temporary.push(dir);
  return dir;
}

/** Kills every process started through this module and removes the temporary directories. */
export function stopStarted(): void {
  for (const child of started) child.kill('SIGKILL');
  started.clear();
  for (const dir of temporary.splice(0)) rmSync(dir, { recursive: true, force: true });
}

/** Registers a process a test started itself (a server), so that {@link stopStarted} kills it. */
export function track(child: ChildProcess): ChildProcess {
  started.add(child);
  child.once('exit', () => started.delete(child));
  return child;
}

/** What one CLI run gave. */
export interface CliRun {
  readonly code: number | null;
  readonly stdout: string;
  readonly stderr: string;
  readonly report: RunReport | undefined;
  readonly out: string;
  /** From the start to the exit. */
  readonly ms: number;
}

/** Runs the CLI with `args` (plain progress, a temporary --out); killed after `timeoutMs`. */
export function runCli(args: readonly string[], timeoutMs = 90_000, env: NodeJS.ProcessEnv = {}): Promise<CliRun> {
  const out = tempDir('wiremcp-conformance-');
  const begun = Date.now();
  const child = track(
    spawn(process.execPath, [CLI, '--out', out, '--plain', ...args], {
      stdio: ['ignore', 'pipe', 'pipe'],
      env: { ...process.env, CI: 'true', ...env },
    }),
  );
  let stdout = '';
  let stderr = '';
  child.stdout!.on('data', (chunk) => (stdout += chunk));
  child.stderr!.on('data', (chunk) => (stderr += chunk));
  return new Promise((resolve) => {
    const timer = setTimeout(() => child.kill('SIGKILL'), timeoutMs);
    child.on('exit', (code) => {
      clearTimeout(timer);
      const file = join(out, 'results.json');
      const report = existsSync(file) ? (JSON.parse(readFileSync(file, 'utf8')) as RunReport) : undefined;
      resolve({ code, stdout, stderr, report, out, ms: Date.now() - begun });
    });
  });
}
