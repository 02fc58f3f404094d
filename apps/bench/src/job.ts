// The contract between the CLI and its driver processes.
import type { ClientKind } from './clients/session.js';
import type { ServerKind, Workload } from './plan.js';
import type { Era } from './wire.js';

/** What the CLI asks a driver to do. */
export interface DriverJob {
  client: ClientKind;
  server: ServerKind;
  era: Era;
  workload: Workload;
  /** Measure cold start and RSS. */
  cold: boolean;
  /** Run the load session (sequential and pipelined phases). */
  load: boolean;
  clockTicksPerSec: number;
  /**
   * The load phase's server script instead of this bench's `servers/<server>-server.js` (the overhead bench's
   * variants, or a server built in another checkout), and its arguments.
   */
  serverScript?: string;
  serverArgs?: string[];
}

/** One timed phase (one tool, sequential or pipelined). */
export interface PhaseResult {
  calls: number;
  elapsedMs: number;
  callsPerSec: number;
  /** Round-trip percentiles in µs (sequential phases). */
  p50Us?: number;
  p99Us?: number;
  /** CPU time per call in µs of the server process and of this (client) process. */
  serverCpuUsPerCall?: number;
  clientCpuUsPerCall: number;
  /** Write system calls of the server process per call (`/proc/<pid>/io`). */
  serverWritesPerCall?: number;
}

/** What a driver prints. */
export interface DriverResult {
  coldStartMs: number[];
  rssKb?: number;
  phases: Record<string, PhaseResult>;
}

/** Marks the result line on the driver's stdout. */
export const RESULT_PREFIX = '@@bench-result ';
