import { constants } from 'node:os';
import type { Writable } from 'node:stream';
import { nodeProcess, type MainProcess, type ShutdownSignal } from './main-process.js';
import { formatUsage, parseServerArgs, type ServerArgsSpec } from './parse-server-args.js';
import { routeConsoleToStderr, watchPipes } from './pipes.js';
import { ShutdownIncomplete, type Servable, type Serving, type SharedConfiguration } from './serve-mode.js';
import type { Instrumentation } from '@wiremcp/jsonrpc';
import type { Readiness } from '@wiremcp/transport-http';
import { startMetrics, type ServerMetrics } from './metrics-flag.js';
import { healthEndpoints } from './health-endpoints.js';
import { startTracing, type ServerTracing } from './otel-flag.js';
import { installRateLimit } from './rate-limit-flag.js';

/** Default bound on a graceful shutdown after SIGINT/SIGTERM: under the 2 s a stdio client waits before SIGKILL. */
export const DEFAULT_MAIN_SHUTDOWN_TIMEOUT_MS = 1800;

/** Exit codes of a server main. */
export const EXIT_CODES = {
  /** stdin closed and the requests in progress were answered, or a clean shutdown after SIGINT/SIGTERM. */
  ok: 0,
  /** The server could not start, an error nothing caught, a broken connection, or a shutdown that overran. */
  failure: 1,
  /** A bad command line. */
  usage: 2,
} as const;

/** What a server main hands to `createServer`. */
export interface ServerMainContext {
  /** Writes `<name>: <message>` to stderr. */
  log(message: string): void;
  /** Reports an error inside the server (a handler bug) on stderr, with its stack; pass it as `onInternalError`. */
  onInternalError(error: unknown): void;
  /**
   * With `--redis`: the `requestState` signing key shared by every process of the deployment (kept in Redis), so an
   * input-required round answered on another process verifies. Pass it as the `McpServer` option `requestState`.
   * Absent otherwise (each process then signs with a random key of its own).
   */
  readonly requestState?: { readonly key: string };
  /**
   * With `--redis`: the task store shared by every process of the deployment, so a task created on one process is
   * read, updated and cancelled on any. Pass it as the `McpServer` option `tasks: { store }`. Absent otherwise.
   */
  readonly tasks?: { readonly store: NonNullable<SharedConfiguration['taskStore']> };
  /**
   * With `--metrics` or `--otel`: what observes the server's requests and sessions (the Prometheus listener's
   * histograms, the spans exported over OTLP, or both). Pass it as the `McpServer` option `instrumentation`. Absent
   * otherwise.
   */
  readonly instrumentation?: Instrumentation;
}

/** Options of {@link runServerMain}. */
export interface ServerMainOptions<Args> extends ServerArgsSpec<Args> {
  /** The command name, used in every message (`wiremcp-everything`). */
  name: string;
  version: string;
  /**
   * The bin's part of `--help`: what the server is, then its own options. The synopsis, the options every
   * server takes and the exit codes are added around it.
   */
  usage: string;
  /** Builds the server from the bin's arguments; throwing (or rejecting) stops the process with exit code 1. */
  createServer(args: Args, context: ServerMainContext): Servable | Promise<Servable>;
  /** Bound on a graceful shutdown after SIGINT/SIGTERM, in ms (default 1800). */
  shutdownTimeoutMs?: number;
  /** The process to run in (default: this one). Tests pass a double. */
  process?: MainProcess;
}

/** Built-in errors that point at a bug are shown with their stack; others (a bad file, a refused value) by message. */
function describe(error: unknown): string {
  if (!(error instanceof Error)) return String(error);
  const bug = error instanceof TypeError || error instanceof ReferenceError || error instanceof SyntaxError || error instanceof RangeError;
  const cause = error.cause instanceof Error ? ` (cause: ${error.cause.message})` : '';
  return bug ? (error.stack ?? error.message) : `${error.message}${cause}`;
}

/** How long an exit waits for stdout and stderr to drain (a client that stopped reading must not hold it). */
const FLUSH_TIMEOUT_MS = 2000;

/** Resolves once everything written to `stream` so far has been handed to the system, the stream broke, or time ran out. */
function flushed(stream: Writable): Promise<void> {
  if (stream.destroyed || stream.writableEnded) return Promise.resolve();
  return new Promise((resolve) => {
    const timer = setTimeout(resolve, FLUSH_TIMEOUT_MS);
    stream.write('', () => {
      clearTimeout(timer);
      resolve();
    });
  });
}

