// The fault harness: one cluster (Redis behind a delaying proxy, three everything-server processes with the
// 2024-11-05 HTTP+SSE endpoints too, nginx round-robin), clients of both eras and of HTTP+SSE running against it
// (scripts/cluster/fault-load.ts), and one fault at a time injected under that load: SIGKILL and SIGSTOP of an
// instance, an instance restarted, SIGKILL and SIGSTOP of Redis, Redis restarted with its data and without it, Redis
// slowed down. After each, the invariants:
// - no MCP process exited on its own;
// - no request waited past its deadline, and every one ended with a result or an error (a refusal says when to
//   come back: 503 with Retry-After);
// - every legacy stream that broke was resumed, its events heard exactly once, in order, none skipped;
// - every acknowledged DELETE holds on every instance;
// - before the fault no process said a live session was unknown (404), and once the fault is gone every kind of
//   client is served again.
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { startCluster, type Cluster } from '../../../scripts/cluster/cluster.js';
import { startLoad, type Load, type LoadRecord } from '../../../scripts/cluster/fault-load.js';
import { send, sessionHeaders } from './raw-http.test-util.js';

/** The command timeout of the server processes here: a hung Redis costs a request this long, then a 503. */
const COMMAND_TIMEOUT_MS = 1500;
/** No request may take longer (a paused instance holds its requests for the pause; a busy machine adds its share). */
const DEADLINE_MS = 15_000;
const KINDS: readonly LoadRecord['kind'][] = ['legacy', 'modern', 'sse'];
let cluster: Cluster;

beforeAll(async () => {
  cluster = await startCluster({
    instances: 3,
    redisProxy: true,
    serverArgs: ['--legacy-sse'],
    env: { WIREMCP_REDIS_COMMAND_TIMEOUT_MS: String(COMMAND_TIMEOUT_MS) },
    log: (line) => process.stderr.write(`[cluster] ${line}\n`),
  });
}, 180_000);

afterAll(async () => {
  await cluster?.stop();
}, 30_000);

/**
 * Resolves once `wanted` holds of the records, checked as they arrive; past the deadline it rejects, or resolves when
 * `upToMs` bounds the wait (a fault that lasts until something happened or that long, whichever comes first).
 */
async function until(load: Load, what: string, wanted: (records: readonly LoadRecord[]) => boolean, upToMs?: number): Promise<void> {
  const deadline = Date.now() + (upToMs ?? 3 * DEADLINE_MS);
  while (!wanted(load.records)) {
    if (Date.now() > deadline && upToMs !== undefined) return;
    if (Date.now() > deadline) throw new Error(`${what}: not seen; violations: ${load.violations.join('; ')}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

/** Resolves once each kind of client got a result for a request started after `since`. */
function servedAfter(load: Load, since: number, what: string): Promise<void> {
  return until(load, what, (records) =>
    KINDS.every((kind) => records.some((r) => r.kind === kind && r.outcome === 'result' && r.startedAt >= since)),
  );
}

/** Resolves once each kind of client ended `count` requests started after `since` (whatever their outcome). */
function endedAfter(load: Load, since: number, count: number, what: string): Promise<void> {
  return until(load, what, (records) =>
    KINDS.every((kind) => records.filter((r) => r.kind === kind && r.startedAt >= since).length >= count),
  );
}

/** A ping of `sessionId` sent to every instance directly: the statuses, in instance order. */
async function pingEverywhere(sessionId: string): Promise<number[]> {
  const statuses: number[] = [];
  for (const instance of cluster.instances) {
    const response = await send(
      `http://${instance.address}/mcp`,
      'POST',
      { jsonrpc: '2.0', id: 1, method: 'ping' },
      sessionHeaders(sessionId, '2025-11-25'),
      AbortSignal.timeout(DEADLINE_MS),
    );
    await response.rest();
    statuses.push(response.status);
  }
  return statuses;
}

/**
 * Runs the load, injects `fault` once every kind of client is served, waits for `healed` and for every kind of
 * client to be served again, stops the load and checks the invariants. Resolves with the records.
 */
async function underLoad(
  fault: (load: Load) => Promise<void>,
  legacyStream: { durationMs?: number; steps?: number } = {},
): Promise<LoadRecord[]> {
  const load = startLoad(cluster.url, { legacy: 3, modern: 2, sse: 2, deadlineMs: DEADLINE_MS, ...legacyStream });
  let records: LoadRecord[] | undefined;
  let faultAt = Number.POSITIVE_INFINITY;
  try {
    await servedAfter(load, 0, 'every kind of client served before the fault');
    faultAt = Date.now();
    await fault(load);
    await servedAfter(load, Date.now(), 'every kind of client served after the fault');
    records = await load.stop();
  } finally {
    records ??= await load.stop();
  }
  const tally = KINDS.map((kind) => {
    const outcomes = new Map<string, number>();
    for (const r of records) if (r.kind === kind) outcomes.set(r.outcome, (outcomes.get(r.outcome) ?? 0) + 1);
    return `${kind} ${[...outcomes].map(([outcome, n]) => `${outcome} ${n}`).join(', ')}`;
  });
  process.stderr.write(`[harness] ${expect.getState().currentTestName ?? ''}: ${tally.join('; ')}\n`);
  expect(cluster.unexpectedExits().map((exit) => `${exit.address} ${exit.signal ?? exit.code}: ${exit.output.slice(-1500)}`)).toEqual([]);
  for (const instance of cluster.instances) expect(instance.running).toBe(true);
  expect(load.violations).toEqual([]);
  // Before the fault, no process said a live session is unknown (a session split between processes shows here; a
  // 503 is allowed: on a very busy machine a Redis command can outlast the command timeout).
  expect(records.filter((r) => r.endedAt < faultAt && /HTTP 404/.test(r.detail))).toEqual([]);
  expect(records.filter((r) => r.outcome === 'hung')).toEqual([]);
  // A legacy stream that heard an event has an id to resume from: one that broke and was not resumed is a request lost.
  // A process killed between a stream's headers and its priming event leaves nothing to resume from; the client is told
  // at once (not a hang). That window is counted apart, and only allowed at or after the fault.
  const unprimed = (r: LoadRecord): boolean => r.detail === 'the stream broke before its first event';
  expect(records.filter((r) => r.kind === 'legacy' && r.outcome === 'broken' && !(unprimed(r) && r.endedAt >= faultAt))).toEqual([]);
  const brokenUnprimed = count(records, (r) => r.kind === 'legacy' && r.outcome === 'broken' && unprimed(r));
  if (brokenUnprimed > 0) process.stderr.write(`[harness] legacy streams broken before their priming event: ${brokenUnprimed}\n`);
  for (const sessionId of load.deleted.slice(-6)) expect(await pingEverywhere(sessionId)).toEqual([404, 404, 404]);
  return records;
}

