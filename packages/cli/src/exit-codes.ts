/**
 * The exit codes of `wiremcp`: a script can tell a usage mistake from an unreachable server from a server that
 * answered with an error.
 */
export const CLI_EXIT_CODES = {
  /** The operation succeeded. */
  ok: 0,
  /** The server answered with an error (a JSON-RPC error, or a tool result with `isError: true`). */
  serverError: 1,
  /** A bad command line. */
  usage: 2,
  /** The server could not be reached, started, or negotiated with (or the connection broke). */
  connection: 3,
  /** Authorization failed (no token, refused login, a 401/403 that retrying did not fix). */
  authorization: 4,
} as const;

/** One of {@link CLI_EXIT_CODES}. */
export type CliExitCode = (typeof CLI_EXIT_CODES)[keyof typeof CLI_EXIT_CODES];

/** A failure with the exit code it maps to; the message is shown as is. */
export class CliError extends Error {
  readonly exitCode: CliExitCode;
  constructor(message: string, exitCode: CliExitCode, options?: { cause?: unknown }) {
    super(message, options);
    this.name = 'CliError';
    this.exitCode = exitCode;
  }
}
