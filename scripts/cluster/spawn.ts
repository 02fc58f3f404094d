/**
 * Starting and stopping the cluster's processes: spawn one and wait for the line saying it is ready, keep the tail
 * of what it prints (for a diagnosis when it dies), and kill one and wait for it to be gone.
 */
import { spawn, type ChildProcess, type SpawnOptions } from 'node:child_process';

/** The last ~16 KB a process printed (stdout and stderr together), kept after it is ready. */
const outputs = new WeakMap<ChildProcess, { text: string }>();

/** What `child` printed last (for a diagnosis). */
export function outputOf(child: ChildProcess | undefined): string {
  return child === undefined ? '' : (outputs.get(child)?.text ?? '');
}

/** Spawns a process and resolves once a line of its output matches `ready` (rejects when it exits first). */
export function spawnReady(
  command: string,
  args: readonly string[],
  ready: RegExp,
  options: { timeoutMs?: number; env?: NodeJS.ProcessEnv } = {},
): Promise<ChildProcess> {
  // Generous: on a machine shared with other work a Node process can take long to start; this bounds a failure only.
  const timeoutMs = options.timeoutMs ?? 60_000;
  return new Promise((resolve, reject) => {
    const spawnOptions: SpawnOptions = { stdio: ['ignore', 'pipe', 'pipe'], ...(options.env ? { env: options.env } : {}) };
    const child = spawn(command, args, spawnOptions);
    const kept = { text: '' };
    outputs.set(child, kept);
    let started = false;
    const timer = setTimeout(
      () => fail(new Error(`${command} did not start within ${timeoutMs} ms:\n${kept.text.slice(-2000)}`)),
      timeoutMs,
    );
    const onData = (chunk: Buffer): void => {
      kept.text += chunk.toString('utf8');
      // Bounded: a chatty process keeps only its last lines.
      if (kept.text.length > 32_000) kept.text = kept.text.slice(-16_000);
      if (!started && ready.test(kept.text)) {
        started = true;
        clearTimeout(timer);
        child.off('exit', onEarlyExit);
        resolve(child);
      }
    };
    const fail = (error: Error): void => {
      clearTimeout(timer);
      child.kill('SIGKILL');
      reject(error);
    };
    const onEarlyExit = (code: number | null, signal: string | null): void =>
      fail(new Error(`${command} exited (${signal ?? code}) before it was ready:\n${kept.text.slice(-2000)}`));
    // Read to the end, so a chatty process never blocks on a full pipe.
    child.stdout!.on('data', onData);
    child.stderr!.on('data', onData);
    child.once('error', fail);
    child.once('exit', onEarlyExit);
  });
}

/**
 * Kills a child process and waits for it to exit (a stopped one is continued first, so it can die). A process that
 * outlives `graceMs` (default 10 s) after a gentler signal gets SIGKILL: a process that ignores SIGTERM (a build with
 * a bug) must not outlive the test or benchmark that started it.
 */
export function killAndWait(child: ChildProcess | undefined, signal: NodeJS.Signals = 'SIGKILL', graceMs = 10_000): Promise<void> {
  if (child === undefined || child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
  return new Promise((resolve) => {
    const timer = signal === 'SIGKILL' ? undefined : setTimeout(() => child.kill('SIGKILL'), graceMs);
    child.once('exit', () => {
      clearTimeout(timer);
      resolve();
    });
    child.kill(signal);
    if (signal !== 'SIGKILL') child.kill('SIGCONT');
  });
}
