import { once } from 'node:events';
import { createServer, connect, type AddressInfo } from 'node:net';
import { describe, expect, test } from 'vitest';
import { createReadiness } from './readiness.js';

describe('createReadiness', () => {
  test('a PING that never answers is "redis unreachable" after the timeout; a later answer makes it ready again', async () => {
    let clock = 0;
    let mode: 'hang' | 'fail' | 'ok' = 'hang';
    let pings = 0;
    const ping = (): Promise<unknown> => {
      pings += 1;
      return mode === 'hang'
        ? new Promise(() => {})
        : mode === 'fail'
          ? Promise.reject(new Error('ECONNREFUSED 10.0.0.1'))
          : Promise.resolve('PONG');
    };
    const ready = createReadiness({ draining: () => false, ping, pingTimeoutMs: 20, cacheMs: 1000, now: () => clock });
    expect(await ready()).toEqual({ ready: false, reason: 'redis unreachable' });
    mode = 'fail';
    // Cached: no second PING within cacheMs.
    expect(await ready()).toEqual({ ready: false, reason: 'redis unreachable' });
    expect(pings).toBe(1);
    clock = 1000;
    expect(await ready()).toEqual({ ready: false, reason: 'redis unreachable' });
    mode = 'ok';
    clock = 2000;
    expect(await ready()).toEqual({ ready: true });
    expect(pings).toBe(3);
  });

  test('concurrent probes share one PING', async () => {
    let pings = 0;
    const ready = createReadiness({ draining: () => false, ping: () => ((pings += 1), Promise.resolve('PONG')) });
    const answers = await Promise.all([ready(), ready(), ready()]);
    expect(answers).toEqual([{ ready: true }, { ready: true }, { ready: true }]);
    expect(pings).toBe(1);
  });

  test('draining is never ready, with or without Redis', async () => {
    let draining = false;
    const ready = createReadiness({ draining: () => draining });
    expect(await ready()).toEqual({ ready: true });
    draining = true;
    expect(await ready()).toEqual({ ready: false, reason: 'draining' });
  });

  test('a PING answered while the process had no CPU for longer than the timeout is ready', async () => {
    // A peer answering each byte at once over a real socket, as Redis answers a PING.
    const peer = createServer((socket) => socket.on('data', (data) => socket.write(data)));
    peer.listen(0, '127.0.0.1');
    await once(peer, 'listening');
    const socket = connect((peer.address() as AddressInfo).port, '127.0.0.1');
    try {
      await once(socket, 'connect');
      const ping = (): Promise<unknown> => {
        socket.write('p');
        return once(socket, 'data');
      };
      const ready = createReadiness({ draining: () => false, ping, pingTimeoutMs: 50 });
      // The probe starts, then the process gets no CPU for 300 ms (as on a starved machine) while the answer arrives:
      // from setImmediate, the event loop's next step is a new turn, its due timers before its sockets.
      const answer = await new Promise<ReturnType<typeof ready>>((resolve) =>
        setImmediate(() => {
          const probe = ready();
          const until = performance.now() + 300;
          while (performance.now() < until) {
            // Spinning: no timer and no I/O runs meanwhile.
          }
          resolve(probe);
        }),
      );
      expect(answer).toEqual({ ready: true });
    } finally {
      socket.destroy();
      peer.close();
    }
  });
});
