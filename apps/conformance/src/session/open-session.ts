/**
 * Opens the raw session of a cell: spawns a stdio server, or starts an HTTP server on a free loopback port and
 * connects to it, or connects to an external URL.
 */
import type { ChildProcess } from 'node:child_process';
import { createServer, connect } from 'node:net';
import type { TargetTransport } from '../targets/target.js';
import { spawnServer, stopServer } from './child-processes.js';
import { HttpSession } from './http-session.js';
import type { RawSession } from './session.js';
import { SseSession } from './sse-session.js';
import { StdioSession } from './stdio-session.js';

/** A free TCP port on 127.0.0.1 (the OS picks it; there is a small window before the server binds it). */
export function freePort(): Promise<number> {
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

/** Resolves once something accepts TCP connections on `port`, rejects after `ms` or when `child` exits. */
export function waitForPort(port: number, ms: number, child?: ChildProcess): Promise<void> {
  const deadline = Date.now() + ms;
  return new Promise((resolve, reject) => {
    const attempt = (): void => {
      if (child && (child.exitCode !== null || child.signalCode !== null)) {
        reject(new Error(`the server exited (code ${child.exitCode}) before listening on port ${port}`));
        return;
      }
      const socket = connect({ port, host: '127.0.0.1' });
      socket.once('connect', () => {
        socket.destroy();
        resolve();
      });
      socket.once('error', () => {
        socket.destroy();
        if (Date.now() > deadline) reject(new Error(`nothing listens on 127.0.0.1:${port} after ${ms} ms`));
        else setTimeout(attempt, 50);
      });
    };
    attempt();
  });
}

function substitutePort(value: string, port: number): string {
  return value.replace(/\{\{\s*port\s*\}\}/g, String(port));
}

/** A session over an HTTP server the app started: closing the session stops the server. */
function owning(session: RawSession, child: ChildProcess): RawSession {
  let stderr = '';
  child.stderr?.setEncoding('utf8');
  child.stderr?.on('data', (chunk: string) => (stderr = (stderr + chunk).slice(-8192)));
  child.stdout?.resume();
  return {
    transport: session.transport,
    log: session.log,
    send: (message, options) => session.send(message, options),
    sendPayload: (payload, options) => session.sendPayload(payload, options),
    sendRaw: (bytes) => session.sendRaw(bytes),
    cancelByTransport: (id) => session.cancelByTransport(id),
    closeInput: () => session.closeInput(),
    stderrTail: () => stderr,
    close: async () => {
      await session.close();
      await stopServer(child, 200);
    },
  };
}

/** Opens the session of a cell. Throws when an HTTP server cannot be started (the cell fails with the reason). */
export async function openSession(transport: TargetTransport): Promise<RawSession> {
  if (transport.kind === 'stdio')
    return new StdioSession({ command: transport.command, cwd: transport.cwd, env: transport.env }, transport.id);
  const connectTo = (url: string): RawSession => (transport.id === 'http-sse' ? new SseSession(url) : new HttpSession(url, transport.id));
  if (transport.start === undefined) return connectTo(transport.url);
  const port = await freePort();
  const start = transport.start;
  const child = spawnServer({
    command: start.command.map((arg) => substitutePort(arg, port)),
    cwd: start.cwd,
    env: Object.fromEntries(Object.entries(start.env).map(([key, value]) => [key, substitutePort(value, port)])),
  });
  try {
    await waitForPort(port, 10_000, child);
  } catch (error) {
    await stopServer(child, 100);
    throw error;
  }
  return owning(connectTo(substitutePort(transport.url, port)), child);
}
