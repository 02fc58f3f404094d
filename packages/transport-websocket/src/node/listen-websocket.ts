/**
 * `listenWebSocket`: serve MCP over WebSocket on a new `node:http` server (127.0.0.1 unless told otherwise), each
 * connection `connect`ed to the server as a transport of its own. `createWebSocketUpgrade` gives the same upgrade
 * handling to an HTTP server of one's own. Connections are pinged (`pingIntervalMs`) and cut when a pong does not
 * come back before the next ping (a dead peer); frames over `maxMessageBytes` are refused by `ws` before they are
 * buffered (close code 1009), whatever size a frame header announces.
 */
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import type { Duplex } from 'node:stream';
import type { Transport } from '@wiremcp/jsonrpc';
import { WebSocketServer, type WebSocket } from 'ws';
import { DEFAULT_MAX_MESSAGE_BYTES, MCP_SUBPROTOCOL, SocketTransport, type SocketLimits, type WebSocketLike } from '../socket-transport.js';
import { refuseUpgrade, type UpgradePolicy } from './upgrade-checks.js';

/** What serves each connection: an `McpServer` (anything with `connect`). */
export interface WebSocketServable {
  connect(transport: Transport): Promise<unknown>;
}

/** The answer of an {@link WebSocketServerOptions.authenticate} hook. */
export type UpgradeAuthentication =
  | { readonly ok: true; readonly auth?: unknown }
  | { readonly ok: false; readonly status: 401 | 403; readonly headers?: Readonly<Record<string, string>>; readonly text?: string };

/** Options of {@link createWebSocketUpgrade} and {@link listenWebSocket}. */
export interface WebSocketServerOptions extends SocketLimits, UpgradePolicy {
  /** The endpoint's path (default `/mcp`); upgrades elsewhere get 404. */
  readonly path?: string;
  /** Interval of keep-alive pings, in ms (default 30 000; 0 turns them off). A peer that misses one pong is cut. */
  readonly pingIntervalMs?: number;
  /** Most connections at once (default 1 000); more get 503. */
  readonly maxConnections?: number;
  /**
   * Checks the upgrade request (e.g. its `Authorization: Bearer` token) before the connection is accepted;
   * `auth` reaches every message's `info.auth`. A refusal is answered with its status and headers.
   */
  readonly authenticate?: (request: IncomingMessage) => UpgradeAuthentication | Promise<UpgradeAuthentication>;
  /** Errors of connecting a transport or of the hook (default: ignored). */
  readonly onError?: (error: unknown) => void;
}

/** The upgrade handler: `server.on('upgrade', handler)`, plus the open connections and a way to end them. */
export interface WebSocketUpgrade {
  (request: IncomingMessage, socket: Duplex, head: Buffer): void;
  /** Connections open now. */
  readonly connections: number;
  /** Closes every connection (code 1001) and stops the pings. */
  close(): Promise<void>;
}

function refuse(socket: Duplex, status: number, text: string, headers: Readonly<Record<string, string>> = {}): void {
  const reason =
    { 400: 'Bad Request', 401: 'Unauthorized', 403: 'Forbidden', 404: 'Not Found', 503: 'Service Unavailable' }[status] ?? 'Error';
  const extra = Object.entries(headers)
    .map(([name, value]) => `${name}: ${value}\r\n`)
    .join('');
  socket.end(
    `HTTP/1.1 ${status} ${reason}\r\nconnection: close\r\ncontent-type: text/plain\r\ncontent-length: ${Buffer.byteLength(text)}\r\n${extra}\r\n${text}`,
  );
}

