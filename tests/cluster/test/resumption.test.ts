// Resuming legacy SSE streams on three processes behind nginx round-robin, state in Redis, the process that ran a
// stream alive or killed:
// - a request whose process died ends, after resumption on another process, with a JSON-RPC error saying so (its
//   stored events replayed first, exactly once), and a later resumption replays that error, not nothing;
// - a request whose stream the client lost, resumed on another process while its own still runs, goes on live
//   there until its result;
// - a standalone GET stream resumed on another process stays live: what was raised while it was down arrives, then
//   what is raised afterwards, whether the process that held it is alive or was killed;
// - a subscription made on one process reaches the GET stream held by another, for updates raised anywhere, once.
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { startCluster, type Cluster, type ClusterInstance } from '../../../scripts/cluster/cluster.js';
import { withTimeout } from '../../../packages/transport-stdio/src/child-processes.test-util.js';
import { messages, openSession, type RawEvent, readUntil, send, sessionHeaders } from './raw-http.test-util.js';

const V = '2025-11-25';
const WATCHED = 'test://watched-resource';
let cluster: Cluster;
let url: string;

beforeAll(async () => {
  cluster = await startCluster({ instances: 3, log: (line) => process.stderr.write(`[cluster] ${line}\n`) });
  url = cluster.url;
}, 180_000);

afterAll(async () => {
  await cluster?.stop();
}, 30_000);

type Message = Record<string, unknown>;
const direct = (instance: ClusterInstance): string => `http://${instance.address}/mcp`;
const instanceAt = (address: string): ClusterInstance => cluster.instances.find((instance) => instance.address === address)!;
const other = (address: string): ClusterInstance => cluster.instances.find((instance) => instance.address !== address)!;

const progressOf = (events: readonly RawEvent[]): number[] =>
  messages(events)
    .filter((m) => m.method === 'notifications/progress')
    .map((m) => (m.params as { progress: number }).progress);

async function call(target: string, headers: Record<string, string>, id: number, name: string, args: Message, progress?: string) {
  const params = { name, arguments: args, ...(progress === undefined ? {} : { _meta: { progressToken: progress } }) };
  return send(target, 'POST', { jsonrpc: '2.0', id, method: 'tools/call', params }, headers);
}

/** A GET with `Last-Event-ID` sent to `instance` directly. */
const resume = (instance: ClusterInstance, headers: Record<string, string>, lastEventId: string) =>
  send(direct(instance), 'GET', undefined, { ...headers, 'last-event-id': lastEventId });

describe('a request resumed on another process', () => {
  test('its process died: the stored events, then a JSON-RPC error saying so; a later resumption replays the error', async () => {
    const { sessionId } = await openSession(url, V);
    const h = sessionHeaders(sessionId, V);
    const running = await call(url, h, 1, 'test_long_running_operation', { durationMs: 60_000, steps: 600 }, 'k');
    const seen: RawEvent[] = [];
    while (progressOf(seen).length < 3) await readUntil(running, seen, (m) => m.method === 'notifications/progress');
    const victim = instanceAt(running.upstream);
    await victim.kill();
    await running.cancel();
    try {
      const resumed = await resume(other(victim.address), h, seen.at(-1)!.id!);
      expect(resumed.status).toBe(200);
      const replay = await resumed.rest();
      const progress = progressOf([...seen, ...replay]);
      expect(progress).toEqual(progress.map((_, index) => index + 1));
      const last = messages(replay).at(-1);
      expect(last).toMatchObject({ id: 1, error: { code: -32603, message: expect.stringMatching(/stopped before it finished/) } });
      // Another resumption, from the last progress event, on the third process: the same error, once.
      const third = cluster.instances.find((instance) => instance !== victim && instance.address !== resumed.upstream)!;
      const again = messages(await (await resume(third, h, seen.at(-1)!.id!)).rest());
      expect(again.filter((m) => m.id === 1)).toEqual([last]);
    } finally {
      await victim.start();
    }
  }, 60_000);

  test('its process still runs it: the resumed stream goes on live there, until its result', async () => {
    const { sessionId } = await openSession(url, V);
    const h = sessionHeaders(sessionId, V);
    const running = await call(url, h, 1, 'test_long_running_operation', { durationMs: 3000, steps: 30 }, 'k');
    const seen: RawEvent[] = [];
    await readUntil(running, seen, (m) => m.method === 'notifications/progress');
    await running.cancel();
    const resumed = await resume(other(running.upstream), h, seen.at(-1)!.id!);
    expect(resumed.status).toBe(200);
    const rest = await resumed.rest();
    expect(messages(rest).at(-1)).toMatchObject({ id: 1, result: { content: [{ text: expect.stringMatching(/completed: 30 steps/) }] } });
    const progress = progressOf([...seen, ...rest]);
    expect(progress).toEqual(Array.from({ length: 30 }, (_, index) => index + 1));
  }, 60_000);
});

