// What every HTTP bench server does besides serving: tell the driver its port (`READY <port>` on stdout), report its
// heap on SIGUSR2 (`HEAP <bytes>`, after a full GC when the process runs with --expose-gc), exit on SIGTERM.
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';

/** Announces `server` (already listening) and installs the signal handlers. */
export function announce(server: Server): void {
  process.on('SIGUSR2', () => {
    (globalThis as { gc?: () => void }).gc?.();
    process.stdout.write(`HEAP ${process.memoryUsage().heapUsed}\n`);
  });
  process.on('SIGTERM', () => process.exit(0));
  process.stdout.write(`READY ${(server.address() as AddressInfo).port}\n`);
}

/** Reads a request body (the hand-written servers and the SDK v1 wiring). */
export function readBody(req: NodeJS.ReadableStream): Promise<string> {
  return new Promise((resolve, reject) => {
    let body = '';
    req.setEncoding('utf8');
    req.on('data', (chunk: string) => (body += chunk));
    req.on('end', () => resolve(body));
    req.on('error', reject);
  });
}
