// Proof of the scale-out design: Redis, three everything-server processes and nginx round-robin (no affinity), all
// real. A legacy session hops between processes on every request, including sampling and elicitation round trips
// whose answers land on another process than the one waiting; a resource update raised on one process reaches the
// GET stream held by another; a cancellation reaches the process running the request; a process killed
// mid-stream is resumed on another with Last-Event-ID, every event exactly once; Redis restarted gives 503s, then
// recovery, and no process crashes. redis-server and nginx are installed with apt-get when missing.
import { spawnSync } from 'node:child_process';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { startCluster, type Cluster } from '../../../scripts/cluster/cluster.js';
import { messages, openSession, send, sessionHeaders, type RawEvent, type RawResponse } from './raw-http.test-util.js';

const V = '2025-11-25';
let cluster: Cluster;
let url: string;

beforeAll(async () => {
  cluster = await startCluster({ instances: 3, log: (line) => process.stderr.write(`[cluster] ${line}\n`) });
  url = cluster.url;
}, 180_000);

afterAll(async () => {
  await cluster?.stop();
}, 30_000);

/** Reads events until one satisfies `wanted` (bounded by the test's timeout); every event read is returned too. */
async function readUntil(response: RawResponse, wanted: (message: Record<string, unknown>) => boolean): Promise<RawEvent[]> {
  const seen: RawEvent[] = [];
  for (let event = await response.next(); event !== undefined; event = await response.next()) {
    seen.push(event);
    if (event.data !== '' && wanted(JSON.parse(event.data) as Record<string, unknown>)) return seen;
  }
  throw new Error(`the stream ended before the expected message; saw ${seen.map((e) => e.data).join(' | ')}`);
}

const isRequest = (method: string) => (m: Record<string, unknown>) => m.method === method && m.id !== undefined;
const isResponse = (id: number) => (m: Record<string, unknown>) => m.id === id && m.method === undefined;

