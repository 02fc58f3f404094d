/**
 * `wiremcp proxy`: serves a target through the bridge server (`bridge.ts`), on this process's stdio or — with
 * `--http` — over Streamable HTTP with the security defaults of every wiremcp server (loopback bind, `Host` and
 * `Origin` checks, body and stream limits; see `@wiremcp/process`). So a stdio server can be reached over HTTP,
 * and a remote HTTP server (with `--auth`, logged in with OAuth) can be given to a host that speaks only stdio.
 */
import { nodeProcess, runServerMain, type MainProcess, type Servable } from '@wiremcp/process';
import { createBridgeServer } from './bridge.js';
import { connectTarget, type Connection, type ConnectionOptions } from './connect.js';
import { CLI_EXIT_CODES } from './exit-codes.js';
import { describeTarget, type Target } from './target.js';

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
  let upstream: Connection | undefined;
  let ending = false;
  const main: MainProcess = {
    ...proc,
    argv: serveArgv(serve),
    exit: (code) => {
      ending = true;
      void (upstream?.close() ?? Promise.resolve()).finally(() => proc.exit(code));
    },
  };
  return runServerMain({
    name: 'wiremcp proxy',
    version: '0.1.0',
    usage: '',
    process: main,
    async createServer(): Promise<Servable> {
      upstream = await connectTarget(target, options);
      const connection = upstream;
      const bridge = createBridgeServer(connection.client);
      connection.client.onClose((error) => {
        if (ending) return;
        ending = true;
        proc.stderr.write(`wiremcp proxy: upstream ${describeTarget(target)} closed${error ? `: ${error.message}` : ''}\n`);
        void bridge.close().finally(() => proc.exit(CLI_EXIT_CODES.connection));
      });
      return {
        connect: (transport) => bridge.connect(transport),
        dispatch: (message, exchange) => bridge.dispatch(message, exchange),
        tool: () => undefined,
        close: async () => {
          await bridge.close();
          ending = true;
          await connection.close();
        },
      } as Servable;
    },
  });
}
