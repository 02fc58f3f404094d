/**
 * Serving MCP over WebSocket, chosen by `--ws [host:]port`: subprotocol `mcp`, one JSON-RPC message per text frame,
 * every revision on each connection (as over stdio). Binds 127.0.0.1 unless a host is given; on a loopback bind
 * `Host` and `Origin` are checked against the loopback names (DNS-rebinding protection); `--path` (default `/mcp`)
 * and `--allow-origin` / `--allow-host` apply as for `--http`.
 */
import type { Transport } from '@wiremcp/jsonrpc';
import type { MainProcess } from './main-process.js';
import type { ServeMode } from './serve-mode.js';
import { UsageError } from './server-flags.js';

/** Where `--ws` binds: `[host:]port` (a bracketed IPv6 host allowed); the host defaults to 127.0.0.1. */
export function parseWsAddress(text: string): { host: string; port: number } {
  const match = /^(?:(\[[0-9a-fA-F:.]+\]|[^:[\]\s]+):)?(\d{1,5})$/.exec(text.trim());
  const port = match ? Number(match[2]) : Number.NaN;
  if (!match || port > 65_535)
    throw new UsageError(`--ws needs [host:]port (e.g. 3001, 127.0.0.1:3001), got ${JSON.stringify(text.slice(0, 80))}`);
  return { host: match[1] === undefined ? '127.0.0.1' : match[1].replace(/^\[|\]$/g, ''), port };
}

/** The WebSocket serve mode; see the module comment. Its flags `--path`, `--allow-origin`, `--allow-host` are `--http`'s. */
export const wsMode: ServeMode = {
  flags: { ws: { type: 'string' } },
  usage:
    '  --ws [host:]port\n' +
    '              serve MCP over WebSocket (subprotocol mcp) on this address instead\n' +
    '              of stdio; the host defaults to 127.0.0.1; --path, --allow-origin\n' +
    '              and --allow-host apply as for --http\n',
  select(values) {
    if (values.ws === undefined) return undefined;
    if (values.http !== undefined) throw new UsageError('--ws and --http exclude each other: run one process per transport');
    if (values.framing !== undefined) throw new UsageError('--framing applies to stdio only');
    for (const flag of ['legacy-sse', 'redis']) if (values[flag] !== undefined) throw new UsageError(`--${flag} applies to --http only`);
    const { host, port } = parseWsAddress(String(values.ws));
    const path = values.path === undefined ? '/mcp' : String(values.path);
    if (!/^\/[^\s?#]*$/.test(path))
      throw new UsageError(`--path must start with '/' and hold no spaces, '?' or '#', got ${JSON.stringify(path)}`);
    const origins = (values['allow-origin'] as string[] | undefined) ?? [];
    const hosts = (values['allow-host'] as string[] | undefined) ?? [];
    return {
      description: `ws://${host.includes(':') ? `[${host}]` : host}:${port}${path}`,
      async serve(server, process: MainProcess) {
        // Loaded only when serving WebSocket: a stdio server never reads ws.
        const { listenWebSocket } = await import('@wiremcp/transport-websocket/node');
        const connections = new Set<{ close(): Promise<void> }>();
        const listening = await listenWebSocket(
          {
            connect: async (transport: Transport) => {
              const connection = await server.connect(transport);
              connections.add(connection);
              const onclose = transport.onclose;
              transport.onclose = () => {
                connections.delete(connection);
                onclose?.();
              };
              return connection;
            },
          },
          {
            host,
            port,
            path,
            ...(origins.length > 0 ? { allowedOrigins: origins.includes('*') ? '*' : origins } : {}),
            ...(hosts.length > 0 ? { allowedHosts: hosts } : {}),
            onError: (error) => process.stderr.write(`WebSocket error: ${error instanceof Error ? error.message : String(error)}\n`),
          },
        );
        const closed = new Promise<Error | undefined>((resolve) => listening.server.once('close', () => resolve(undefined)));
        return {
          description: `${listening.url.href} (MCP over WebSocket, subprotocol mcp, every revision)`,
          closed,
          close: async () => {
            await Promise.all([...connections].map((connection) => connection.close().catch(() => {})));
            await listening.close();
          },
        };
      },
    };
  },
};
