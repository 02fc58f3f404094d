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