describe('a legacy session on three processes behind nginx round-robin', () => {
  test('hops between processes on every request, sampling and elicitation answered on another process', async () => {
    const { sessionId, upstreams } = await openSession(url, V, { sampling: {}, elicitation: {} });
    const h = sessionHeaders(sessionId, V);
    for (let id = 1; id <= 6; id += 1) {
      const method = id % 2 === 0 ? 'tools/list' : 'ping';
      const response = await send(url, 'POST', { jsonrpc: '2.0', id, method }, h);
      expect(response.status).toBe(200);
      expect(messages(await response.rest())[0]).toMatchObject({ id, result: expect.any(Object) });
      upstreams.push(response.upstream);
    }

    // Sampling: the request streams from one process, its answer lands on the next one, the result comes back.
    const call = await send(
      url,
      'POST',
      { jsonrpc: '2.0', id: 10, method: 'tools/call', params: { name: 'test_sampling', arguments: { prompt: 'hi' } } },
      h,
    );
    const sampling = messages(await readUntil(call, isRequest('sampling/createMessage'))).find(isRequest('sampling/createMessage'))!;
    const reply = { role: 'assistant', content: { type: 'text', text: 'sampled across processes' }, model: 'test', stopReason: 'endTurn' };
    const answer = await send(url, 'POST', { jsonrpc: '2.0', id: sampling.id, result: reply }, h);
    expect(answer.status).toBe(202);
    expect(answer.upstream).not.toBe(call.upstream);
    const result = messages(await readUntil(call, isResponse(10))).find(isResponse(10));
    expect(JSON.stringify(result)).toContain('sampled across processes');
    upstreams.push(call.upstream, answer.upstream);

    // Elicitation, the same way.
    const elicit = await send(
      url,
      'POST',
      { jsonrpc: '2.0', id: 11, method: 'tools/call', params: { name: 'test_elicitation', arguments: { message: 'who?' } } },
      h,
    );
    const asked = messages(await readUntil(elicit, isRequest('elicitation/create'))).find(isRequest('elicitation/create'))!;
    const accepted = await send(
      url,
      'POST',
      { jsonrpc: '2.0', id: asked.id, result: { action: 'accept', content: { username: 'ada', email: 'ada@example.com' } } },
      h,
    );
    expect(accepted.status).toBe(202);
    expect(accepted.upstream).not.toBe(elicit.upstream);
    const elicited = messages(await readUntil(elicit, isResponse(11))).find(isResponse(11));
    expect(JSON.stringify(elicited)).toContain('accept');
    upstreams.push(elicit.upstream, accepted.upstream);

    // Round-robin without affinity: consecutive requests of the session went to different processes, all three used.
    for (let i = 1; i < 8; i += 1) expect(upstreams[i]).not.toBe(upstreams[i - 1]);
    expect(new Set(upstreams)).toEqual(new Set(cluster.instances.map((instance) => instance.address)));
  }, 60_000);

  test('a resource update raised on one process reaches the GET stream held by another', async () => {
    const { sessionId } = await openSession(url, V);
    const h = sessionHeaders(sessionId, V);
    const listen = await send(url, 'GET', undefined, h);
    expect(listen.status).toBe(200);
    const subscribe = await send(
      url,
      'POST',
      { jsonrpc: '2.0', id: 1, method: 'resources/subscribe', params: { uri: 'test://watched-resource' } },
      h,
    );
    expect(subscribe.status).toBe(200);
    await subscribe.rest();
    let raisedOn = listen.upstream;
    for (let id = 2; raisedOn === listen.upstream && id < 6; id += 1) {
      const update = await send(
        url,
        'POST',
        { jsonrpc: '2.0', id, method: 'tools/call', params: { name: 'test_update_watched_resource', arguments: {} } },
        h,
      );
      expect(update.status).toBe(200);
      await update.rest();
      raisedOn = update.upstream;
    }
    expect(raisedOn).not.toBe(listen.upstream);
    const events = await readUntil(listen, (m) => m.method === 'notifications/resources/updated');
    expect(messages(events).filter((m) => m.method === 'notifications/resources/updated')).toHaveLength(1);
    await listen.cancel();
  }, 30_000);

  test('notifications/cancelled reaches the process running the request', async () => {
    const { sessionId } = await openSession(url, V);
    const h = sessionHeaders(sessionId, V);
    const call = await send(
      url,
      'POST',
      {
        jsonrpc: '2.0',
        id: 1,
        method: 'tools/call',
        params: { name: 'test_long_running_operation', arguments: { durationMs: 60_000, steps: 600 }, _meta: { progressToken: 'p' } },
      },
      h,
    );
    await readUntil(call, (m) => m.method === 'notifications/progress');
    const cancel = await send(
      url,
      'POST',
      { jsonrpc: '2.0', method: 'notifications/cancelled', params: { requestId: 1, reason: 'enough' } },
      h,
    );
    expect(cancel.status).toBe(202);
    expect(cancel.upstream).not.toBe(call.upstream);
    // The stream of the cancelled call ends without a result (it would otherwise run for a minute).
    const rest = messages(await call.rest());
    expect(rest.filter((m) => m.id === 1)).toEqual([]);
  }, 30_000);

  test('a process killed mid-stream: the client resumes through nginx on another, every event exactly once', async () => {
    const { sessionId } = await openSession(url, V);
    const h = sessionHeaders(sessionId, V);
    const call = await send(
      url,
      'POST',
      {
        jsonrpc: '2.0',
        id: 1,
        method: 'tools/call',
        params: { name: 'test_long_running_operation', arguments: { durationMs: 60_000, steps: 300 }, _meta: { progressToken: 'k' } },
      },
      h,
    );
    const seen: RawEvent[] = [];
    while (messages(seen).filter((m) => m.method === 'notifications/progress').length < 3) {
      const event = await call.next();
      if (event === undefined) throw new Error('the stream ended early');
      seen.push(event);
    }
    const lastId = seen.at(-1)!.id!;
    const streamId = lastId.slice(0, lastId.lastIndexOf('_'));
    const seq = Number(lastId.slice(lastId.lastIndexOf('_') + 1));
    // Wait until the store holds events the client has not read, so the replay has something to carry.
    const key = `wiremcp:ev:${sessionId}:${streamId}`;
    const port = new URL(cluster.redisUrl!).port;
    for (let length = 0; length < seq + 4;) {
      length = Number(spawnSync('redis-cli', ['-p', port, 'XLEN', key], { encoding: 'utf8' }).stdout.trim());
    }
    const victim = cluster.instances.find((instance) => instance.address === call.upstream)!;
    await victim.kill();
    await call.cancel();
    try {
      const resumed = await send(url, 'GET', undefined, { ...h, 'last-event-id': lastId });
      expect(resumed.status).toBe(200);
      expect(resumed.upstream).not.toBe(victim.address);
      const replay = await resumed.rest();
      const progress = messages([...seen, ...replay])
        .filter((m) => m.method === 'notifications/progress')
        .map((m) => (m.params as { progress: number }).progress);
      expect(progress.length).toBeGreaterThanOrEqual(6);
      // Exactly once and in order: 1, 2, 3, … with no gap and no repeat.
      expect(progress).toEqual(progress.map((_, index) => index + 1));
      const ids = [...seen, ...replay].map((event) => event.id).filter((id) => id !== undefined);
      expect(new Set(ids).size).toBe(ids.length);
    } finally {
      await victim.start();
    }
  }, 60_000);

  test('a 2026-07-28 input-required round answered on another process verifies (the requestState key is shared)', async () => {
    const meta = {
      'io.modelcontextprotocol/protocolVersion': '2026-07-28',
      'io.modelcontextprotocol/clientCapabilities': { elicitation: {} },
    };
    const name = 'test_input_required_result_elicitation';
    const headers = { 'mcp-protocol-version': '2026-07-28', 'mcp-method': 'tools/call', 'mcp-name': name };
    const first = await send(
      url,
      'POST',
      { jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name, arguments: {}, _meta: meta } },
      headers,
    );
    const round = messages(await first.rest())[0] as { result: { resultType: string; requestState: string; inputRequests: object } };
    expect(round.result).toMatchObject({ resultType: 'input_required', inputRequests: { user_name: expect.any(Object) } });
    const retry = {
      jsonrpc: '2.0',
      id: 2,
      method: 'tools/call',
      params: {
        name,
        arguments: {},
        _meta: meta,
        requestState: round.result.requestState,
        inputResponses: { user_name: { action: 'accept', content: { name: 'Ada' } } },
      },
    };
    const second = await send(url, 'POST', retry, headers);
    expect(second.upstream).not.toBe(first.upstream);
    expect(JSON.stringify(messages(await second.rest())[0])).toContain('Hello, Ada!');
  }, 30_000);

  test('Redis restarted mid-run: clear 503s while it is down, then recovery, and no process crashes', async () => {
    await cluster.stopRedis();
    let restarted = false;
    try {
      const statuses: number[] = [];
      for (let i = 0; i < 3; i += 1) {
        const init = await send(url, 'POST', {
          jsonrpc: '2.0',
          id: 0,
          method: 'initialize',
          params: { protocolVersion: V, capabilities: {}, clientInfo: { name: 'c', version: '1' } },
        });
        const body = messages(await init.rest())[0] as { error?: { message: string } };
        statuses.push(init.status);
        expect(init.status).toBe(503);
        expect(init.headers.get('retry-after')).not.toBeNull();
        expect(body.error?.message).toMatch(/session store cannot be reached/);
      }
      // A session none of the processes holds needs the store: 503, not 404 (the session may well exist).
      const unknown = await send(url, 'POST', { jsonrpc: '2.0', id: 1, method: 'ping' }, sessionHeaders('no-such-session-anywhere', V));
      await unknown.rest();
      expect(unknown.status).toBe(503);
      await cluster.startRedis();
      restarted = true;
      // Recovery: the processes reconnect on their own (retry until a new session opens, bounded).
      let opened: { sessionId: string } | undefined;
      for (let attempt = 0; opened === undefined; attempt += 1) {
        try {
          opened = await openSession(url, V);
        } catch (error) {
          if (attempt > 200) throw error;
          await new Promise((resolve) => setTimeout(resolve, 50));
        }
      }
      // Every process recovers: each answers 200 again (503 meanwhile, nothing else), all three reached.
      const h = sessionHeaders(opened.sessionId, V);
      const recovered = new Set<string>();
      for (let id = 1; recovered.size < 3; id += 1) {
        if (id > 400) throw new Error(`not every process recovered: ${[...recovered].join(', ')}`);
        const ping = await send(url, 'POST', { jsonrpc: '2.0', id, method: 'ping' }, h);
        await ping.rest();
        expect([200, 503]).toContain(ping.status);
        if (ping.status === 200) recovered.add(ping.upstream);
        else await new Promise((resolve) => setTimeout(resolve, 25));
      }
      for (const instance of cluster.instances) expect(instance.running).toBe(true);
    } finally {
      if (!restarted) await cluster.startRedis();
    }
  }, 60_000);
});
