/**
 * Waiting for a started server to listen: the port must accept connections *and* be held by the process that was
 * started (`port-owner.ts`), so that another program on the port is never taken for the server. Used by the
 * conformance app for the servers it starts, and by the local cluster (`scripts/cluster`) for its nginx; it needs
 * nothing but Node's own modules.
 */
import type { ChildProcess } from 'node:child_process';
import { connect } from 'node:net';
import { portOwnership } from './port-owner.js';

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