describe('the standalone GET stream resumed on another process', () => {
  /** A session subscribed to the watched resource, its GET stream open on some process, and a way to raise updates. */
  async function watching() {
    const { sessionId } = await openSession(url, V);
    const h = sessionHeaders(sessionId, V);
    const listen = await send(url, 'GET', undefined, h);
    expect(listen.status).toBe(200);
    const subscribe = await send(url, 'POST', { jsonrpc: '2.0', id: 1, method: 'resources/subscribe', params: { uri: WATCHED } }, h);
    await subscribe.rest();
    expect(subscribe.status).toBe(200);
    // Round-robin: the subscription was made on another process than the one holding the stream.
    expect(subscribe.upstream).not.toBe(listen.upstream);
    let id = 10;
    const raise = async (on?: ClusterInstance) => {
      const update = await call(on === undefined ? url : direct(on), h, (id += 1), 'test_update_watched_resource', {});
      await update.rest();
      expect(update.status).toBe(200);
    };
    return { h, listen, raise };
  }
  const isUpdate = (m: Message) => m.method === 'notifications/resources/updated';

  for (const fate of ['alive', 'killed'] as const) {
    test(`its process ${fate}: what was raised meanwhile arrives, then what is raised afterwards`, async () => {
      const { h, listen, raise } = await watching();
      const seen: RawEvent[] = [];
      await raise();
      await readUntil(listen, seen, isUpdate);
      const holder = instanceAt(listen.upstream);
      await listen.cancel();
      if (fate === 'killed') await holder.kill();
      try {
        // Raised while no connection carries the stream (on the holder when it is alive: it stores them).
        if (fate === 'alive') await raise(holder);
        const target = other(holder.address);
        const resumed = await resume(target, h, seen.at(-1)!.id!);
        expect(resumed.status).toBe(200);
        const after: RawEvent[] = [];
        if (fate === 'alive') await readUntil(resumed, after, isUpdate);
        // Live again: an update raised now, on each process in turn, reaches the resumed stream.
        for (const instance of cluster.instances.filter((i) => i.running)) {
          await raise(instance);
          await readUntil(resumed, after, isUpdate);
        }
        const updates = messages(after).filter(isUpdate);
        expect(updates).toHaveLength(cluster.instances.filter((i) => i.running).length + (fate === 'alive' ? 1 : 0));
        const ids = [...seen, ...after].map((event) => event.id).filter((id) => id !== undefined);
        expect(new Set(ids).size).toBe(ids.length);
        await resumed.cancel();
      } finally {
        if (!holder.running) await holder.start();
      }
    }, 60_000);
  }

  test('a subscription made on one process reaches the GET stream held by another, for updates raised anywhere, once each', async () => {
    const { h, listen, raise } = await watching();
    const seen: RawEvent[] = [];
    // Every process raises one: the one holding the stream first.
    const holder = instanceAt(listen.upstream);
    const order = [holder, ...cluster.instances.filter((instance) => instance !== holder)];
    for (const [index, instance] of order.entries()) {
      await raise(instance);
      // A hang here fails with what was seen, and where the update was raised, instead of the bare test timeout.
      await withTimeout(readUntil(listen, seen, isUpdate), 20_000, () => {
        const where = index === 0 ? 'the process holding the stream' : `another process (${index + 1} of ${order.length})`;
        return `no resources/updated on the GET stream (held by ${holder.address}) after an update raised on ${where}, ${instance.address}; the stream carried: ${seen.map((e) => e.data).join(' | ')}`;
      });
    }
    // Then a list change, raised by the holder: an update sent twice would have come before it.
    const change = await call(direct(holder), h, 99, 'test_trigger_tool_change', {});
    await change.rest();
    await readUntil(listen, seen, (m) => m.method === 'notifications/tools/list_changed');
    expect(messages(seen).filter(isUpdate)).toHaveLength(3);
    await listen.cancel();
  }, 60_000);
});
