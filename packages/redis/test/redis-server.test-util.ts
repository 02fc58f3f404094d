// A throwaway redis-server for the package's tests: on a free port, no persistence, killed afterwards. Installed
// with apt-get when missing (as the cluster script does).
import { spawn, type ChildProcess } from 'node:child_process';
import { afterAll, beforeAll } from 'vitest';
import { connectRedisState, type RedisState } from '../src/index.js';
import { ensureInstalled, freePort } from '../../../scripts/cluster/cluster.js';

/** A running redis-server. */
export interface TestRedis {
  readonly url: string;
  readonly port: number;
  stop(): Promise<void>;
}

/** Starts a redis-server and resolves once it accepts connections. */
export async function startTestRedis(): Promise<TestRedis> {
  ensureInstalled({ redis: true, nginx: false }, (line) => process.stderr.write(`[redis test] ${line}\n`));
  const port = await freePort();
  const child: ChildProcess = spawn('redis-server', ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no'], {
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  await new Promise<void>((resolve, reject) => {
    let output = '';
    child.stdout!.on('data', (chunk: Buffer) => {
      output += chunk.toString('utf8');
      if (/Ready to accept connections/.test(output)) resolve();
    });
    child.once('exit', (code) => reject(new Error(`redis-server exited (${code}): ${output.slice(-1000)}`)));
    child.once('error', reject);
  });
  return {
    url: `redis://127.0.0.1:${port}`,
    port,
    stop: () =>
      new Promise<void>((resolve) => {
        if (child.exitCode !== null || child.signalCode !== null) return resolve();
        child.once('exit', () => resolve());
        child.kill('SIGKILL');
      }),
  };
}

/** What a test file passes to {@link useTestRedis}'s `connect` (the URL and error sink are the file's). */
export type TestStateOptions = Omit<Parameters<typeof connectRedisState>[0], 'url' | 'onError'>;

/**
 * One redis-server for the calling test file, started before its tests and stopped after them, and `connect`, which
 * connects a state (a "process") to it that is closed after the tests too.
 */
export function useTestRedis(): { connect(options: TestStateOptions): Promise<RedisState> } {
  let redis: TestRedis | undefined;
  const states: RedisState[] = [];
  beforeAll(async () => {
    redis = await startTestRedis();
  }, 120_000);
  afterAll(async () => {
    await Promise.all(states.map((state) => state.close()));
    await redis?.stop();
  });
  return {
    async connect(options) {
      if (redis === undefined) throw new Error("useTestRedis: connect before the file's tests start");
      const state = await connectRedisState({ ...options, url: redis.url, onError: () => {} });
      states.push(state);
      return state;
    },
  };
}
