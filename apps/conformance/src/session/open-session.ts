/**
 * Opening raw sessions outside a cell: a stdio server process, an HTTP (or WebSocket) server the app starts on a
 * free loopback port, or a session with such an endpoint.
 */
import type { ChildProcess } from 'node:child_process';
import type { TransportId } from '../scenario/scenario-types.js';
import type { TargetTransport } from '../targets/target.js';
import { spawnServer, stopServer } from './child-processes.js';
import { freePort } from './free-port.js';
import { HttpSession } from './http-session.js';
import type { RawSession } from './session.js';
import { SseSession } from './sse-session.js';
import { StdioSession } from './stdio-session.js';
import { waitForPort } from './wait-for-port.js';
import { WebSocketSession } from './websocket-session.js';

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
