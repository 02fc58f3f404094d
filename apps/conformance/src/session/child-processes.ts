/**
 * Every server process the app starts goes through here, so that all of them can be stopped: at the end of
 * their cell, on failure, on timeout, and when the app itself is interrupted (SIGINT/SIGTERM).
 *
 * Servers run in their own process group (`detached`), and signals go to the whole group: a command such as
 * `npx some-server` or `sh -c …` must not leave its grandchildren behind.
 */
import { spawn, type ChildProcess } from 'node:child_process';

const live = new Set<ChildProcess>();

/** What to start. `command[0]` is the executable; no shell is involved. */
export interface SpawnSpec {
  readonly command: readonly string[];
  readonly cwd: string;
  readonly env?: Readonly<Record<string, string>>;
}

/** Starts a server process with piped stdio in its own process group and tracks it until it exits. */
export function spawnServer(spec: SpawnSpec): ChildProcess {
  const [file, ...args] = spec.command;
  if (file === undefined) throw new Error('empty server command');
  const child = spawn(file, args, {
    cwd: spec.cwd,
    env: { ...process.env, ...spec.env },
    stdio: ['pipe', 'pipe', 'pipe'],
    detached: true,
    windowsHide: true,
  });
  live.add(child);
  child.once('exit', () => live.delete(child));
  child.once('error', () => live.delete(child));
  return child;
}

function signalGroup(child: ChildProcess, signal: NodeJS.Signals): void {
  if (child.pid === undefined) return;
  try {
    process.kill(-child.pid, signal);
  } catch {
    // The group is gone (or was never created on this platform): signal the child itself.
    try {
      child.kill(signal);
    } catch {
      // Already dead.
    }
  }
}

function exited(child: ChildProcess): boolean {
  return child.exitCode !== null || child.signalCode !== null;
}

function waitExit(child: ChildProcess, ms: number): Promise<boolean> {
  if (exited(child)) return Promise.resolve(true);
  return new Promise((resolve) => {
    const timer = setTimeout(() => {
      child.removeListener('exit', onExit);
      resolve(false);
    }, ms);
    const onExit = (): void => {
      clearTimeout(timer);
      resolve(true);
    };
    child.once('exit', onExit);
  });
}

/**
 * The spec's shutdown sequence: close stdin, wait `graceMs`, SIGTERM the group, wait, SIGKILL it. Whatever
 * happens, the process group gets a final SIGKILL so that nothing it started survives the cell.
 */
export async function stopServer(child: ChildProcess, graceMs = 1000): Promise<void> {
  if (!exited(child)) {
    child.stdin?.end();
    if (!(await waitExit(child, graceMs))) {
      signalGroup(child, 'SIGTERM');
      if (!(await waitExit(child, 1000))) {
        signalGroup(child, 'SIGKILL');
        await waitExit(child, 1000);
      }
    }
  }
  // Reap grandchildren that outlived their parent (ignored when the group is already empty).
  signalGroup(child, 'SIGKILL');
  live.delete(child);
}

/** Kills every live server group at once, synchronously (for signal handlers and process exit). */
export function killAllServers(): void {
  for (const child of live) signalGroup(child, 'SIGKILL');
  live.clear();
}

/** How many server processes are running (tests use it to prove nothing leaked). */
export function liveServerCount(): number {
  return live.size;
}
