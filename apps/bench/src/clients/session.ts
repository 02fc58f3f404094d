import type { ToolName } from '../workload.js';
import type { Era } from '../wire.js';

/** The clients the bench drives servers with. */
/**
 * `raw` writes the requests of one round (all those sent in one microtask) in one write; `raw-each` writes every
 * request in a write of its own (a server then reads them in chunks of any size).
 */
export type ClientKind = 'raw' | 'raw-each' | 'wiremcp' | 'sdk-v1' | 'sdk-v2';

/** How to start a server process. */
export interface ServerCommand {
  command: string;
  args: string[];
}

/**
 * One client connected to one server process, after the handshake (legacy `initialize` + `initialized`, or modern
 * `server/discover`). Every client is used the way its documentation shows; `call` resolves with the tools/call
 * result as that client returns it.
 */
export interface ClientSession {
  /** The server's process id (for its CPU time and RSS). */
  readonly serverPid: number;
  /** `tools/list` (clients that validate structured output learn the outputSchema from it). */
  listTools(): Promise<unknown>;
  /** The `i`-th call of `tool` (arguments from the workload). */
  call(tool: ToolName, i: number): Promise<unknown>;
  /** Ends the session and waits for the server process to exit (killing it if it does not). */
  close(): Promise<void>;
}

/** Opens a session: spawns the server and runs the handshake of `era`. */
export type SessionOpener = (server: ServerCommand, era: Era) => Promise<ClientSession>;
