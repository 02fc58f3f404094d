/**
 * Drives the built `wiremcp` bin (and the built reference servers) as a user would: child processes, their
 * output and exit codes. Everything started is stopped by `stopAll` (call it in `afterEach`).
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';

/** The built bin (the test command builds before running the tests). */
export const WIREMCP = fileURLToPath(new URL('../bin/wiremcp.js', import.meta.url));
/** The grammar reference server's built bin. */
export const GRAMMAR = fileURLToPath(new URL('../../../servers/grammar/bin/wiremcp-grammar.js', import.meta.url));
/** The repository root. */
export const ROOT = fileURLToPath(new URL('../../../', import.meta.url));

const children = new Set<ChildProcess>();

/** What a finished command printed, and how it exited. */
export interface RunResult {
  readonly code: number | null;
  readonly stdout: string;
  readonly stderr: string;
}

/** Runs `wiremcp <args>` to its end (bounded); stdin is closed at once. */
export function wiremcp(
  args: readonly string[],
  options: { cwd?: string; timeoutMs?: number; env?: Record<string, string>; inheritEnv?: boolean } = {},
): Promise<RunResult> {
  return new Promise((resolve, reject) => {
    // inheritEnv false: only PATH, NO_COLOR and options.env (so no configuration or secret of this machine leaks in).
    const base = options.inheritEnv === false ? { PATH: process.env.PATH } : process.env;
    const child = spawn(process.execPath, [WIREMCP, ...args], {
      cwd: options.cwd ?? ROOT,
      stdio: ['ignore', 'pipe', 'pipe'],
      env: { ...base, NO_COLOR: '1', ...options.env },
    });
    children.add(child);
    let stdout = '';
    let stderr = '';
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => (stdout += chunk));
    child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`wiremcp ${args.join(' ')} did not exit in time; stderr: ${stderr}`));
    }, options.timeoutMs ?? 15_000);
    child.once('error', reject);
    child.once('close', (code) => {
      clearTimeout(timer);
      children.delete(child);
      resolve({ code, stdout, stderr });
    });
  });
}

/** A long-running process (a server over HTTP, a proxy) and the URL it printed. */
export interface Started {
  readonly child: ChildProcess;
  readonly url: string;
  stderr(): string;
}

/** Starts `node <args>` and waits for its `serving MCP on http://…` (or `ws://…`, with `--ws`) line. */
export function startHttp(args: readonly string[], timeoutMs = 15_000): Promise<Started> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [...args], { cwd: ROOT, stdio: ['ignore', 'ignore', 'pipe'] });
    children.add(child);
    child.once('exit', () => children.delete(child));
    let stderr = '';
    const timer = setTimeout(() => reject(new Error(`no serving line in time; stderr: ${stderr}`)), timeoutMs);
    child.once('error', reject);
    child.stderr.setEncoding('utf8').on('data', (chunk: string) => {
      stderr += chunk;
      const match = /serving MCP on ((?:http|ws):\/\/127\.0\.0\.1:\d+\/\S*)/.exec(stderr);
      if (match) {
        clearTimeout(timer);
        resolve({ child, url: match[1]!, stderr: () => stderr });
      }
    });
    child.once('exit', (code) => reject(new Error(`exited with ${code} before serving; stderr: ${stderr}`)));
  });
}

/** Resolves with the exit code once `child` has exited. */
export function exited(child: ChildProcess): Promise<number | null> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve(child.exitCode);
  return new Promise((resolve) => child.once('exit', (code) => resolve(code)));
}

/** Kills every child still running. */
export async function stopAll(): Promise<void> {
  const running = [...children];
  children.clear();
  await Promise.all(
    running.map((child) => {
      if (child.exitCode !== null || child.signalCode !== null) return undefined;
      child.kill('SIGKILL');
      return exited(child);
    }),
  );
}
