/**
 * `listen`: serve a fetch handler on a new `node:http` server — on 127.0.0.1 unless told otherwise — and close it
 * cleanly: the handler's sessions and streams are ended, idle sockets closed, and whatever is still open after the
 * grace period is cut, so a shutdown always finishes.
 */
import { createServer, type Server, type ServerResponse } from 'node:http';
import { chmod, lstat, unlink } from 'node:fs/promises';
import { connect, type AddressInfo } from 'node:net';
import { servedReplies, toNodeHandler, type FetchHandler, type NodeHandlerOptions } from './to-node-handler.js';

/** Options of {@link listen}. */
export interface ListenOptions extends NodeHandlerOptions {
  /** Interface to bind (default `127.0.0.1`; `::1` or `localhost` stay local; `0.0.0.0` exposes the server). */
  readonly host?: string;
  /** Port (default 0: any free port; read it from `url`). */
  readonly port?: number;
  /**
   * Listen on this Unix domain socket instead of TCP (`host` and `port` are then ignored): the socket file gets mode
   * 0600 (only this user may connect), a stale file left by a process that died is replaced, and a socket another
   * process still serves is an error. `url` is then `http://localhost<path>` (dial it with `nodeFetch({ socketPath })`).
   */
  readonly socketPath?: string;
  /** Time allowed to receive a request's headers, in ms (default 10 000): slow headers get the socket closed. */
  readonly headersTimeoutMs?: number;
  /** Longest wait for open requests and streams on `close()`, in ms (default 2 000), before sockets are cut. */
  readonly shutdownGraceMs?: number;
}

/** A running server. */
export interface Listening {
  /** The MCP endpoint's URL (the handler's `path` on the bound address). */
  readonly url: URL;
  /** The bound address (for a Unix domain socket: `{ address: <path>, family: 'unix', port: 0 }`). */
  readonly address: AddressInfo;
  /** The `node:http` server. */
  readonly server: Server;
  /**
   * Stops: no new connections, the handler closed (legacy sessions ended, streams closed), idle sockets closed,
   * then after at most `shutdownGraceMs` every remaining socket destroyed. Idempotent.
   */
  close(): Promise<void>;
  /**
   * After `close()`: the requests still in progress when the grace period ran out, whose sockets were cut, plus those
   * the handler answered while closing without finishing them (a legacy session's requests still running when the
   * session was dropped: their reply is marked `cut`); 0 when every request finished in time.
   */
  readonly requestsCut: number;
  [Symbol.asyncDispose](): Promise<void>;
}

/** Where a response finds the count of requests in progress of its server, for {@link onResponseClose}. */
const TRACKER = Symbol('request tracker');

interface RequestTracker {
  ended(res: ServerResponse): void;
}

type TrackedResponse = ServerResponse & { [TRACKER]?: RequestTracker };

/**
 * A response closed (it is emitted once): one listener function for every response of every server, which finds its
 * server's tracker on the response, rather than a `once` wrapper and a closure per request.
 */
function onResponseClose(this: TrackedResponse): void {
  const tracker = this[TRACKER];
  this[TRACKER] = undefined;
  tracker?.ended(this);
}

/** A handler that can be closed and knows its path (as `createHttpHandler`'s can). */
type ClosableHandler = FetchHandler & { close?: (graceMs?: number) => Promise<void>; path?: string };

/** Serves `handler` on `options.host` (default 127.0.0.1) and `options.port` (default: a free one). */
export async function listen(handler: ClosableHandler, options: ListenOptions = {}): Promise<Listening> {
  const node = toNodeHandler(handler, options);
  // Requests in progress: once none is left after close(), every socket (idle or never used) can go at once.
  let active = 0;
  let drained: (() => void) | undefined;
  let closing: Promise<void> | undefined;
  let requestsCut = 0;
  // Requests the handler ended unfinished while closing (counted as they end; those still open at the deadline are
  // counted with the sockets cut, never twice).
  let answeredCut = 0;
  const tracker: RequestTracker = {
    ended(res) {
      if (closing !== undefined && servedReplies.get(res)?.cut === true) answeredCut += 1;
      active -= 1;
      if (active === 0) drained?.();
    },
  };
  const server = createServer((req, res) => {
    active += 1;
    // While closing, a request that still arrives on a kept-alive connection is served, and that connection ends with it.
    if (closing !== undefined) res.shouldKeepAlive = false;
    (res as TrackedResponse)[TRACKER] = tracker;
    res.on('close', onResponseClose);
    node(req, res);
  });
  server.headersTimeout = options.headersTimeoutMs ?? 10_000;
  server.requestTimeout = Math.max(server.headersTimeout, 60_000);
  const host = options.host ?? '127.0.0.1';
  const socketPath = options.socketPath;
  if (socketPath !== undefined) await clearStaleSocket(socketPath);
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    const done = (): void => {
      server.off('error', reject);
      resolve();
    };
    if (socketPath !== undefined) server.listen({ path: socketPath, readableAll: false, writableAll: false }, done);
    else server.listen(options.port ?? 0, host, done);
  });
  let address: AddressInfo;
  let url: URL;
  if (socketPath !== undefined) {
    await chmod(socketPath, 0o600);
    address = { address: socketPath, family: 'unix', port: 0 };
    url = new URL(handler.path ?? '/', 'http://localhost');
  } else {
    address = server.address() as AddressInfo;
    const hostPart = address.family === 'IPv6' || address.address.includes(':') ? `[${address.address}]` : address.address;
    url = new URL(handler.path ?? '/', `http://${hostPart}:${address.port}`);
  }
  const graceMs = options.shutdownGraceMs ?? 2000;
  const close = (): Promise<void> => {
    closing ??= (async () => {
      const closed = new Promise<void>((resolve) => server.close(() => resolve()));
      server.closeIdleConnections();
      let timer: ReturnType<typeof setTimeout> | undefined;
      const deadline = new Promise<void>((resolve) => {
        timer = setTimeout(resolve, graceMs);
        timer.unref();
      });
      await Promise.race([handler.close?.(Math.max(0, graceMs - 100)).catch(() => {}), deadline]);
      server.closeIdleConnections();
      // Sockets that never carried a request are not "idle" to Node: they go once no request is in progress.
      const idle = active === 0 ? Promise.resolve() : new Promise<void>((resolve) => (drained = resolve));
      await Promise.race([idle, deadline]);
      clearTimeout(timer);
      requestsCut = active + answeredCut;
      server.closeAllConnections();
      await closed;
    })();
    return closing;
  };
  return {
    url,
    address,
    server,
    close,
    get requestsCut() {
      return requestsCut;
    },
    [Symbol.asyncDispose]: close,
  };
}

/**
 * Makes way for a Unix domain socket at `path`: nothing there is fine; a socket nobody accepts on (left by a process
 * that died) is removed; a socket that answers, or anything that is not a socket, is an error (never removed).
 */
async function clearStaleSocket(path: string): Promise<void> {
  let stat;
  try {
    stat = await lstat(path);
  } catch {
    return;
  }
  if (!stat.isSocket()) throw new Error(`${path} exists and is not a socket: not replacing it`);
  const live = await new Promise<boolean>((resolve) => {
    const probe = connect({ path });
    probe.once('connect', () => {
      probe.destroy();
      resolve(true);
    });
    probe.once('error', () => resolve(false));
  });
  if (live) throw new Error(`${path} is in use by another server`);
  await unlink(path);
}
