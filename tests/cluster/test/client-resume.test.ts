// @wiremcp/client over Streamable HTTP (a legacy session) against three processes behind nginx round-robin, state
// in Redis, the process serving it killed mid-call: the host sees a pause, not a failure —
// - a call whose process answered, then died before the answer reached the client, resolves with that answer
//   (the client resumes the broken stream with Last-Event-ID, another process replays it from Redis);
// - a call whose process died while running it ends with the JSON-RPC error saying so, not a hang and not a bare
//   connection error;
// - the client's standalone GET stream comes back on another process, and resource updates reach it again.
import { spawnSync } from 'node:child_process';
import { McpClient, RpcError } from '@wiremcp/client';
import { StreamableHttpClientTransport } from '@wiremcp/transport-http';
import { afterAll, afterEach, beforeAll, describe, expect, test } from 'vitest';
import { startCluster, type Cluster, type ClusterInstance } from '../../../scripts/cluster/cluster.js';

const WATCHED = 'test://watched-resource';
let cluster: Cluster;
const clients: McpClient[] = [];

beforeAll(async () => {
  cluster = await startCluster({ instances: 3, log: (line) => process.stderr.write(`[cluster] ${line}\n`) });
}, 180_000);

afterEach(async () => {
  await Promise.allSettled(clients.splice(0).map((client) => client.close()));
  for (const instance of cluster.instances) if (!instance.running) await instance.start();
});

afterAll(async () => {
  await cluster?.stop();
}, 30_000);

/** What the client's fetch saw: each response's method, upstream and Last-Event-ID, and a way to hold a body back. */
interface Watch {
  readonly responses: { method: string; upstream: string; status: number; lastEventId: string | null; body: string }[];
  /** When set, the next tools/call response body delivers its first event, then waits for this, then breaks. */
  hold: { firstEvent: (text: string) => void; release: Promise<void> } | undefined;
}

/** A fetch that records what it sees and can hold a response body back, then break it (a connection cut mid-way). */
function watchingFetch(watch: Watch): typeof fetch {
  return async (input, init) => {
    const response = await fetch(input, init);
    const method = init?.method ?? 'GET';
    const body = typeof init?.body === 'string' ? init.body : '';
    const lastEventId = new Headers(init?.headers).get('last-event-id');
    watch.responses.push({ method, upstream: response.headers.get('x-upstream') ?? '', status: response.status, lastEventId, body });
    const hold = watch.hold;
    if (hold === undefined || !body.includes('"tools/call"') || response.body === null) return response;
    watch.hold = undefined;
    const reader = response.body.getReader();
    const decoder = new TextDecoder();
    let seen = '';
    const held = new ReadableStream<Uint8Array>({
      async pull(controller) {
        if (/\n\n[^]*\n\n/.test(seen) && seen.includes('notifications/progress')) {
          await hold.release;
          await reader.cancel().catch(() => {});
          controller.error(new TypeError('terminated: the connection was cut'));
          return;
        }
        const chunk = await reader.read();
        if (chunk.done) return controller.close();
        seen += decoder.decode(chunk.value, { stream: true });
        controller.enqueue(chunk.value);
        if (seen.includes('notifications/progress')) hold.firstEvent(seen);
      },
    });
    return new Response(held, { status: response.status, headers: response.headers });
  };
}

async function connect(watch: Watch): Promise<{ client: McpClient; transport: StreamableHttpClientTransport }> {
  const transport = new StreamableHttpClientTransport(cluster.url, {
    fetch: watchingFetch(watch),
    reconnect: { initialDelayMs: 50, maxDelayMs: 500, maxRetries: 8 },
  });
  const client = new McpClient({ name: 'cluster-client', version: '1.0.0' }, { era: 'legacy', requestTimeoutMs: 30_000 });
  clients.push(client);
  await client.connect(transport);
  return { client, transport };
}

const instanceAt = (address: string): ClusterInstance => cluster.instances.find((instance) => instance.address === address)!;

