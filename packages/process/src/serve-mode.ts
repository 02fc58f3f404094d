import type { Transport } from '@wiremcp/jsonrpc';
// A type only, erased from the output: the store exists only when `--redis` loaded that (optional peer) package.
import type { RedisTaskStore } from '@wiremcp/redis';
import type { BucketStore } from '@wiremcp/server';
import type { FlagValues, ServerFlags } from './server-flags.js';
import type { McpMetrics } from '@wiremcp/otel/metrics';
import type { MainProcess } from './main-process.js';
import type { Readiness } from '@wiremcp/transport-http';

/**
 * Something that serves a transport: an `McpServer`, whose `connect` resolves with the connection. Over HTTP it
 * also needs `dispatch` (2026-07-28 requests are served without a connection); `close` ends it on shutdown.
 */
export interface Servable {
  connect(transport: Transport): Promise<{ close(): Promise<void> }>;
  dispatch?(message: unknown, exchange: never): Promise<unknown>;
  close?(): Promise<void>;
}

/** A server being served by a {@link ServeTarget}. */
export interface Serving {
  /**
   * Resolves when serving is over: the client closed stdin and what was in progress is answered, or `close()`
   * finished, or the connection broke. Resolves with the reason of an abnormal end, `undefined` otherwise.
   */
  readonly closed: Promise<Error | undefined>;
  /** Ends serving gracefully: open streams are ended, requests in progress get a moment to finish. */
  close(): Promise<void>;
  /** Where it serves, once known (an HTTP server's bound address), for the start line. */
  readonly description?: string;
  /**
   * Bound on a graceful shutdown of this serving, in ms, when it has its own (an HTTP drain's deadline, plus time to
   * close); otherwise the main's `shutdownTimeoutMs` applies.
   */
  readonly shutdownTimeoutMs?: number;
  /** Readiness as `/readyz` reports it (an HTTP server's: draining, Redis reachable), for the metrics listener too. */
  ready?(): Readiness | Promise<Readiness>;
}

/**
 * The reason `Serving.closed` resolves with when a shutdown finished but had to cut work short (an HTTP drain whose
 * deadline passed with requests in progress): the main then exits 1 instead of 0.
 */
export class ShutdownIncomplete extends Error {
  override readonly name = 'ShutdownIncomplete';
}

/** What every process of a deployment must agree on, found before the server is built (see `ServeTarget.prepare`). */
export interface SharedConfiguration {
  /** The key that signs 2026-07-28 `requestState`, the same in every process (`McpServer`'s `requestState.key`). */
  readonly requestStateKey?: string;
  /** The task store every process shares (`McpServer`'s `tasks.store`). */
  readonly taskStore?: RedisTaskStore;
  /** The rate limit buckets every process shares (`--rate-limit` with `--redis`). */
  readonly bucketStore?: BucketStore;
}

/** What the main adds to serving: the metrics of `--metrics`, which the HTTP mode feeds (streams, refusals). */
export interface ServeExtras {
  readonly metrics?: McpMetrics;
}

/** Where and how to serve, as chosen from the command line. */
export interface ServeTarget {
  /** For the start line: `stdio (framing: auto)` (replaced by the serving's own description when it has one). */
  readonly description: string;
  /**
   * True when stdout carries the protocol (stdio): the main then routes the global `console` to stderr, and leaves a
   * closed stdout to the transport (for it that is the connection's end, reported through `closed`).
   */
  readonly protocolOnStdout?: boolean;
  /** Runs before the server is built: connects shared state (`--redis`) and returns the shared configuration. */
  prepare?(process: MainProcess): Promise<SharedConfiguration>;
  serve(server: Servable, process: MainProcess, extras?: ServeExtras): Promise<Serving>;
}

/**
 * One way a server main can serve (HTTP with `--http`, otherwise stdio): the flags it adds to every
 * server's command line, and how they select it. `runServerMain` asks each mode in turn; the first one whose
 * flags are present wins, and the last mode is the default. A mode is added here, not in the bins: a bin
 * names its own flags and its server, never a transport.
 */
export interface ServeMode {
  /** The mode's flags, in `node:util` `parseArgs` form. */
  readonly flags: ServerFlags;
  /** Their lines in the usage text, indented by two spaces. */
  readonly usage: string;
  /**
   * The target when `values` select this mode, `undefined` when they do not (`isDefault` makes the mode take
   * whatever no other mode took). Throws a `UsageError` for a bad value.
   */
  select(values: FlagValues, isDefault: boolean): ServeTarget | undefined;
}
