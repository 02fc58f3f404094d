// What every HTTP bench server does besides serving: tell the driver its port (`READY <port> gc` on stdout: `gc` says
// it answers SIGHUP, which a server of an older build given to `--against` does not), report its
// heap on SIGUSR2 (`HEAP <bytes>`, after a full GC when the process runs with --expose-gc), the number of full
// (old-generation) collections so far on SIGHUP (`GC <count>`), exit on SIGTERM.
import type { Server } from 'node:http';
import { constants, PerformanceObserver } from 'node:perf_hooks';
import type { AddressInfo } from 'node:net';

/** Announces `server` (already listening) and installs the signal handlers. */
export function announce(server: Server): void {
  let fullCollections = 0;
  const observer = new PerformanceObserver((list) => {
    for (const entry of list.getEntries()) {
      if (((entry as { detail?: unknown }).detail as { kind?: number } | undefined)?.kind === constants.NODE_PERFORMANCE_GC_MAJOR)
        fullCollections += 1;
    }
  });
  observer.observe({ entryTypes: ['gc'] });
  // Entries are delivered asynchronously: a tick later the count includes every collection up to the signal.
  process.on('SIGHUP', () => setImmediate(() => process.stdout.write(`GC ${fullCollections}\n`)));
  process.on('SIGUSR2', () => {
    (globalThis as { gc?: () => void }).gc?.();
    process.stdout.write(`HEAP ${process.memoryUsage().heapUsed}\n`);
  });
  process.on('SIGTERM', () => process.exit(0));
  process.stdout.write(`READY ${(server.address() as AddressInfo).port} gc\n`);
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
