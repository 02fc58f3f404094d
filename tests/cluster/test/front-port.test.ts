// The balancer's port taken by another program: nginx cannot bind it, and the cluster must not take the other
// program's listener for its nginx (a port that accepts connections proves nothing on its own). startCluster
// rejects, naming the holder, and stops what it started. One everything-server process, no Redis; nginx is installed
// with apt-get when missing.
import { createServer, type Server } from 'node:net';
import { afterEach, expect, test } from 'vitest';
import { freePort, startCluster } from '../../../scripts/cluster/cluster.js';

const listeners: Server[] = [];
afterEach(async () => {
  await Promise.all(listeners.splice(0).map((server) => new Promise((resolve) => server.close(resolve))));
});

test("another program on the balancer's port: startCluster refuses, naming it", { timeout: 60_000 }, async () => {
  const port = await freePort();
  const squatter = createServer((socket) => socket.destroy());
  listeners.push(squatter);
  await new Promise<void>((resolve) => squatter.listen(port, '127.0.0.1', resolve));
  const started = startCluster({ instances: 1, redis: false, port });
  try {
    await expect(started).rejects.toThrow('nginx did not start: the server exited');
    await expect(started).rejects.toThrow(`127.0.0.1:${port} is held by another process, pid ${process.pid}`);
  } finally {
    // Had it taken the other listener for nginx, the cluster would be running: stop it.
    await started.then(
      (cluster) => cluster.stop(),
      () => undefined,
    );
  }
});