/** Resolves once Redis holds the end of the stream of `eventId` in the session (bounded). */
async function storedComplete(sessionId: string, eventId: string): Promise<void> {
  const streamId = eventId.slice(0, eventId.lastIndexOf('_'));
  const port = new URL(cluster.redisUrl!).port;
  for (let attempt = 0; ; attempt += 1) {
    const reply = spawnSync('redis-cli', ['-p', port, 'EXISTS', `wiremcp:ev:${sessionId}:${streamId}:done`], { encoding: 'utf8' });
    if (reply.stdout.trim() === '1') return;
    if (attempt > 400) throw new Error('the stream never completed in Redis');
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}

describe('@wiremcp/client, the process serving a call killed', () => {
  test('after it answered, before the answer arrived: the call resolves with the answer, through another process', async () => {
    const watch: Watch = { responses: [], hold: undefined };
    const { client, transport } = await connect(watch);
    let release!: () => void;
    let firstEvent!: (text: string) => void;
    const streamed = new Promise<string>((resolve) => (firstEvent = resolve));
    watch.hold = { firstEvent, release: new Promise<void>((resolve) => (release = resolve)) };
    const progress: number[] = [];
    const call = client.callTool(
      'test_long_running_operation',
      { durationMs: 200, steps: 2 },
      { onprogress: (p) => progress.push(p.progress) },
    );
    const text = await streamed;
    const eventId = /id: (\S+)/.exec(text.slice(text.lastIndexOf('notifications/progress') - 200))?.[1] ?? /id: (\S+)/.exec(text)![1]!;
    const served = watch.responses.find((r) => r.body.includes('"tools/call"'))!;
    await storedComplete(transport.sessionId!, eventId);
    await instanceAt(served.upstream).kill();
    release();
    const result = await call;
    expect(result.content).toEqual([{ type: 'text', text: 'Long-running operation completed: 2 steps in 200 ms' }]);
    expect(progress).toEqual([1, 2]);
    const resumed = watch.responses.filter(
      (r) => r.method === 'GET' && r.lastEventId !== null && r.lastEventId.startsWith(eventId.split('_')[0]!),
    );
    expect(resumed.length).toBeGreaterThanOrEqual(1);
    expect(resumed.every((r) => r.upstream !== served.upstream)).toBe(true);
  }, 60_000);

  test('while it ran the call: the call ends with the JSON-RPC error saying so, not a hang or a bare connection error', async () => {
    const watch: Watch = { responses: [], hold: undefined };
    const { client } = await connect(watch);
    let killed = false;
    const call = client.callTool(
      'test_long_running_operation',
      { durationMs: 60_000, steps: 600 },
      {
        onprogress: ({ progress }) => {
          if (progress !== 2 || killed) return;
          killed = true;
          const served = watch.responses.find((r) => r.body.includes('"tools/call"'))!;
          void instanceAt(served.upstream).kill();
        },
      },
    );
    const error = await call.then(
      () => undefined,
      (reason: unknown) => reason,
    );
    expect(error).toBeInstanceOf(RpcError);
    expect(error).toMatchObject({ code: -32603, message: expect.stringMatching(/stopped before it finished/) });
  }, 60_000);

  test('its standalone GET stream comes back on another process, and resource updates reach it again', async () => {
    const watch: Watch = { responses: [], hold: undefined };
    const { client } = await connect(watch);
    const updates: unknown[] = [];
    let heard: () => void = () => {};
    client.onResourceUpdated((params) => {
      updates.push(params);
      heard();
    });
    const next = () => new Promise<void>((resolve) => (heard = resolve));
    await client.subscribeResource(WATCHED);
    let arrived = next();
    await client.callTool('test_update_watched_resource', {});
    await arrived;
    const holder = watch.responses.find((r) => r.method === 'GET' && r.status === 200)!;
    await instanceAt(holder.upstream).kill();
    // Raised until one arrives: until the client's GET came back elsewhere, an update has no stream to reach.
    arrived = next();
    let done = false;
    void arrived.then(() => (done = true));
    for (let attempt = 0; !done; attempt += 1) {
      if (attempt > 100) throw new Error('no update reached the client after its GET stream lost its process');
      await client.callTool('test_update_watched_resource', {});
      await Promise.race([arrived, new Promise((resolve) => setTimeout(resolve, 100))]);
    }
    const back = watch.responses.filter((r) => r.method === 'GET' && r.lastEventId !== null && r.status === 200);
    expect(back.length).toBeGreaterThanOrEqual(1);
    expect(back.at(-1)!.upstream).not.toBe(holder.upstream);
  }, 60_000);
});