/**
 * The main of an MCP server bin: everything a bin does besides naming its flags and building its server.
 *
 * - Parses the command line (`parseServerArgs`): `-h/--help` prints the usage on stderr and exits 0,
 *   `--version` prints `<name> <version>` on stderr and exits 0, a bad flag or value prints one line and a hint
 *   (`Run '<name> --help' for usage.`) and exits 2. Nothing is ever written to stdout but protocol bytes.
 * - Builds the server (`createServer`; a failure prints `<name>: cannot start: <reason>` and exits 1) and serves
 *   it as the command line says (stdio, or HTTP with `--http`), with a start line on stderr naming where (the
 *   URL of the HTTP endpoint). Signal handlers are installed before the server is built, so a signal at any
 *   point after parsing stops the process gracefully.
 * - Over HTTP, SIGINT/SIGTERM drain: no new connections, `/readyz` 503, listen and SSE streams ended (with a
 *   `retry:` hint), requests in progress given the drain deadline; exit 0, or 1 when the deadline cut requests.
 * - When the client closes stdin, the requests in progress are answered and the process exits 0; when the
 *   connection breaks (stdout closed under it), the reason goes to stderr and the exit code is 1.
 * - SIGINT/SIGTERM: closes the server (open streams ended, requests in progress given a moment to finish), then
 *   exits 0; if that takes more than `shutdownTimeoutMs`, exits 1. A second signal exits at once with 128 + its
 *   number (130, 143).
 * - An exception nothing caught, or a rejection nothing handled, is printed on stderr and exits 1.
 * - Over stdio, the global `console` prints on stderr only (`console.log`, `info`, `debug` and the rest), from before
 *   `createServer` is called until the exit: a stray `console.log` in a handler or a library cannot corrupt the
 *   protocol stream. Over HTTP the console is left alone.
 * - A closed stderr (or, over HTTP, stdout) ends the process like a signal, with exit code 1: the first failed write
 *   (EPIPE) starts the shutdown and nothing is written to that stream again, so a closed pipe can never turn into an
 *   endless loop of failed error reports.
 *
 * Output is flushed before every exit. Resolves with the exit code (after `exit` was called: with the real
 * process it never resolves). Never rejects.
 */
