import type { Readable, Writable } from 'node:stream';

/** The signals a server main shuts down on. */
export type ShutdownSignal = 'SIGINT' | 'SIGTERM';

/**
 * What a server main needs from its process, so that it can run against the real one or a test double:
 * arguments, standard streams, exit, signals and fatal errors.
 */
export interface MainProcess {
  /** The command-line arguments after the executable and the script (`process.argv.slice(2)`). */
  readonly argv: readonly string[];
  readonly stdin: Readable;
  /** Protocol bytes only, for a stdio server. */
  readonly stdout: Writable;
  /** Everything else: the start line, errors, usage. */
  readonly stderr: Writable;
  /** Ends the process with `code` (`process.exit`). */
  exit(code: number): void;
  /** Calls `listener` on each delivery of `signal` (installing it also replaces Node's default action). */
  onSignal(signal: ShutdownSignal, listener: (signal: ShutdownSignal) => void): void;
  /** Calls `listener` with an exception nothing caught, or a rejection nothing handled. */
  onFatal(listener: (error: unknown) => void): void;
}

/** This process, as a {@link MainProcess}. Listeners are only installed when a main asks for them. */
export function nodeProcess(): MainProcess {
  return {
    argv: process.argv.slice(2),
    stdin: process.stdin,
    stdout: process.stdout,
    stderr: process.stderr,
    exit: (code) => process.exit(code),
    onSignal: (signal, listener) => {
      process.on(signal, listener);
    },
    onFatal: (listener) => {
      process.on('uncaughtException', listener);
      process.on('unhandledRejection', listener);
    },
  };
}
