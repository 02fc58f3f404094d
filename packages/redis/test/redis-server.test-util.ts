// A throwaway redis-server for the package's tests: on a free port, no persistence, killed afterwards, and the faults a
// test may inject (SIGSTOP, a restart that loses the data). Installed with apt-get when missing (as the cluster
// script does).
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll } from 'vitest';
import { connectRedisState, type RedisState } from '../src/index.js';
import { freePort } from '../../../scripts/cluster/cluster.js';
import { ensureDebianPackages } from '../../../scripts/debian-packages.js';
import { RedisProcess } from '../../../scripts/cluster/redis-process.js';

/** A running redis-server. */
export interface TestRedis {
  readonly url: string;
  readonly port: number;
  /** SIGSTOP: it holds its connections and answers nothing until `resume`. */
  pause(): void;
  resume(): void;
  /** Killed and started again on the same port, empty (no persistence). */
  restart(): Promise<void>;
  stop(): Promise<void>;
}

/** Starts a redis-server and resolves once it accepts connections. */
export async function startTestRedis(): Promise<TestRedis> {
  ensureDebianPackages(['redis-server'], (line) => process.stderr.write(`[redis test] ${line}\n`));
  const port = await freePort();
  const dir = mkdtempSync(join(tmpdir(), 'wiremcp-redis-test-'));
  const redis = new RedisProcess({ port, dir, persistence: false });
  await redis.start();
  return {
    url: `redis://127.0.0.1:${port}`,
    port,
    pause: () => redis.pause(),
    resume: () => redis.resume(),
    restart: async () => {
      await redis.kill();
      await redis.start();
    },
    stop: async () => {
      await redis.stop();
      rmSync(dir, { recursive: true, force: true });
    },
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
