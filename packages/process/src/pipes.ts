import { Console } from 'node:console';
import type { Writable } from 'node:stream';
import type { MainProcess } from './main-process.js';

/** The standard output streams of a main, by name. */
export type OutputPipe = 'stdout' | 'stderr';

/** What {@link watchPipes} saw. */
export interface WatchedPipes {
  /** The streams that failed before anyone asked (in order). */
  readonly broken: ReadonlySet<OutputPipe>;
}

/**
 * Listens for errors on the process's stdout and stderr, for as long as the process lives. A write to a pipe whose
 * reader has gone (EPIPE) makes the stream emit `'error'`; without a listener that is an uncaught exception, and a
 * main that reports uncaught exceptions on stderr then writes to the broken stream again: a loop at full CPU that
 * keeps the process from ever handling a signal. Each stream is reported to `onBroken` once, at its first error.
 */
export function watchPipes(proc: Pick<MainProcess, 'stdout' | 'stderr'>, onBroken: (stream: OutputPipe) => void): WatchedPipes {
  const broken = new Set<OutputPipe>();
  const watch = (name: OutputPipe, stream: Writable): void => {
    stream.on('error', () => {
      if (broken.has(name)) return;
      broken.add(name);
      onBroken(name);
    });
  };
  watch('stdout', proc.stdout);
  watch('stderr', proc.stderr);
  return { broken };
}

/** The console methods that print: those that print on stdout are the reason for the redirection; all move together. */
const PRINTING_METHODS = [
  'log',
  'info',
  'debug',
  'dir',
  'dirxml',
  'table',
  'count',
  'countReset',
  'group',
  'groupCollapsed',
  'groupEnd',
  'time',
  'timeEnd',
  'timeLog',
  'trace',
  'warn',
  'error',
  'assert',
] as const;

/**
 * Makes the global `console` print on `stderr` only: `console.log`, `info`, `debug`, `dir`, `table`, `count`,
 * `group`, `time*` (which Node prints on stdout) and the rest (so that `group` indentation stays consistent). A stdio
 * server's stdout carries protocol messages only, and one stray `console.log` line there is a message the client
 * cannot parse. Writes through `process.stdout.write` are not touched. Returns a function that puts the original
 * methods back.
 */
export function routeConsoleToStderr(stderr: Writable): () => void {
  const target = globalThis.console as unknown as Record<string, unknown>;
  const redirected = new Console({ stdout: stderr, stderr }) as unknown as Record<string, unknown>;
  const saved = new Map<string, unknown>();
  for (const method of PRINTING_METHODS) {
    const replacement = redirected[method];
    if (typeof replacement !== 'function') continue;
    saved.set(method, target[method]);
    target[method] = replacement.bind(redirected);
  }
  return () => {
    for (const [method, original] of saved) target[method] = original;
  };
}
