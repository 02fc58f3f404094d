import { spawn } from 'node:child_process';
import { once } from 'node:events';
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
    // Another process answering each byte at once, as Redis answers a PING.
    const peer = spawn(process.execPath, ['-e', 'process.stdin.pipe(process.stdout)'], { stdio: ['pipe', 'pipe', 'inherit'] });
    try {
      const ping = (): Promise<unknown> => {
        peer.stdin.write('p');
        return once(peer.stdout, 'data');
      };
      await ping();
      const ready = createReadiness({ draining: () => false, ping, pingTimeoutMs: 50 });
      // The probe starts, then the process gets no CPU for 300 ms (as on a starved machine) while the answer arrives:
      // from setImmediate, the event loop's next step is a new turn, its due timers before its pipes.
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
      peer.kill();
    }
  }, 30_000);
});
