import type { Stream } from 'node:stream';

/** The shared no-op listener; one function, so a stream never carries more than one of it. */
function swallow(): void {}

/**
 * Leaves a no-op `'error'` listener on a stream a transport is done with, so that a late error (EPIPE
 * after the reader went away, a read error after close) cannot become an unhandled `'error'` event that
 * kills the process. Adds it at most once per stream, however many transports used the stream.
 */
export function swallowLateErrors(stream: Stream): void {
  if (!stream.listeners('error').includes(swallow)) stream.on('error', swallow);
}
