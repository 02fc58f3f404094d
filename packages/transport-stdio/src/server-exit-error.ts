import { LocalError } from '@wiremcp/protocol';

/** What is known about a server process when it is reported gone; also the `details` of the error. */
export interface ServerExitDetails {
  /** The command line as shown in the message. */
  readonly command: string;
  readonly pid: number | undefined;
  /** The exit code, `null` when killed by a signal, `undefined` while it has not exited. */
  readonly exitCode: number | null | undefined;
  readonly signal: NodeJS.Signals | null | undefined;
  /** The last few KB of stderr (`stderr: 'pipe'` only, else empty). */
  readonly stderrTail: string;
}

/** Shows a command line the way a user would type it: arguments with spaces or quotes are JSON-quoted. */
export function formatCommand(command: string, args: readonly string[]): string {
  return [command, ...args].map((part) => (part === '' || /[\s"'\\]/.test(part) ? JSON.stringify(part) : part)).join(' ');
}

/**
 * The `SERVER_EXITED` error a stdio client closes with when its server goes away unasked, e.g.
 * "Server process 'node server.js' exited with code 1: Error: boom". `what` says what happened when the
 * process has not exited (it closed its stdout); `stderrLines` is appended after a colon when non-empty.
 */
export function serverExitError(details: ServerExitDetails, what: string | undefined, stderrLines: string, cause?: unknown): LocalError {
  let happened: string;
  if (details.exitCode !== undefined && details.exitCode !== null) happened = `exited with code ${details.exitCode}`;
  else if (details.signal) happened = `was killed by signal ${details.signal}`;
  else happened = what ?? 'went away';
  const message = `Server process '${details.command}' ${happened}${stderrLines === '' ? '' : `: ${stderrLines}`}`;
  return new LocalError('SERVER_EXITED', message, cause === undefined ? { details } : { details, cause });
}

/** The `SERVER_EXITED` error `start()` rejects with when the process cannot be spawned (ENOENT, EACCES…). */
export function spawnError(command: string, error: unknown): LocalError {
  const code = (error as NodeJS.ErrnoException | undefined)?.code;
  const hint =
    code === 'ENOENT'
      ? ' (command not found: check the command, PATH and cwd)'
      : code === 'EACCES'
        ? ' (permission denied: is the file executable?)'
        : '';
  const reason = error instanceof Error ? error.message : String(error);
  return new LocalError('SERVER_EXITED', `Could not start server process '${command}': ${reason}${hint}`, {
    cause: error,
    details: { command, errno: code },
  });
}