export async function runServerMain<Args = undefined>(options: ServerMainOptions<Args>): Promise<number> {
  const proc = options.process ?? nodeProcess();
  const { name } = options;
  // A stderr that failed (EPIPE: whoever read it is gone) is never written again: every write would fail the same
  // way, and with an error handler that logs, that is a loop.
  let stderrBroken = false;
  const say = (line: string): void => {
    if (!stderrBroken) proc.stderr.write(`${line}\n`);
  };
  // Installed first, so that no write to a closed pipe (the usage, the start line, a log) is ever an uncaught error.
  const pipes = watchPipes(proc, (stream) => {
    if (stream === 'stderr') stderrBroken = true;
    onBrokenPipe?.(stream);
  });
  let onBrokenPipe: ((stream: 'stdout' | 'stderr') => void) | undefined;
  let restoreConsole: (() => void) | undefined;
  // Every way out goes through exit(), once: the first code wins, output is flushed, then the process ends.
  let exiting: Promise<number> | undefined;
  let shutdownTimer: ReturnType<typeof setTimeout> | undefined;
  const exit = (code: number): Promise<number> => {
    clearTimeout(shutdownTimer);
    exiting ??= Promise.all([flushed(proc.stdout), flushed(proc.stderr)]).then(() => {
      restoreConsole?.();
      proc.exit(code);
      return code;
    });
    return exiting;
  };
  // What the main resolves with once an event (stdin EOF, a signal, an uncaught error) has called exit().
  let exitCalled!: (exiting: Promise<number>) => void;
  const exited = new Promise<number>((resolve) => (exitCalled = resolve));
  const exitFromEvent = (code: number): void => exitCalled(exit(code));

  let parsed: ReturnType<typeof parseServerArgs<Args>>;
  try {
    parsed = parseServerArgs(proc.argv, options);
  } catch (error) {
    say(`${name}: ${describe(error)}`);
    return exit(EXIT_CODES.failure);
  }
  if (parsed.kind === 'help') {
    proc.stderr.write(formatUsage(name, options.usage, options.positionals));
    return exit(EXIT_CODES.ok);
  }
  if (parsed.kind === 'version') {
    say(`${name} ${options.version}`);
    return exit(EXIT_CODES.ok);
  }
  if (parsed.kind === 'error') {
    say(`${name}: ${parsed.message}`);
    say(`Run '${name} --help' for usage.`);
    return exit(EXIT_CODES.usage);
  }

  // Over stdio, stdout carries protocol bytes only: a stray console.log (the server's or a library's) goes to stderr.
  if (parsed.target.protocolOnStdout) restoreConsole = routeConsoleToStderr(proc.stderr);
  proc.onFatal((error) => {
    say(`${name}: uncaught error: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`);
    exitFromEvent(EXIT_CODES.failure);
  });
  // Signals are handled from here on, before the server is built and long before the start line: a supervisor
  // that signals as soon as it reads that line (or earlier) always gets a graceful stop.
  let serving: Serving | undefined;
  let stopping: ShutdownSignal | 'broken pipe' | undefined;
  /** A pipe closed under the process: it ends with code 1 whatever else happens (its parent is gone). */
  let brokenPipe = false;
  const shutdown = (reason: ShutdownSignal | 'broken pipe'): void => {
    const timeoutMs = serving!.shutdownTimeoutMs ?? options.shutdownTimeoutMs ?? DEFAULT_MAIN_SHUTDOWN_TIMEOUT_MS;
    shutdownTimer = setTimeout(() => {
      say(`${name}: not stopped ${timeoutMs} ms after ${reason === 'broken pipe' ? 'a pipe closed' : reason}; exiting`);
      exitFromEvent(EXIT_CODES.failure);
    }, timeoutMs);
    serving!.close().catch((error: unknown) => say(`${name}: error while shutting down: ${describe(error)}`));
  };
  const onSignal = (signal: ShutdownSignal): void => {
    if (stopping !== undefined) {
      say(`${name}: ${signal} again, exiting now`);
      exitFromEvent(128 + constants.signals[signal]);
      return;
    }
    stopping = signal;
    say(`${name}: ${signal}, shutting down`);
    // Still starting: the shutdown begins as soon as serving does (or the start fails and exits anyway).
    if (serving !== undefined) shutdown(signal);
  };
  proc.onSignal('SIGINT', onSignal);
  proc.onSignal('SIGTERM', onSignal);
  onBrokenPipe = (stream) => {
    // Over stdio a closed stdout is the connection's end: the transport reports it and serving ends (see below).
    if (stream === 'stdout' && serving !== undefined && parsed.target.protocolOnStdout) return;
    brokenPipe = true;
    if (stopping !== undefined) return;
    stopping = 'broken pipe';
    say(`${name}: ${stream} closed; shutting down`);
    if (serving !== undefined) shutdown(stopping);
  };
  for (const stream of pipes.broken) onBrokenPipe(stream);

  const context: ServerMainContext = {
    log: (message) => say(`${name}: ${message}`),
    onInternalError: (error) => say(`${name}: internal error: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`),
  };
  let metrics: ServerMetrics | undefined;
  let tracing: ServerTracing | undefined;
  const stopObserving = async (): Promise<void> => {
    await metrics?.close();
    await tracing?.close();
  };
  // `/readyz` on the metrics listener: not ready before serving starts nor once stopping; then the serving's own check.
  const ready = (): Readiness | Promise<Readiness> => {
    if (stopping !== undefined) return { ready: false, reason: 'draining' };
    if (serving === undefined) return { ready: false, reason: 'starting' };
    return serving.ready?.() ?? { ready: true };
  };
  try {
    const shared = await parsed.target.prepare?.(proc);
    if (parsed.metrics !== undefined) {
      metrics = await startMetrics(parsed.metrics, parsed.health ? healthEndpoints(ready) : undefined);
      say(`${name}: Prometheus metrics at ${metrics.url.href}${parsed.health ? ' (and /healthz, /readyz)' : ''}`);
    }
    if (parsed.otel) {
      tracing = await startTracing({ name, version: options.version }, globalThis.process.env, context.log);
      if (tracing !== undefined) say(`${name}: OpenTelemetry spans to ${tracing.description}`);
    }
    const instrumentation =
      tracing !== undefined && metrics !== undefined
        ? (await import('@wiremcp/otel/metrics')).combineInstrumentation(tracing.instrumentation, metrics.instrumentation)
        : (tracing ?? metrics)?.instrumentation;
    const key = shared?.requestStateKey;
    const store = shared?.taskStore;
    const server = await options.createServer(parsed.args, {
      ...context,
      ...(key === undefined ? {} : { requestState: { key } }),
      ...(store === undefined ? {} : { tasks: { store } }),
      ...(instrumentation === undefined ? {} : { instrumentation }),
    });
    if (parsed.rateLimit !== undefined) {
      installRateLimit(server, parsed.rateLimit, shared?.bucketStore, (error) => say(`${name}: ${describe(error)}`));
    }
    serving = await parsed.target.serve(server, proc, metrics === undefined ? {} : { metrics: metrics.metrics });
  } catch (error) {
    await stopObserving();
    say(`${name}: cannot start: ${describe(error)}`);
    return exit(EXIT_CODES.failure);
  }
  const started = serving;
  say(`${name} ${options.version}: serving MCP on ${started.description ?? parsed.target.description}`);
  if (stopping !== undefined) shutdown(stopping);

  void started.closed.then(async (reason) => {
    await stopObserving();
    if (reason instanceof ShutdownIncomplete) {
      say(`${name}: ${reason.message}`);
      exitFromEvent(EXIT_CODES.failure);
    } else if (reason !== undefined && stopping === undefined) {
      say(`${name}: connection closed: ${reason.message}`);
      exitFromEvent(EXIT_CODES.failure);
    } else {
      exitFromEvent(brokenPipe ? EXIT_CODES.failure : EXIT_CODES.ok);
    }
  });
  return exited;
}
