/**
 * `wiremcp proxy`: serves a target through the bridge server (`bridge.ts`), on this process's stdio or — with
 * `--http` — over Streamable HTTP with the security defaults of every wiremcp server (loopback bind, `Host` and
 * `Origin` checks, body and stream limits; see `@wiremcp/process`). So a stdio server can be reached over HTTP,
 * and a remote HTTP server (with `--auth`, logged in with OAuth) can be given to a host that speaks only stdio.
 *
 * One upstream connection per downstream connection, so that the upstream server's own requests (sampling,
 * elicitation, roots) reach the client they are meant for: on stdio there is one downstream connection, served by
 * the upstream connection opened at start; over HTTP each legacy session gets an upstream connection of its own
 * (for a stdio target, a server process of its own), opened when the session starts and closed when it ends, while
 * stateless 2026-07-28 requests share the one opened at start. That costs a connection (or a process) per session;
 * with a single upstream connection an upstream request could not be routed to the right session.
 */
import type { Transport } from '@wiremcp/jsonrpc';
import { nodeProcess, runServerMain, startTracing, type MainProcess, type Servable } from '@wiremcp/process';
import type { McpServer, ServerConnection } from '@wiremcp/server';
import { createBridgeServer } from './bridge.js';
import { DownstreamInputs } from './downstream-inputs.js';
import { connectTarget, type Connection, type ConnectionOptions } from './connect.js';
import { CLI_EXIT_CODES } from './exit-codes.js';
import { describeTarget, type Target } from './target.js';
import { VERSION } from './version.js';

/** How the proxy serves: stdio unless `http` is given. */
export interface ProxyServeOptions {
  /** `[host:]port` to serve Streamable HTTP on. */
  readonly http?: string;
  /** The HTTP endpoint path (default `/mcp`). */
  readonly path?: string;
  /** Also serve the 2024-11-05 HTTP+SSE endpoints. */
  readonly legacySse?: boolean;
  /** Origins that may call from a browser. */
  readonly allowOrigin?: readonly string[];
  /**
   * Export spans over OTLP (`@wiremcp/process`'s `--otel`, set up by the `OTEL_*` variables): one per request served
   * and, as its child, one per upstream request, so a host's trace continues through the proxy into the server.
   */
  readonly otel?: boolean;
}

/** The serve flags in the form `runServerMain` reads them. */
function serveArgv(serve: ProxyServeOptions): string[] {
  const argv: string[] = [];
  if (serve.http !== undefined) argv.push('--http', serve.http);
  if (serve.path !== undefined) argv.push('--path', serve.path);
  if (serve.legacySse) argv.push('--legacy-sse');
  for (const origin of serve.allowOrigin ?? []) argv.push('--allow-origin', origin);
  return argv;
}

/** An upstream connection and the bridge server that serves it downstream. */
interface Bridge {
  readonly upstream: Connection;
  readonly server: McpServer;
  readonly inputs: DownstreamInputs;
}

async function openBridge(target: Target, options: ConnectionOptions): Promise<Bridge> {
  const inputs = new DownstreamInputs();
  const upstream = await connectTarget(target, options, inputs.handlers);
  return { upstream, inputs, server: createBridgeServer(upstream.client, inputs, options.instrumentation) };
}

/**
 * Runs the proxy until it is stopped (stdin closed, a signal) or the upstream server goes away (exit code 3).
 * Resolves with the exit code; with the real process it exits instead.
 */
export async function runProxy(
  target: Target,
  options: ConnectionOptions,
  serve: ProxyServeOptions,
  proc: MainProcess = nodeProcess(),
): Promise<number> {
  let primary: Bridge | undefined;
  const sessions = new Set<Bridge>();
  let ending = false;
  // Started before anything connects, so the upstream client and every bridge server are traced.
  const tracing = serve.otel
    ? await startTracing({ name: 'wiremcp-proxy', version: VERSION }, process.env, (message) =>
        proc.stderr.write(`wiremcp proxy: ${message}\n`),
      )
    : undefined;
  if (tracing !== undefined) {
    proc.stderr.write(`wiremcp proxy: OpenTelemetry spans to ${tracing.description}\n`);
    options = { ...options, instrumentation: tracing.instrumentation };
  }
  const closeUpstreams = async (): Promise<void> => {
    await Promise.all([...sessions].map((bridge) => bridge.upstream.close()));
    sessions.clear();
    await primary?.upstream.close();
    await tracing?.close();
  };
  const main: MainProcess = {
    ...proc,
    argv: serveArgv(serve),
    exit: (code) => {
      ending = true;
      void closeUpstreams().finally(() => proc.exit(code));
    },
  };
  /** A legacy HTTP session: its own upstream connection, closed with it (and the other way round). */
  const connectSession = async (transport: Transport, connectOptions: unknown): Promise<ServerConnection> => {
    // The era the first connection detected: a session's connection need not probe again.
    const era = options.era ?? primary?.upstream.client.era;
    const bridge = await openBridge(target, era === undefined ? options : { ...options, era });
    sessions.add(bridge);
    const release = () => {
      if (!sessions.delete(bridge)) return;
      void bridge.server.close().finally(() => bridge.upstream.close());
    };
    let served: ServerConnection;
    try {
      bridge.server.onconnectionclosed = release;
      served = await bridge.server.connect(transport, connectOptions as Parameters<McpServer['connect']>[1]);
    } catch (error) {
      release();
      throw error;
    }
    bridge.inputs.connection = served;
    bridge.upstream.client.onClose(() => {
      if (!ending && sessions.has(bridge)) void served.close();
    });
    return served;
  };
  // Connected before serving: a target that cannot be reached fails the command once, with its cause and exit 3
  // (as every command does), not as a server that "cannot start" (exit 1, the cause repeated).
  primary = await openBridge(target, options);
  const bridge = primary;
  return runServerMain({
    name: 'wiremcp proxy',
    version: VERSION,
    usage: '',
    process: main,
    async createServer(): Promise<Servable> {
      bridge.upstream.client.onClose((error) => {
        if (ending) return;
        ending = true;
        proc.stderr.write(`wiremcp proxy: upstream ${describeTarget(target)} closed${error ? `: ${error.message}` : ''}\n`);
        void bridge.server
          .close()
          .then(closeUpstreams)
          .finally(() => proc.exit(CLI_EXIT_CODES.connection));
      });
      return {
        connect: async (transport: Transport, connectOptions?: unknown) => {
          if (serve.http !== undefined) return connectSession(transport, connectOptions);
          const served = await bridge.server.connect(transport);
          bridge.inputs.connection = served;
          return served;
        },
        dispatch: (message, exchange) => bridge.server.dispatch(message, exchange),
        tool: () => undefined,
        close: async () => {
          ending = true;
          await Promise.all([...sessions].map((session) => session.server.close()));
          await bridge.server.close();
          await closeUpstreams();
        },
      } as Servable;
    },
  });
}