/** The upgrade handling of MCP over WebSocket for any `node:http` server; see the module comment. */
export function createWebSocketUpgrade(server: WebSocketServable, options: WebSocketServerOptions = {}): WebSocketUpgrade {
  const path = options.path ?? '/mcp';
  const maxMessage = options.maxMessageBytes ?? DEFAULT_MAX_MESSAGE_BYTES;
  const report = options.onError ?? (() => {});
  const wss = new WebSocketServer({
    noServer: true,
    maxPayload: maxMessage,
    perMessageDeflate: false,
    handleProtocols: (protocols) => (protocols.has(MCP_SUBPROTOCOL) ? MCP_SUBPROTOCOL : false),
  });
  const alive = new WeakMap<WebSocket, boolean>();
  const interval = options.pingIntervalMs ?? 30_000;
  const pinger =
    interval > 0
      ? setInterval(() => {
          for (const client of wss.clients) {
            if (alive.get(client) === false) {
              client.terminate();
              continue;
            }
            alive.set(client, false);
            client.ping();
          }
        }, interval)
      : undefined;
  pinger?.unref();

  const accept = (request: IncomingMessage, socket: Duplex, head: Buffer, auth: unknown): void => {
    wss.handleUpgrade(request, socket, head, (ws) => {
      alive.set(ws, true);
      ws.on('pong', () => alive.set(ws, true));
      const headers = Object.fromEntries(
        Object.entries(request.headers).map(([name, value]) => [name, Array.isArray(value) ? value.join(', ') : value]),
      );
      const transport = new SocketTransport(ws as unknown as WebSocketLike, options, { headers, ...(auth === undefined ? {} : { auth }) });
      server.connect(transport).catch((error: unknown) => {
        report(error);
        ws.close(1011, 'the server could not serve this connection');
      });
    });
  };

  const handler = ((request: IncomingMessage, socket: Duplex, head: Buffer) => {
    socket.on('error', () => {});
    const url = request.url ?? '/';
    const pathname = url.split('?')[0];
    if (pathname !== path) return refuse(socket, 404, `no MCP endpoint at ${pathname!.slice(0, 64)}`);
    const local = socket as Socket;
    const refusal = refuseUpgrade(request.headers, { address: local.localAddress, port: local.localPort }, options);
    if (refusal) return refuse(socket, refusal.status, refusal.text);
    if (wss.clients.size >= (options.maxConnections ?? 1000)) return refuse(socket, 503, 'too many connections');
    if (!options.authenticate) return accept(request, socket, head, undefined);
    Promise.resolve()
      .then(() => options.authenticate!(request))
      .then(
        (outcome) =>
          outcome.ok
            ? accept(request, socket, head, outcome.auth)
            : refuse(socket, outcome.status, outcome.text ?? 'Unauthorized', outcome.headers),
        (error: unknown) => {
          report(error);
          refuse(socket, 503, 'authentication failed to run');
        },
      );
  }) as WebSocketUpgrade;
  Object.defineProperty(handler, 'connections', { get: () => wss.clients.size });
  handler.close = async () => {
    if (pinger) clearInterval(pinger);
    for (const client of wss.clients) client.close(1001, 'server shutting down');
    await new Promise<void>((resolve) => wss.close(() => resolve()));
    for (const client of wss.clients) client.terminate();
  };
  return handler;
}

/** Options of {@link listenWebSocket}. */
export interface ListenWebSocketOptions extends WebSocketServerOptions {
  /** Interface to bind (default `127.0.0.1`). */
  readonly host?: string;
  /** Port (default 0: a free one; read it from `url`). */
  readonly port?: number;
}

/** A running WebSocket endpoint. */
export interface ListeningWebSocket {
  /** `ws://host:port/path`. */
  readonly url: URL;
  readonly address: AddressInfo;
  readonly server: Server;
  /** Closes every connection and the listener. Idempotent. */
  close(): Promise<void>;
  [Symbol.asyncDispose](): Promise<void>;
}

/** Serves `server` over WebSocket on a new HTTP server; plain HTTP requests get 426 Upgrade Required. */
export async function listenWebSocket(server: WebSocketServable, options: ListenWebSocketOptions = {}): Promise<ListeningWebSocket> {
  const upgrade = createWebSocketUpgrade(server, options);
  const http = createServer((_request, response) => {
    response.writeHead(426, { 'content-type': 'text/plain', upgrade: 'websocket', connection: 'Upgrade' });
    response.end('MCP over WebSocket: connect with the mcp subprotocol\n');
  });
  http.on('upgrade', upgrade);
  http.headersTimeout = 10_000;
  await new Promise<void>((resolve, reject) => {
    http.once('error', reject);
    http.listen(options.port ?? 0, options.host ?? '127.0.0.1', () => {
      http.off('error', reject);
      resolve();
    });
  });
  const address = http.address() as AddressInfo;
  const hostPart = address.address.includes(':') ? `[${address.address}]` : address.address;
  const url = new URL(options.path ?? '/mcp', `ws://${hostPart}:${address.port}`);
  let closing: Promise<void> | undefined;
  const close = (): Promise<void> =>
    (closing ??= (async () => {
      const closed = new Promise<void>((resolve) => http.close(() => resolve()));
      await upgrade.close();
      http.closeAllConnections();
      await closed;
    })());
  return { url, address, server: http, close, [Symbol.asyncDispose]: close };
}
