// Test support: fixture paths, child processes that are always stopped, and waits on events (never on time).
import { spawn, type ChildProcess, type StdioOptions } from 'node:child_process';
import type { EventEmitter } from 'node:events';
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

/**
 * Rejects with a labelled error when `promise` takes longer than `ms` (a bound for cleanups or a diagnosis of a hang,
 * not a test of speed). A label given as a function is worked out when the time is up (what was seen by then).
 */
export function withTimeout<T>(promise: Promise<T>, ms: number, label: string | (() => string)): Promise<T> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`timed out after ${ms} ms: ${typeof label === 'string' ? label : label()}`)), ms);
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

/**
 * Resolves once `condition()` holds: checked now and after every `event` on `emitter`. Rejects with `label` if the
 * emitter ends (`'end'`, `'close'`, `'exit'`) first, so a wait can never outlive what it waits on.
 */
export function when(emitter: EventEmitter, event: string, condition: () => boolean, label: string | (() => string)): Promise<void> {
  if (condition()) return Promise.resolve();
  return new Promise((resolve, reject) => {
    const ends = ['end', 'close', 'exit'].filter((name) => name !== event);
    const done = (): void => {
      emitter.removeListener(event, check);
      for (const name of ends) emitter.removeListener(name, ended);
    };
    const check = (): void => {
      if (!condition()) return;
      done();
      resolve();
    };
    const ended = (): void => {
      // An end event may come with the data that satisfies the condition.
      if (condition()) return check();
      done();
      reject(new Error(`ended before ${typeof label === 'string' ? label : label()}`));
    };
    emitter.on(event, check);
    for (const name of ends) emitter.once(name, ended);
  });
}

/** Everything a stream emits, as bytes, and a way to wait until it holds something. */
export interface Collected {
  bytes(): Buffer;
  text(): string;
  /** Resolves once `condition(text)` holds (checked on each chunk); rejects if the stream ends first. */
  until(condition: (text: string) => boolean, label: string): Promise<void>;
}

/** Accumulates everything a stream emits. */
export function collect(stream: NodeJS.ReadableStream | null | undefined): Collected {
  const chunks: Buffer[] = [];
  stream?.on('data', (chunk: Buffer) => chunks.push(chunk));
  const text = (): string => Buffer.concat(chunks).toString('utf8');
  return {
    bytes: () => Buffer.concat(chunks),
    text,
    until: (condition, label) =>
      stream
        ? when(
            stream as unknown as EventEmitter,
            'data',
            () => condition(text()),
            () => `${label}; got ${JSON.stringify(text())}`,
          )
        : Promise.reject(new Error('no stream')),
  };
}

/** A promise with its resolver, for tests that hold a handler until they let it go. */
export function gate<T = void>(): { promise: Promise<T>; open: (value: T) => void } {
  let open!: (value: T) => void;
  const promise = new Promise<T>((resolve) => (open = resolve));
  return { promise, open };
}

/** Resolves after the microtasks queued so far, and those they queue, have run: one turn of the event loop. */
export function nextTurn(): Promise<void> {
  return new Promise((resolve) => setImmediate(resolve));
}
