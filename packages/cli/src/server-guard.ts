/**
 * The stdio servers this CLI process started, and what stops them on every way out: the command's end (through
 * `Connection.close`), a closed stdout or stderr (`wiremcp trace … | head`), SIGINT/SIGTERM, and, as a last resort,
 * the process's exit itself. A server is never left behind to run on with nobody reading it.
 */
import type { StdioClientTransport } from '@wiremcp/transport-stdio';

const running = new Set<StdioClientTransport>();

/** Tracks a started server until the returned function is called (after its transport closed). */
export function trackServer(transport: StdioClientTransport): () => void {
  running.add(transport);
  return () => void running.delete(transport);
}

/** Runs each tracked server's shutdown sequence (stdin closed, SIGTERM, SIGKILL); resolves once all have exited. */
function stopServers(): Promise<void> {
  return Promise.all([...running].map((transport) => transport.close().catch(() => undefined))).then(() => undefined);
}

/** SIGKILLs every tracked server still running, synchronously (for the `'exit'` event, where nothing can wait). */
function killServers(): void {
  for (const transport of running) {
    if (transport.pid === undefined || transport.exitCode !== undefined) continue;
    try {
      process.kill(transport.pid, 'SIGKILL');
    } catch {
      // Gone in the meantime.
    }
  }
}

/** What {@link guardProcess} reports to the bin. */
export interface ProcessGuard {
  /** The exit code of a way out the guard took (141 closed pipe, 130/143 signal), which wins over the command's. */
  readonly exitCode: number | undefined;
}

/**
 * Installs the ways out on this process. Always: an `'exit'` hook that SIGKILLs any server still running. With
 * `pipesAndSignals` (every command but `proxy`, which runs under `runServerMain` and its own handling of both): a
 * closed stdout or stderr (EPIPE) stops the servers and exits 141, as a process killed by SIGPIPE would, without a
 * stack trace; SIGINT/SIGTERM stop the servers and exit 130/143, and a second signal kills them and exits at once.
 */
export function guardProcess(options: { pipesAndSignals: boolean }): ProcessGuard {
  const guard = { exitCode: undefined as number | undefined };
  process.on('exit', killServers);
  if (!options.pipesAndSignals) return guard;
  const leave = (code: number): void => {
    if (guard.exitCode !== undefined) return;
    guard.exitCode = code;
    process.exitCode = code;
    void stopServers().finally(() => process.exit(code));
  };
  // Any error on our own output (EPIPE, or a write after it): whoever read it is gone, so is the point of going on.
  process.stdout.on('error', () => leave(141));
  process.stderr.on('error', () => leave(141));
  for (const [signal, code] of [
    ['SIGINT', 130],
    ['SIGTERM', 143],
  ] as const) {
    process.on(signal, () => {
      if (guard.exitCode === undefined) return leave(code);
      killServers();
      process.exit(guard.exitCode);
    });
  }
  return guard;
}
