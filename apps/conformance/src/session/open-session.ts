/**
 * Opening raw sessions outside a cell: a stdio server process, an HTTP (or WebSocket) server the app starts on a
 * free loopback port, or a session with such an endpoint.
 */
import type { ChildProcess } from 'node:child_process';
import { createServer, connect } from 'node:net';
import type { TransportId } from '../scenario/scenario-types.js';
import type { TargetTransport } from '../targets/target.js';
import { spawnServer, stopServer } from './child-processes.js';
import { HttpSession } from './http-session.js';
import { portOwnership } from './port-owner.js';
import type { RawSession } from './session.js';
import { SseSession } from './sse-session.js';
import { StdioSession } from './stdio-session.js';
import { WebSocketSession } from './websocket-session.js';

/** Ports this process has handed out: the OS may give a port back as soon as it is closed, to another caller here. */
const handedOut = new Set<number>();

function osFreePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.unref();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() => (typeof address === 'object' && address ? resolve(address.port) : reject(new Error('no port'))));
    });
  });
}

/**
 * A free TCP port on 127.0.0.1 (the OS picks it; there is a small window before the server binds it). Never one this
 * process handed out before: when many servers start at once, two of them told the same port would leave one unable
 * to bind while the port check sees the other answering.
 */
export async function freePort(): Promise<number> {
  for (let attempt = 0; attempt < 50; attempt++) {
    const port = await osFreePort();
    if (handedOut.has(port)) continue;
    handedOut.add(port);
    return port;
  }
  throw new Error('no free port that was not handed out already (50 tries)');
}

function accepts(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = connect({ port, host: '127.0.0.1' });
    socket.once('connect', () => {
      socket.destroy();
      resolve(true);
    });
    socket.once('error', () => {
      socket.destroy();
      resolve(false);
    });
  });
}

/**
 * Resolves once the server process `child` listens on 127.0.0.1:`port`: the port accepts connections *and* the
 * listening socket is held by `child`, a process of its group or a descendant (`port-owner.ts`; on a system without
 * `/proc`, accepting connections while `child` runs is all that can be checked). Another program on the port is
 * not a ready server: it rejects, naming that program, once `child` exits (a server that cannot bind usually does)
 * or after `ms`. Also rejects when `child` exits first, or when nothing listens after `ms`.
 */
export async function waitForPort(port: number, ms: number, child: ChildProcess): Promise<void> {
  const deadline = Date.now() + ms;
  let foreign: string | undefined;
  const heldBy = (): string => (foreign === undefined ? '' : `; 127.0.0.1:${port} is held by another process, ${foreign}`);
  for (;;) {
    if (child.exitCode !== null || child.signalCode !== null) {
      const how = child.signalCode === null ? `code ${child.exitCode}` : child.signalCode;
      throw new Error(`the server exited (${how}) before listening on port ${port}${heldBy()}`);
    }
    foreign = undefined;
    // No pid: the spawn failed, and its error event (which callers race with this) says why.
    if (child.pid !== undefined && (await accepts(port))) {
      const owner = await portOwnership(port, child.pid);
      if (owner.kind === 'ours' || owner.kind === 'unknown') return;
      // `other`: wait for the server to give up (or to win the port); `none`: the listener went away between the looks.
      if (owner.kind === 'other') foreign = owner.holder;
    }
    if (Date.now() > deadline) {
      throw new Error(
        foreign === undefined
          ? `nothing listens on 127.0.0.1:${port} after ${ms} ms`
          : `the server (pid ${child.pid}) is not listening on 127.0.0.1:${port} after ${ms} ms${heldBy()}`,
      );
    }
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

function substitutePort(value: string, port: number): string {
  return value.replace(/\{\{\s*port\s*\}\}/g, String(port));
}

/** An HTTP server process the app started. */
export interface StartedHttpServer {
  readonly url: string;
  readonly child: ChildProcess;
  /** The last 8 KiB it wrote to stderr. */
  stderr(): string;
  stop(): Promise<void>;
}

/** Starts the HTTP server of a registry transport on a free loopback port and waits until it listens. */
export async function startHttpServer(
  transport: Extract<TargetTransport, { kind: 'http' }>,
  startupTimeoutMs: number,
): Promise<StartedHttpServer> {
  const start = transport.start;
  if (start === undefined) throw new Error(`${transport.url} is not started by the app`);
  const port = await freePort();
  const child = spawnServer({
    command: start.command.map((arg) => substitutePort(arg, port)),
    cwd: start.cwd,
    env: Object.fromEntries(Object.entries(start.env).map(([key, value]) => [key, substitutePort(value, port)])),
  });
  let stderr = '';
  child.stderr?.setEncoding('utf8');
  child.stderr?.on('data', (chunk: string) => (stderr = (stderr + chunk).slice(-8192)));
  child.stdout?.resume();
  const spawnError = new Promise<never>((_, reject) =>
    child.once('error', (error) => reject(new Error(`could not start the server: ${error.message}`))),
  );
  spawnError.catch(() => {});
  try {
    await Promise.race([waitForPort(port, startupTimeoutMs, child), spawnError]);
  } catch (error) {
    await stopServer(child, 100);
    throw new Error(`${(error as Error).message}${stderr ? `; stderr: ${stderr.slice(-1000)}` : ''}`);
  }
  return { url: substitutePort(transport.url, port), child, stderr: () => stderr, stop: () => stopServer(child, 200) };
}

/** A session with a network endpoint: Streamable HTTP, the HTTP+SSE transport of 2024-11-05, or WebSocket (one connection). */
export function connectHttp(url: string, transport: TransportId, note = ''): RawSession {
  if (transport === 'websocket') return new WebSocketSession(url, note);
  return transport === 'http-sse' ? new SseSession(url, note) : new HttpSession(url, transport, note);
}

/** A session whose closing also stops the server it talks to (an HTTP server started for one cell). */
export function owning(session: RawSession, server: StartedHttpServer): RawSession {
  return {
    transport: session.transport,
    log: session.log,
    started: session.started,
    isStarted: () => session.isStarted(),
    startError: () => session.startError(),
    send: (message, options) => session.send(message, options),
    sendPayload: (payload, options) => session.sendPayload(payload, options),
    sendRaw: (bytes) => session.sendRaw(bytes),
    cancelByTransport: (id) => session.cancelByTransport(id),
    ...(session.exchange === undefined ? {} : { exchange: session.exchange.bind(session) }),
    closeInput: () => session.closeInput(),
    stderrTail: () => server.stderr(),
    close: async () => {
      await session.close();
      await server.stop();
    },
  };
}

/** A raw session with a target over one transport (probes, warm-up): a new stdio process, or an HTTP session. */
export function openRawSession(transport: TargetTransport, url?: string): RawSession {
  if (transport.kind === 'stdio')
    return new StdioSession({ command: transport.command, cwd: transport.cwd, env: transport.env }, transport.id);
  return connectHttp(url ?? transport.url, transport.id);
}
