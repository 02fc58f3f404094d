/**
 * `waitForPort` takes a server as ready only when the process it started holds the port: another program listening
 * there is a clear error, never a pass. Every process and listener a test starts is stopped after it, also on failure.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { createServer, type Server } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { freePort } from './free-port.js';
import { waitForPort } from './wait-for-port.js';
import { portOwnership } from './port-owner.js';

const children: ChildProcess[] = [];
const listeners: Server[] = [];

afterEach(async () => {
  // Each child leads a process group of its own: killing the group also ends a wrapper's listening grandchild, which
  // killing the wrapper alone left running (holding its port) after the test.
  for (const child of children.splice(0)) {
    try {
      process.kill(-child.pid!, 'SIGKILL');
    } catch {
      // Already gone, with all of its group.
    }
  }
  await Promise.all(listeners.splice(0).map((server) => new Promise((resolve) => server.close(resolve))));
});

/** `node -e <code>` with the port in `PORT`; its stderr kept for failure messages. */
function node(code: string, port: number): ChildProcess {
  const child = spawn(process.execPath, ['-e', code], {
    stdio: ['ignore', 'ignore', 'pipe'],
    env: { ...process.env, PORT: String(port) },
    detached: true,
  });
  child.stderr!.resume();
  children.push(child);
  return child;
}

const LISTEN = "require('node:net').createServer().listen(Number(process.env.PORT), '127.0.0.1')";
// A grandchild that listens, as behind an `npx` or `sh -c` wrapper: the wrapper holds no socket itself.
const WRAPPED = `require('node:child_process').spawn(process.execPath, ['-e', ${JSON.stringify(LISTEN)}], { stdio: 'inherit' });
setInterval(() => {}, 1000);`;

/** A listener of this (test) process on a free port: the "other program". */
async function occupied(): Promise<number> {
  const port = await freePort();
  const server = createServer();
  listeners.push(server);
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, '127.0.0.1', resolve);
  });
  return port;
}

describe.skipIf(process.platform !== 'linux')('waitForPort (ownership read from /proc)', () => {
  it('resolves when the started process listens', async () => {
    const port = await freePort();
    const child = node(LISTEN, port);
    await waitForPort(port, 15_000, child);
    expect(await portOwnership(port, child.pid!)).toEqual({ kind: 'ours' });
  });

  it("resolves when a descendant of the started process listens (a wrapper's server)", async () => {
    const port = await freePort();
    const child = node(WRAPPED, port);
    await waitForPort(port, 15_000, child);
    expect(await portOwnership(port, child.pid!)).toEqual({ kind: 'ours' });
  });

  it('rejects, naming the holder, when another process holds the port and the server exits on EADDRINUSE', async () => {
    const port = await occupied();
    const child = node(LISTEN, port);
    const error = await waitForPort(port, 15_000, child).then(
      () => undefined,
      (reason: unknown) => reason as Error,
    );
    expect(error?.message).toMatch(new RegExp(`^the server exited \\(code 1\\) before listening on port ${port}`));
    expect(error?.message).toContain(`127.0.0.1:${port} is held by another process, pid ${process.pid}`);
  });

  it('rejects, naming the holder, when another process holds the port and the server neither listens nor exits', async () => {
    const port = await occupied();
    const child = node('setInterval(() => {}, 1000)', port);
    expect(await portOwnership(port, child.pid!)).toMatchObject({ kind: 'other', holder: expect.stringContaining(`pid ${process.pid}`) });
    await expect(waitForPort(port, 1000, child)).rejects.toThrow(
      `the server (pid ${child.pid}) is not listening on 127.0.0.1:${port} after 1000 ms; 127.0.0.1:${port} is held by another process, pid ${process.pid}`,
    );
    expect(child.exitCode).toBeNull();
  });

  it('rejects when the server exits before anything listens, and when nothing listens in time', async () => {
    const port = await freePort();
    await expect(waitForPort(port, 15_000, node('process.exit(3)', port))).rejects.toThrow(
      `the server exited (code 3) before listening on port ${port}`,
    );
    await expect(waitForPort(port, 200, node('setInterval(() => {}, 1000)', port))).rejects.toThrow(
      `nothing listens on 127.0.0.1:${port} after 200 ms`,
    );
    expect(await portOwnership(port, process.pid)).toEqual({ kind: 'none' });
  });
});
