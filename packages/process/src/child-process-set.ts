import type { ChildProcess } from 'node:child_process';
import { signalProcessGroup } from '@wiremcp/transport-stdio';

/**
 * The child processes a program started and must not leave behind: each one is tracked until it exits, and
 * `killAll()` ends every one still running at once, synchronously, so that it can run from an `'exit'` handler
 * or a signal handler. For the graceful way, stop each child with `stopChildProcess` first; this is the
 * backstop for failures, timeouts and interruptions.
 */
export class ChildProcessSet {
  readonly #live = new Map<ChildProcess, { processGroup: boolean }>();

  /**
   * Tracks `child` until it exits (or fails to start: add it right after `spawn`). With `processGroup` (a child spawned with
   * `detached: true`), `killAll()` signals its whole group. Returns the child.
   */
  add<T extends ChildProcess>(child: T, options: { processGroup?: boolean } = {}): T {
    if (child.exitCode !== null || child.signalCode !== null) return child;
    this.#live.set(child, { processGroup: options.processGroup ?? false });
    const forget = (): void => {
      this.#live.delete(child);
    };
    child.once('exit', forget);
    // A child that never started emits 'error' then 'close', never 'exit'. No 'error' listener here: that
    // would hide the failure from a caller who does not listen for it.
    child.once('close', forget);
    return child;
  }

  /** Sends `signal` (default SIGKILL) to every tracked child still running (or its group) and forgets them all. */
  killAll(signal: NodeJS.Signals = 'SIGKILL'): void {
    for (const [child, { processGroup }] of this.#live) {
      if (processGroup) signalProcessGroup(child, signal);
      else {
        try {
          child.kill(signal);
        } catch {
          // Already gone.
        }
      }
    }
    this.#live.clear();
  }

  /** How many tracked children are still running (tests use it to prove that nothing leaked). */
  get size(): number {
    return this.#live.size;
  }
}
