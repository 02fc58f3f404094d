/**
 * A TCP proxy that delays every chunk by a settable number of milliseconds, in both directions, keeping order: put
 * in front of Redis it makes a slow Redis (a congested network, a Redis busy with a slow command) for the fault
 * tests and the cluster benchmark. Listens on 127.0.0.1 only; `close()` drops every connection it carries.
 */
import { createServer, connect, type Server, type Socket } from 'node:net';

/** A running proxy. */
export interface DelayProxy {
  /** The port it listens on (127.0.0.1). */
  readonly port: number;
  /** The delay added to each chunk in each direction now, in ms (0: none). */
  delayMs: number;
  /** Drops every connection and stops listening. */
  close(): Promise<void>;
}

/** Forwards `from` to `to`, each chunk after the delay of the moment; order is kept (a chunk never overtakes). */
function pipeDelayed(from: Socket, to: Socket, delay: () => number): void {
  const queue: { due: number; chunk: Buffer | 'end' }[] = [];
  let timer: ReturnType<typeof setTimeout> | undefined;
  const flush = (): void => {
    timer = undefined;
    const now = Date.now();
    while (queue.length > 0 && queue[0]!.due <= now) {
      const { chunk } = queue.shift()!;
      if (to.destroyed) continue;
      if (chunk === 'end') to.end();
      else to.write(chunk);
    }
    if (queue.length > 0) timer = setTimeout(flush, queue[0]!.due - now);
  };
  const push = (chunk: Buffer | 'end'): void => {
    // A chunk leaves no earlier than the one before it, even when the delay was lowered meanwhile.
    const due = Math.max(Date.now() + delay(), queue.at(-1)?.due ?? 0);
    queue.push({ due, chunk });
    if (timer === undefined) timer = setTimeout(flush, Math.max(0, due - Date.now()));
  };
  from.on('data', (chunk: Buffer) => push(chunk));
  from.on('end', () => push('end'));
  from.on('close', () => {
    if (timer !== undefined && to.destroyed) clearTimeout(timer);
  });
}

/** Starts a proxy from a free port on 127.0.0.1 to `127.0.0.1:targetPort`. */
export async function startDelayProxy(targetPort: number, delayMs = 0): Promise<DelayProxy> {
  const sockets = new Set<Socket>();
  const proxy = { port: 0, delayMs, close };
  const server: Server = createServer((client) => {
    const upstream = connect(targetPort, '127.0.0.1');
    for (const socket of [client, upstream]) {
      sockets.add(socket);
      socket.setNoDelay(true);
      socket.on('error', () => {
        client.destroy();
        upstream.destroy();
      });
      socket.on('close', () => {
        sockets.delete(socket);
        (socket === client ? upstream : client).destroy();
      });
    }
    pipeDelayed(client, upstream, () => proxy.delayMs);
    pipeDelayed(upstream, client, () => proxy.delayMs);
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve());
  });
  const address = server.address();
  proxy.port = typeof address === 'object' && address !== null ? address.port : 0;

  function close(): Promise<void> {
    for (const socket of sockets) socket.destroy();
    return new Promise((resolve) => server.close(() => resolve()));
  }
  return proxy;
}
