/**
 * HTTP fixtures for the interop tests: official servers in process (a `node:http` server on 127.0.0.1, with a
 * small adapter for web-standard `Request` → `Response` handlers), and `server-everything` spawned with a preload
 * that keeps it on loopback. Everything started is stopped by `stopAll()`.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import { createRequire } from 'node:module';
import type { AddressInfo, Socket } from 'node:net';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const require = createRequire(import.meta.url);
const stoppers = new Set<() => Promise<void>>();

/** A running server. */
export interface Served {
  /** `http://127.0.0.1:<port>`. */
  readonly origin: string;
  /** Requests seen, as `METHOD path` (and the JSON-RPC method of POSTs when known). */
  readonly log: string[];
  stop(): Promise<void>;
}

/** Serves a `node:http` handler on 127.0.0.1. */
export async function serveNode(handler: (req: IncomingMessage, res: ServerResponse) => void | Promise<void>): Promise<Served> {
  const sockets = new Set<Socket>();
  const log: string[] = [];
  const server = createServer((req, res) => {
    log.push(`${req.method} ${req.url}`);
    Promise.resolve(handler(req, res)).catch((error: unknown) => {
      if (!res.headersSent) res.writeHead(500);
      res.end(String(error));
    });
  });
  server.on('connection', (socket: Socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const stop = async (): Promise<void> => {
    stoppers.delete(stop);
    for (const socket of sockets) socket.destroy();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  };
  stoppers.add(stop);
  return { origin, log, stop };
}

/** Reads a request body. */
export async function bodyOf(req: IncomingMessage): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}

/** Serves a web-standard handler (`Request` → `Response`), streaming the response body as it comes. */
export function serveWeb(handle: (request: Request) => Promise<Response>): Promise<Served> {
  let origin = '';
  const served = serveNode(async (req, res) => {
    const body = req.method === 'GET' || req.method === 'HEAD' || req.method === 'DELETE' ? undefined : await bodyOf(req);
    const aborted = new AbortController();
    res.on('close', () => aborted.abort());
    const headers = new Headers();
    for (const [name, value] of Object.entries(req.headers)) if (typeof value === 'string') headers.set(name, value);
    const init: RequestInit = { method: req.method, headers, signal: aborted.signal };
    if (body !== undefined) init.body = new Uint8Array(body);
    const response = await handle(new Request(`${origin}${req.url}`, init));
    const out: Record<string, string> = {};
    response.headers.forEach((value, name) => (out[name] = value));
    res.writeHead(response.status, out);
    res.flushHeaders();
    if (response.body) {
      const reader = response.body.getReader();
      for (;;) {
        const { done, value } = await reader.read();
        if (done) break;
        if (res.destroyed) {
          await reader.cancel().catch(() => undefined);
          break;
        }
        res.write(value);
      }
    }
    res.end();
  });
  return served.then((s) => ((origin = s.origin), s));
}

const PRELOAD = join(dirname(fileURLToPath(import.meta.url)), 'fixtures', 'force-loopback.cjs');

/** The path of a package's `bin` script. */
export function binOf(pkg: string): string {
  const manifestPath = require.resolve(`${pkg}/package.json`);
  const manifest = require(manifestPath) as { bin: Record<string, string> | string };
  const bin = typeof manifest.bin === 'string' ? manifest.bin : Object.values(manifest.bin)[0]!;
  return join(dirname(manifestPath), bin);
}

/** Spawns an official server that listens on `PORT` (given 0), kept on 127.0.0.1 by the preload. */
export async function spawnHttpServer(script: string, args: string[]): Promise<Served & { readonly child: ChildProcess }> {
  const child = spawn(process.execPath, ['-r', PRELOAD, script, ...args], {
    env: { ...process.env, PORT: '0' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout!.on('data', (chunk: Buffer) => void (output = (output + chunk.toString()).slice(-8192)));
  const port = await new Promise<number>((resolve, reject) => {
    child.stderr!.on('data', (chunk: Buffer) => {
      output = (output + chunk.toString()).slice(-8192);
      const match = /\[force-loopback\] listening on 127\.0\.0\.1:(\d+)/.exec(output);
      if (match) resolve(Number(match[1]));
    });
    child.once('exit', (code) => reject(new Error(`${script} exited with ${code} before listening:\n${output}`)));
  });
  const exited = new Promise<void>((resolve) => (child.exitCode !== null ? resolve() : child.once('exit', () => resolve())));
  const stop = async (): Promise<void> => {
    stoppers.delete(stop);
    child.kill('SIGTERM');
    const timer = setTimeout(() => child.kill('SIGKILL'), 2000);
    await exited;
    clearTimeout(timer);
  };
  stoppers.add(stop);
  return { origin: `http://127.0.0.1:${port}`, log: [], child, stop };
}

/** Stops everything the fixtures started (for `afterEach`). */
export async function stopAll(): Promise<void> {
  await Promise.all([...stoppers].map((stop) => stop()));
}
