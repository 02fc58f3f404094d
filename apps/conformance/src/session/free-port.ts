/**
 * A free TCP port on 127.0.0.1 for a server about to be started, never one this process handed out before. Used by the
 * conformance app for the servers it starts, and by the local cluster (`scripts/cluster`) and the tests that start
 * Redis, nginx or servers themselves; it needs nothing but Node's own modules.
 */
import { createServer } from 'node:net';

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
