/**
 * A scripted HTTP server on 127.0.0.1 for the client transport's tests: every request is recorded (method, URL,
 * lower-cased headers, body) and answered by the test's handler. `close()` drops every open connection, so a test
 * that leaves a stream open still ends.
 */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';

/** One request as the server saw it. */
export interface Recorded {
  readonly method: string;
  readonly url: string;
  readonly headers: Readonly<Record<string, string | undefined>>;
  readonly body: string;
  /** The body parsed as JSON, when it is JSON. */
  readonly json: unknown;
}

/** Answers a recorded request. */
export type Handler = (request: Recorded, res: ServerResponse, raw: IncomingMessage) => void | Promise<void>;

/** A running test server. */
export interface TestServer {
  /** `http://127.0.0.1:<port><path>`. */
  readonly url: string;
  readonly origin: string;
  readonly requests: Recorded[];
  /** Resolves with the next request matching `predicate` (already recorded or still to come). */
  next(predicate: (request: Recorded) => boolean): Promise<Recorded>;
  close(): Promise<void>;
}

const servers = new Set<TestServer>();

/** Starts a server whose endpoint is at `path` (default `/mcp`). */
export async function startServer(handler: Handler, path = '/mcp'): Promise<TestServer> {
  const requests: Recorded[] = [];
  const waiters: Array<{ predicate: (request: Recorded) => boolean; resolve: (request: Recorded) => void; seen: number }> = [];
  const sockets = new Set<Socket>();
  const http = createServer((raw, res) => {
    const chunks: Buffer[] = [];
    raw.on('data', (chunk: Buffer) => chunks.push(chunk));
    raw.on('end', () => {
      const body = Buffer.concat(chunks).toString('utf8');
      let json: unknown;
      try {
        json = body === '' ? undefined : JSON.parse(body);
      } catch {
        json = undefined;
      }
      const headers: Record<string, string | undefined> = {};
      for (const [name, value] of Object.entries(raw.headers)) headers[name] = Array.isArray(value) ? value.join(', ') : value;
      const request: Recorded = { method: raw.method ?? '', url: raw.url ?? '', headers, body, json };
      requests.push(request);
      for (const waiter of [...waiters]) {
        if (waiter.predicate(request)) {
          waiters.splice(waiters.indexOf(waiter), 1);
          waiter.resolve(request);
        }
      }
      Promise.resolve(handler(request, res, raw)).catch((error: unknown) => {
        if (!res.headersSent) res.writeHead(500);
        res.end(String(error));
      });
    });
  });
  http.on('connection', (socket: Socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });
  await new Promise<void>((resolve) => http.listen(0, '127.0.0.1', resolve));
  const origin = `http://127.0.0.1:${(http.address() as AddressInfo).port}`;
  const server: TestServer = {
    url: `${origin}${path}`,
    origin,
    requests,
    next: (predicate) => {
      const found = requests.find(predicate);
      if (found) return Promise.resolve(found);
      return new Promise((resolve) => waiters.push({ predicate, resolve, seen: requests.length }));
    },
    close: async () => {
      servers.delete(server);
      for (const socket of sockets) socket.destroy();
      await new Promise<void>((resolve) => http.close(() => resolve()));
    },
  };
  servers.add(server);
  return server;
}

/** Closes every server still running (for `afterEach`). */
export async function closeAllServers(): Promise<void> {
  await Promise.all([...servers].map((server) => server.close()));
}

/** Writes a JSON body. */
export function json(res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}): void {
  res.writeHead(status, { 'content-type': 'application/json', ...headers });
  res.end(JSON.stringify(body));
}

/** Opens an SSE response. */
export function sse(res: ServerResponse, headers: Record<string, string> = {}): void {
  res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache', ...headers });
  res.flushHeaders();
}

/** Writes one SSE event carrying `message`. */
export function event(res: ServerResponse, message: unknown, id?: string): void {
  res.write(`${id === undefined ? '' : `id: ${id}\n`}event: message\ndata: ${JSON.stringify(message)}\n\n`);
}

/** The JSON-RPC result response for `request`. */
export function result(request: Recorded, value: unknown): unknown {
  return { jsonrpc: '2.0', id: (request.json as { id: unknown }).id, result: value };
}

/** The request's JSON-RPC method. */
export function methodOf(request: Recorded): string | undefined {
  return (request.json as { method?: string } | undefined)?.method;
}
