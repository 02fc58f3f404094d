// Runs one driver process (one row of one repetition) in a process group of its own, with a time limit. On
// timeout, failure, exit of the CLI or Ctrl-C the whole group (the driver and the server it spawned) is killed,
// so no process started by the bench outlives it.
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { ChildProcessSet, signalProcessGroup } from '@wiremcp/process';
import { RESULT_PREFIX, type DriverJob, type DriverResult } from './job.js';

const DRIVER = fileURLToPath(new URL('./driver.js', import.meta.url));
const live = new ChildProcessSet();

/** Kills every driver group still running (used on exit and on signals). */
export function killAllDrivers(): void {
  live.killAll('SIGKILL');
}

process.once('exit', killAllDrivers);
for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP'] as const) {
  process.once(signal, () => {
    killAllDrivers();
    process.stderr.write(`\nbench: interrupted (${signal}); every process it started was stopped\n`);
    process.exit(130);
  });
}

/** Limits and node flags of an isolated run. */
export interface RunDriverOptions {
  timeoutMs: number;
  nodeArgs?: string[];
  /** Run the process (and the server it spawns: affinity is inherited) on this CPU only, through `taskset`. */
  cpu?: number | undefined;
  /** The node binary to run the script with (default: this process's); a driver starts its server with the same. */
  execPath?: string | undefined;
}

/** Runs `job` in a fresh driver process; resolves with its result or rejects with the end of its stderr. */
export function runDriver(job: DriverJob, options: RunDriverOptions): Promise<DriverResult> {
  return runIsolated<DriverResult>(DRIVER, [JSON.stringify(job)], options);
}

/**
 * Runs a bench script (which prints `RESULT_PREFIX` + JSON) in a fresh process group; resolves with the parsed
 * result, rejects on failure or timeout with the end of its stderr.
 */
export function runIsolated<T>(script: string, args: string[], options: RunDriverOptions): Promise<T> {
  return new Promise((resolve, reject) => {
    const command = [options.execPath ?? process.execPath, ...(options.nodeArgs ?? []), script, ...args];
    if (options.cpu !== undefined) command.unshift('taskset', '-c', String(options.cpu));
    const child = spawn(command[0]!, command.slice(1), {
      detached: true,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    if (child.pid === undefined) {
      child.once('error', reject);
      return;
    }
    live.add(child, { processGroup: true });
    let stdout = '';
    let stderr = '';
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => (stdout += chunk));
    child.stderr.setEncoding('utf8').on('data', (chunk: string) => {
      stderr = (stderr + chunk).slice(-4000);
    });
    let timedOut = false;
    const timer = setTimeout(() => {
      timedOut = true;
      signalProcessGroup(child, 'SIGKILL');
    }, options.timeoutMs);
    // Whatever the driver left behind (a server it could not stop, holding the stderr pipe open) goes with the
    // group as soon as the driver exits; 'close' follows once the pipes are drained.
    child.once('exit', () => signalProcessGroup(child, 'SIGKILL'));
    child.once('close', (code, signal) => {
      clearTimeout(timer);
      const line = stdout.split('\n').find((l) => l.startsWith(RESULT_PREFIX));
      if (timedOut) return reject(new Error(`timed out after ${options.timeoutMs} ms\n${stderr}`));
      if (code !== 0 || line === undefined) return reject(new Error(`driver exited with ${signal ?? code}\n${stderr}`));
      resolve(JSON.parse(line.slice(RESULT_PREFIX.length)) as T);
    });
  });
}
