// The fixture server main (test/fixtures/server-main.mjs, on the built package) as a child process, for the tests
// that need real pipes, signals and exits: its path, a set that kills what a test left running, and the wait for
// an exit that the process must reach by itself.
import type { ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { afterEach, beforeAll } from 'vitest';
import { ChildProcessSet } from './child-process-set.js';

/** The fixture server main. */
export const FIXTURE = fileURLToPath(new URL('../test/fixtures/server-main.mjs', import.meta.url));
const BUILT = fileURLToPath(new URL('../dist/index.js', import.meta.url));

/** Checks the build is there before the file's tests, and kills after each test what it started. */
export function fixtureProcesses(): ChildProcessSet {
  const children = new ChildProcessSet();
  beforeAll(() => {
    if (!existsSync(BUILT)) throw new Error(`${BUILT} is missing: build the package before these tests`);
  });
  afterEach(() => children.killAll());
  return children;
}

/** How a process ended. */
export interface Ended {
  readonly code: number | null;
  readonly signal: NodeJS.Signals | null;
  /** The process did not exit by itself: it was killed at the deadline. */
  readonly killedAfterDeadline: boolean;
}

/** Waits for `child` to exit; past `deadlineMs` (a deadline, not a timing) it is killed and the result says so. */
export function ended(child: ChildProcess, deadlineMs = 10_000): Promise<Ended> {
  return new Promise((resolve) => {
    let killed = false;
    const timer = setTimeout(() => {
      killed = true;
      child.kill('SIGKILL');
    }, deadlineMs);
    child.once('exit', (code, signal) => {
      clearTimeout(timer);
      resolve({ code, signal, killedAfterDeadline: killed });
    });
  });
}
