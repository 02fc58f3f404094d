import { StdioServerTransport, type StdioServerTransportOptions } from './stdio-server-transport.js';

/** Options of {@link createProcessStdioTransport}: those of a server transport, without the streams. */
export type ProcessStdioTransportOptions = Omit<StdioServerTransportOptions, 'input' | 'output'>;

/**
 * A {@link StdioServerTransport} on this process's stdin and stdout: the one place in the package that
 * touches `process`. It never calls `process.exit`: when the transport closes it stops reading stdin
 * (pausing it releases the stdin handle) and leaves no listener that keeps the event loop alive, so once
 * pending stdout writes complete a server with nothing else to do exits with code 0 on its own. An EPIPE
 * on stdout (the client went away) closes the transport instead of crashing the process. Log to stderr
 * (`console.error`): stdout carries protocol bytes only.
 */
export function createProcessStdioTransport(options: ProcessStdioTransportOptions = {}): StdioServerTransport {
  return new StdioServerTransport({ ...options, input: process.stdin, output: process.stdout });
}