const count = (records: readonly LoadRecord[], wanted: (record: LoadRecord) => boolean): number => records.filter(wanted).length;

describe('faults of an instance, under load of both eras and HTTP+SSE', () => {
  test('SIGKILL of an instance running legacy streams, then started again', async () => {
    // Streams of 3 s in 10 steps: the kill lands mid-stream even when a busy machine makes the client read late.
    const records = await underLoad(
      async (load) => {
        // The instance running a legacy stream being read: its requests resume elsewhere, with their events once. On a
        // busy machine the client may read a stream's first event late, when the server has nearly finished it, and
        // the kill then finds nothing left to resume: the fault is struck again (at most 3 times) until a stream
        // running at a kill was resumed, so that the test checks a resumption rather than passing without one.
        for (let attempt = 1; attempt <= 3; attempt += 1) {
          await until(load, 'a legacy stream running', () => load.streaming().length > 0);
          const running = load.streaming();
          const victim = cluster.instances.find((instance) => instance.address === running[0])!;
          const killedAt = Date.now();
          await victim.kill();
          await endedAfter(load, killedAt, 3, 'requests while an instance is down');
          await victim.start();
          // Every legacy request that was running at the kill has ended (resumed or not), or one was resumed.
          const spanning = (r: LoadRecord): boolean => r.kind === 'legacy' && r.startedAt < killedAt && r.endedAt >= killedAt;
          await until(load, 'the legacy requests running at the kill ended', (all) => count(all, spanning) >= running.length);
          if (count(load.records, (r) => r.kind === 'legacy' && r.resumed) > 0) break;
          process.stderr.write(`[harness] kill ${attempt}: no legacy stream running there was left to resume; striking again\n`);
        }
      },
      { durationMs: 3000, steps: 10 },
    );
    expect(count(records, (r) => r.kind === 'legacy' && r.resumed)).toBeGreaterThan(0);
  }, 120_000);

  test('SIGSTOP of an instance for a while, then SIGCONT', async () => {
    await underLoad(async (load) => {
      const pausedAt = Date.now();
      cluster.instances[2]!.pause();
      try {
        // Paused for 3 s, or until a few requests ended meanwhile: those sent to it wait, the others are served.
        await until(load, 'requests while an instance is paused', (records) => count(records, (r) => r.startedAt >= pausedAt) >= 5, 3000);
      } finally {
        cluster.instances[2]!.resume();
      }
    });
  }, 120_000);

  test('an instance restarted (SIGTERM, then started) under load', async () => {
    await underLoad(async () => {
      await cluster.instances[0]!.terminate();
      await cluster.instances[0]!.start();
    });
  }, 120_000);
});

describe('faults of Redis, under load of both eras and HTTP+SSE', () => {
  test('SIGKILL of Redis, restarted with its data (append-only file)', async () => {
    const records = await underLoad(async (load) => {
      const killedAt = Date.now();
      await cluster.stopRedis();
      try {
        await endedAfter(load, killedAt, 2, 'requests while Redis is down');
      } finally {
        await cluster.startRedis();
      }
    });
    // While Redis was down, what needed it was refused with 503 (checked: with Retry-After), not hung.
    expect(count(records, (r) => r.outcome === 'refused' && r.detail.includes('503'))).toBeGreaterThan(0);
  }, 120_000);

  test('SIGSTOP of Redis for a while, then SIGCONT: requests refused within the command timeout, none hangs', async () => {
    await underLoad(async (load) => {
      const pausedAt = Date.now();
      cluster.redis!.pause();
      try {
        await endedAfter(load, pausedAt, 2, 'requests while Redis is paused');
      } finally {
        cluster.redis!.resume();
      }
    });
  }, 120_000);

  test('Redis restarted without its data', async () => {
    await underLoad(async () => {
      await cluster.stopRedis();
      await cluster.startRedis({ fresh: true });
    });
  }, 120_000);

  test('Redis slowed down (400 ms each way through the proxy), then fast again', async () => {
    const records = await underLoad(async (load) => {
      const slowedAt = Date.now();
      cluster.setRedisDelay(400);
      try {
        await endedAfter(load, slowedAt, 2, 'requests while Redis is slow');
      } finally {
        cluster.setRedisDelay(0);
      }
    });
    expect(count(records, (r) => r.outcome === 'result')).toBeGreaterThan(0);
  }, 120_000);
});
