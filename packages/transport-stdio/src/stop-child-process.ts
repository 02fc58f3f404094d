import type { ChildProcess } from 'node:child_process';
import { swallowLateErrors } from './swallow-errors.js';

/** Default wait of each step of {@link stopChildProcess} (stdin closed, then SIGTERM) before the next one. */
export const DEFAULT_STOP_GRACE_MS = 2000;

/** Options of {@link stopChildProcess}. */
export interface StopChildProcessOptions {
  /** How long to wait for the exit after closing stdin, in ms (default 2000). */
  graceMs?: number;
  /** How long to wait for the exit after SIGTERM before SIGKILL, in ms (default: `graceMs`). */
  termGraceMs?: number;
  /**
   * Signal the child's whole process group instead of the child alone; spawn it with `detached: true` so
   * that it leads a group of its own. A server started through `npx` or `sh -c` then stops with everything
   * it started, and whatever is left of the group once the child has exited gets SIGKILL. Default false.
   * Where there are no process groups (Windows), the child alone is signalled.
   */
  processGroup?: boolean;
}

/** How {@link stopChildProcess} ended. */
export interface StopChildProcessResult {
  /**
   * The step that ended the process: `'not-running'` (it had exited already, or never started),
   * `'stdin-closed'` (it exited by itself once its stdin closed), `'SIGTERM'` or `'SIGKILL'`.
   */
  stoppedBy: 'not-running' | 'stdin-closed' | 'SIGTERM' | 'SIGKILL';
  /** The exit code; `null` when a signal ended the process or it never started. */
  exitCode: number | null;
  /** The signal that ended the process, or `null`. */
  signalCode: NodeJS.Signals | null;
}

function hasExited(child: ChildProcess): boolean {
  return child.exitCode !== null || child.signalCode !== null;
}

/** True once `child` has exited, false if `ms` (default: no limit) passes first. */
export function waitForExit(child: ChildProcess, ms = Number.POSITIVE_INFINITY): Promise<boolean> {
  if (hasExited(child)) return Promise.resolve(true);
  return new Promise((resolve) => {
    let timer: ReturnType<typeof setTimeout> | undefined;
    const onExit = (): void => {
      clearTimeout(timer);
      resolve(true);
    };
    child.once('exit', onExit);
    if (Number.isFinite(ms)) {
      timer = setTimeout(() => {
        child.removeListener('exit', onExit);
        resolve(false);
      }, ms);
    }
  });
}

/**
 * Sends `signal` to the process group led by `target` (a child spawned with `detached: true`, or its pid), and
 * falls back to the process alone when there is no such group (or no groups at all, on Windows). Returns
 * whether a signal was delivered; never throws (a process that is already gone is not an error here).
 */
export function signalProcessGroup(target: ChildProcess | number, signal: NodeJS.Signals): boolean {
  const pid = typeof target === 'number' ? target : target.pid;
  if (pid === undefined) return false;
  if (process.platform !== 'win32') {
    try {
      process.kill(-pid, signal);
      return true;
    } catch {
      // No such group: the process was not spawned detached, or the whole group is gone.
    }
  }
  try {
    if (typeof target !== 'number') return target.kill(signal);
    process.kill(pid, signal);
    return true;
  } catch {
    return false;
  }
}

/**
 * The MCP stdio shutdown sequence, for any child process: close its stdin (a well-behaved server exits on
 * EOF), wait `graceMs`, send SIGTERM, wait `termGraceMs`, send SIGKILL, and resolve once the process has
 * exited. With `processGroup` the signals go to the child's whole group, and the group is reaped with SIGKILL
 * after the child exits. Safe to call on a child that has exited or never started, and more than once: a late
 * EPIPE on its stdin is swallowed rather than left to crash the caller. On Windows `kill()` terminates the
 * process whatever the signal, so the SIGTERM step already ends it.
 */
export async function stopChildProcess(child: ChildProcess, options: StopChildProcessOptions = {}): Promise<StopChildProcessResult> {
  const graceMs = options.graceMs ?? DEFAULT_STOP_GRACE_MS;
  const termGraceMs = options.termGraceMs ?? graceMs;
  const signal = (name: NodeJS.Signals): void => {
    if (options.processGroup) signalProcessGroup(child, name);
    else child.kill(name);
  };
  const result = (stoppedBy: StopChildProcessResult['stoppedBy']): StopChildProcessResult => {
    // Whatever the child started and left behind in its group goes too.
    if (options.processGroup) signalProcessGroup(child, 'SIGKILL');
    return { stoppedBy, exitCode: child.exitCode, signalCode: child.signalCode };
  };
  if (child.pid === undefined || hasExited(child)) return result('not-running');
  const stdin = child.stdin;
  if (stdin) {
    swallowLateErrors(stdin);
    stdin.end();
  }
  if (await waitForExit(child, graceMs)) return result('stdin-closed');
  signal('SIGTERM');
  if (await waitForExit(child, termGraceMs)) return result('SIGTERM');
  signal('SIGKILL');
  await waitForExit(child);
  return result('SIGKILL');
}
