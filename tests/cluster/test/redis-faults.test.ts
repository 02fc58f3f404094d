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

/** The MCP endpoint of one instance, bypassing the balancer. */
const direct = (address: string): string => `http://${address}/mcp`;

/** A ping of session `sessionId` sent to each instance directly: the statuses, in instance order. */
async function pingEverywhere(sessionId: string): Promise<number[]> {
  const statuses: number[] = [];
  for (const instance of cluster.instances) {
    const response = await send(
      direct(instance.address),
      'POST',
      { jsonrpc: '2.0', id: 1, method: 'ping' },
      sessionHeaders(sessionId, V),
      AbortSignal.timeout(DEADLINE_MS),
    );
    await response.rest();
    statuses.push(response.status);
  }
  return statuses;
}

/** Resolves once every instance serves initialize again (they reconnect to Redis on their own; bounded). */
async function everyInstanceReconnected(): Promise<void> {
  for (const instance of cluster.instances) {
    for (let attempt = 0; ; attempt += 1) {
      const response = await send(direct(instance.address), 'POST', {
        jsonrpc: '2.0',
        id: 0,
        method: 'initialize',
        params: { protocolVersion: V, capabilities: {}, clientInfo: { name: 'f', version: '1' } },
      });
      await response.rest();
      if (response.status === 200) break;
      if (attempt > 200) throw new Error(`${instance.address} never served initialize again`);
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  }
}

/** A session every instance holds a copy of (each served one of its requests). */
async function sessionOnEveryInstance(): Promise<string> {
  await everyInstanceReconnected();
  const { sessionId } = await openSession(url, V);
  expect(await pingEverywhere(sessionId)).toEqual([200, 200, 200]);
  return sessionId;
}

describe('sessions while Redis is down or restarted', () => {
  test('a DELETE while Redis is down is refused (503, Retry-After); once acknowledged, it holds on every process', async () => {
    const sessionId = await sessionOnEveryInstance();
    await cluster.stopRedis();
    try {
      const refused = await send(url, 'DELETE', undefined, sessionHeaders(sessionId, V), AbortSignal.timeout(DEADLINE_MS));
      const body = messages(await refused.rest());
      expect(refused.status).toBe(503);
      expect(refused.headers.get('retry-after')).not.toBeNull();
      expect(JSON.stringify(body)).toMatch(/session store cannot be reached/);
    } finally {
      await cluster.startRedis();
    }
    await everyInstanceReconnected();
    // Not deleted: every process serves it (Redis kept it).
    expect(await pingEverywhere(sessionId)).toEqual([200, 200, 200]);
    const deleted = await send(url, 'DELETE', undefined, sessionHeaders(sessionId, V), AbortSignal.timeout(DEADLINE_MS));
    await deleted.rest();
    expect(deleted.status).toBe(200);
    expect(await pingEverywhere(sessionId)).toEqual([404, 404, 404]);
    expectNoExit();
  }, 60_000);

  test('Redis restarted without its data: every process agrees the session is gone, none serves its memory copy', async () => {
    const sessionId = await sessionOnEveryInstance();
    await cluster.stopRedis();
    await cluster.startRedis({ fresh: true });
    await everyInstanceReconnected();
    expect(await pingEverywhere(sessionId)).toEqual([404, 404, 404]);
    expectNoExit();
  }, 60_000);

  test('Redis restarted without its data, then a process restarted: input-required rounds verify across every pair', async () => {
    await cluster.stopRedis();
    await cluster.startRedis({ fresh: true });
    // The processes that stayed up are back on Redis first; then one process restarts (and reads the key anew).
    await everyInstanceReconnected();
    await cluster.instances[0]!.terminate();
    await cluster.instances[0]!.start();
    const name = 'test_input_required_result_elicitation';
    const meta = {
      'io.modelcontextprotocol/protocolVersion': '2026-07-28',
      'io.modelcontextprotocol/clientCapabilities': { elicitation: {} },
    };
    const headers = { 'mcp-protocol-version': '2026-07-28', 'mcp-method': 'tools/call', 'mcp-name': name };
    const failures: string[] = [];
    for (const from of cluster.instances) {
      const first = await send(
        direct(from.address),
        'POST',
        { jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name, arguments: {}, _meta: meta } },
        headers,
      );
      const round = messages(await first.rest())[0] as { result: { requestState: string } };
      for (const to of cluster.instances) {
        if (to === from) continue;
        const params = {
          name,
          arguments: {},
          _meta: meta,
          requestState: round.result.requestState,
          inputResponses: { user_name: { action: 'accept', content: { name: 'Ada' } } },
        };
        const second = await send(direct(to.address), 'POST', { jsonrpc: '2.0', id: 2, method: 'tools/call', params }, headers);
        const text = JSON.stringify(messages(await second.rest())[0]);
        if (!text.includes('Hello, Ada!')) failures.push(`${from.address} → ${to.address}: ${text.slice(0, 200)}`);
      }
    }
    expect(failures).toEqual([]);
    expectNoExit();
  }, 60_000);
});
