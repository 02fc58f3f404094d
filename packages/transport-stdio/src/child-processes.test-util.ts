// Test support: fixture paths, child processes that are always stopped, and bounded waits.
import { spawn, type ChildProcess, type StdioOptions } from 'node:child_process';
import { fileURLToPath } from 'node:url';

/** Absolute path of a fixture script under test/fixtures. */
export function fixture(name: string): string {
  return fileURLToPath(new URL(`../test/fixtures/${name}`, import.meta.url));
}

const children = new Set<ChildProcess>();
const cleanups: Array<() => Promise<void> | void> = [];

/** Spawns `node <fixture>`; the child is SIGKILLed by {@link stopEverything} if it is still running. */
export function spawnFixture(name: string, options: { env?: Record<string, string>; stdio?: StdioOptions } = {}): ChildProcess {
  const child = spawn(process.execPath, [fixture(name)], {
    env: { ...process.env, ...options.env },
    stdio: options.stdio ?? ['pipe', 'pipe', 'pipe'],
  });
  children.add(child);
  child.once('exit', () => children.delete(child));
  return child;
}

/** Registers something to undo after the current test (a transport to close, a pid to kill). */
export function onCleanup(cleanup: () => Promise<void> | void): void {
  cleanups.push(cleanup);
}

/** Runs the registered cleanups and kills every child still running; call from `afterEach`. */
export async function stopEverything(): Promise<void> {
  for (const cleanup of cleanups.splice(0).reverse()) {
    try {
      await withTimeout(Promise.resolve(cleanup()), 5000, 'cleanup');
    } catch {
      // Keep going: a failed cleanup must not leave the children below running.
    }
  }
  const running = [...children];
  children.clear();
  await Promise.all(
    running.map(async (child) => {
      if (child.exitCode !== null || child.signalCode !== null) return;
      child.kill('SIGKILL');
      await withTimeout(exitOf(child), 5000, 'SIGKILL').catch(() => undefined);
    }),
  );
}

/** True while a process with this pid exists. */
export function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

/** Rejects with a labelled error when `promise` takes longer than `ms`. */
export function withTimeout<T>(promise: Promise<T>, ms: number, label: string): Promise<T> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`timed out after ${ms} ms: ${label}`)), ms);
  });
  return Promise.race([promise, timeout]).finally(() => clearTimeout(timer));
}

/** Resolves with the child's exit code and signal. */
export function exitOf(child: ChildProcess): Promise<{ code: number | null; signal: NodeJS.Signals | null }> {
  if (child.exitCode !== null || child.signalCode !== null) {
    return Promise.resolve({ code: child.exitCode, signal: child.signalCode });
  }
  return new Promise((resolve) => child.once('exit', (code, signal) => resolve({ code, signal })));
}

/** Polls `condition` until it holds; fails after `ms`. */
export async function waitUntil(condition: () => boolean, ms: number, label: string | (() => string)): Promise<void> {
  const deadline = Date.now() + ms;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error(`timed out after ${ms} ms waiting for ${typeof label === 'string' ? label : label()}`);
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
}

/** Accumulates everything a stream emits, as bytes. */
export function collect(stream: NodeJS.ReadableStream | null | undefined): { bytes(): Buffer; text(): string } {
  const chunks: Buffer[] = [];
  stream?.on('data', (chunk: Buffer) => chunks.push(chunk));
  return {
    bytes: () => Buffer.concat(chunks),
    text: () => Buffer.concat(chunks).toString('utf8'),
  };
}

/** Resolves after `ms`. */
export function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}
