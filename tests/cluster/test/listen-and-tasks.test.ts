// 2026-07-28 across processes, all real (Redis, three server processes, nginx round-robin without affinity):
// - listen streams held on every process hear a list change and a resource update raised on one of them, each
//   exactly once, stamped with their own subscription id;
// - a plain request whose response stream the client closes is cancelled on the process running it (closing the
//   stream is cancellation);
// - a request the server runs as a task (the tasks extension) outlives the connections around it: the listen
//   stream following it on the process running it is cut, and the client, back through nginx on other processes,
//   gets the result from the shared task store (`notifications/tasks` once, `tasks/get` inlining it everywhere).
// - a 2025-11-25 task of a legacy session created on one process is the session's own on the others:
//   `tasks/get` and `tasks/result` answer there.
// The processes run the everything server plus two probe tools (`fixtures/probe-server.mjs`).
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, afterEach, beforeAll, describe, expect, test } from 'vitest';
import { startCluster, type Cluster } from '../../../scripts/cluster/cluster.js';
import { messages, openSession, type RawEvent, type RawResponse, readUntil, send, sessionHeaders } from './raw-http.test-util.js';

const V = '2026-07-28';
const TASKS = 'io.modelcontextprotocol/tasks';
const WATCHED = 'test://watched-resource';
const SUBSCRIPTION_ID = 'io.modelcontextprotocol/subscriptionId';
let cluster: Cluster;
let url: string;

beforeAll(async () => {
  const serverBin = join(dirname(fileURLToPath(import.meta.url)), '..', 'fixtures', 'probe-server.mjs');
  cluster = await startCluster({ instances: 3, serverBin, log: (line) => process.stderr.write(`[cluster] ${line}\n`) });
  url = cluster.url;
}, 180_000);

afterAll(async () => {
  await cluster?.stop();
}, 30_000);

/** Streams a test opened, closed after it even when it fails (nginx's graceful stop waits for open ones). */
const opened: RawResponse[] = [];
afterEach(async () => {
  await Promise.all(opened.splice(0).map((response) => response.cancel()));
});

type Message = Record<string, unknown>;

/** A 2026-07-28 request through the balancer, its headers mirrored from the body. */
async function modern(id: number, method: string, params: Record<string, unknown>, options: { tasks?: boolean; progress?: string } = {}) {
  const capabilities = options.tasks ? { extensions: { [TASKS]: {} } } : {};
  const meta: Record<string, unknown> = {
    'io.modelcontextprotocol/protocolVersion': V,
    'io.modelcontextprotocol/clientCapabilities': capabilities,
    ...(options.progress === undefined ? {} : { progressToken: options.progress }),
  };
  const name = typeof params.name === 'string' ? params.name : typeof params.taskId === 'string' ? params.taskId : undefined;
  const headers: Record<string, string> = { 'mcp-protocol-version': V, 'mcp-method': method };
  if (name !== undefined && (method === 'tools/call' || method.startsWith('tasks/'))) headers['mcp-name'] = name;
  const response = await send(url, 'POST', { jsonrpc: '2.0', id, method, params: { ...params, _meta: meta } }, headers);
  opened.push(response);
  return response;
}

/** The one JSON answer of a request. */
async function answer(response: RawResponse): Promise<Message> {
  const all = messages(await response.rest());
  const last = all.at(-1);
  if (response.status !== 200 || last === undefined) throw new Error(`${response.status}: ${JSON.stringify(all)}`);
  return last;
}

const acknowledged = (m: Message) => m.method === 'notifications/subscriptions/acknowledged';

/** A listen stream, opened through the balancer until it lands where `accept` wants it (bounded). */
async function openListen(id: number, notifications: Record<string, unknown>, accept: (upstream: string) => boolean, tasks = false) {
  for (let attempt = 0; attempt < 12; attempt += 1) {
    const response = await modern(id, 'subscriptions/listen', { notifications }, { tasks });
    expect(response.status).toBe(200);
    const events: RawEvent[] = [];
    const ack = await readUntil(response, events, acknowledged);
    if (accept(response.upstream)) return { response, events, ack, id };
    await response.cancel();
  }
  throw new Error('the balancer never placed the stream where it was wanted');
}

/** `probe_counts` of the process at `upstream`, asked through the balancer until it lands there (bounded). */
async function countsOn(upstream: string, id: number): Promise<{ started: number; cancelled: number; completed: number }> {
  for (let attempt = 0; attempt < 12; attempt += 1) {
    const response = await modern(id + attempt, 'tools/call', { name: 'probe_counts', arguments: {} });
    const reply = await answer(response);
    if (response.upstream === upstream)
      return (reply.result as { structuredContent: { started: number; cancelled: number; completed: number } }).structuredContent;
  }
  throw new Error(`the balancer never reached ${upstream}`);
}

describe('2026-07-28 listen streams on three processes', () => {
  test('a list change and a resource update raised on one process reach the streams on every process, once each', async () => {
    const filter = { toolsListChanged: true, resourceSubscriptions: [WATCHED] };
    const streams: Awaited<ReturnType<typeof openListen>>[] = [];
    for (let id = 1; streams.length < 3; id += 1) {
      streams.push(await openListen(id, filter, (upstream) => !streams.some((s) => s.response.upstream === upstream)));
    }
    expect(new Set(streams.map((s) => s.response.upstream))).toEqual(new Set(cluster.instances.map((i) => i.address)));
    for (const stream of streams)
      expect(stream.ack.params).toMatchObject({ notifications: filter, _meta: { [SUBSCRIPTION_ID]: stream.id } });

    const change = await modern(20, 'tools/call', { name: 'test_trigger_tool_change', arguments: {} });
    expect((await answer(change)).result).toMatchObject({ structuredContent: { present: expect.any(Boolean) } });
    // The update comes after the change (and lands on another process): a stream that has it has had its chance
    // to receive the change twice.
    const update = await modern(21, 'tools/call', { name: 'test_update_watched_resource', arguments: {} });
    expect((await answer(update)).result).toMatchObject({ structuredContent: { uri: WATCHED } });
    expect(update.upstream).not.toBe(change.upstream);

    for (const stream of streams) {
      await readUntil(stream.response, stream.events, (m) => m.method === 'notifications/resources/updated');
      const heard = messages(stream.events).filter((m) => !acknowledged(m));
      expect(heard).toEqual([
        { jsonrpc: '2.0', method: 'notifications/tools/list_changed', params: { _meta: { [SUBSCRIPTION_ID]: stream.id } } },
        { jsonrpc: '2.0', method: 'notifications/resources/updated', params: { _meta: { [SUBSCRIPTION_ID]: stream.id }, uri: WATCHED } },
      ]);
      await stream.response.cancel();
    }
  }, 60_000);
});

describe('2026-07-28 requests whose connection drops', () => {
  test('a plain request whose stream the client closes is cancelled on the process running it', async () => {
    const call = await modern(30, 'tools/call', { name: 'probe_wait', arguments: { ms: 60_000 } }, { progress: 'w' });
    expect(call.status).toBe(200);
    await readUntil(call, [], (m) => m.method === 'notifications/progress');
    expect(await countsOn(call.upstream, 100)).toEqual({ started: 1, cancelled: 0, completed: 0 });
    await call.cancel();
    // nginx passes the close on to the process, whose handler is aborted (bounded: the call would run a minute).
    let counts = await countsOn(call.upstream, 200);
    for (let round = 0; counts.cancelled === 0 && round < 40; round += 1) {
      await new Promise((resolve) => setTimeout(resolve, 50));
      counts = await countsOn(call.upstream, 300 + round * 20);
    }
    expect(counts).toEqual({ started: 1, cancelled: 1, completed: 0 });
  }, 60_000);

  test('a task outlives a cut connection on the process running it; other processes hand out its result, once', async () => {
    const created = await modern(40, 'tools/call', { name: 'slow_compute', arguments: { seconds: 1, label: 'cluster' } }, { tasks: true });
    const task = (await answer(created)).result as { resultType: string; taskId: string; status: string };
    expect(task).toMatchObject({ resultType: 'task', status: 'working', taskId: expect.any(String) });
    const ranOn = created.upstream;

    // The client follows the task on the process running it, and that connection is cut mid-run.
    const follow = { taskIds: [task.taskId] };
    const cut = await openListen(41, follow, (upstream) => upstream === ranOn, true);
    expect(cut.ack.params).toMatchObject({ notifications: follow });
    await cut.response.cancel();

    // Back through the balancer, on another process: the completion arrives once, with the result inlined.
    const back = await openListen(42, follow, (upstream) => upstream !== ranOn, true);
    const done = await readUntil(
      back.response,
      back.events,
      (m) => m.method === 'notifications/tasks' && (m.params as { status: string }).status !== 'working',
    );
    expect(done.params).toMatchObject({
      taskId: task.taskId,
      status: 'completed',
      result: { content: [{ type: 'text', text: 'Computed for 1s (cluster)' }] },
      _meta: { [SUBSCRIPTION_ID]: 42 },
    });
    const statuses = messages(back.events)
      .filter((m) => m.method === 'notifications/tasks')
      .map((m) => (m.params as { status: string }).status);
    expect(statuses.filter((status) => status === 'completed')).toHaveLength(1);
    await back.response.cancel();

    // Polling lands on every process in turn: each inlines the same result, written once.
    const seen = new Map<string, Message>();
    for (let id = 50; seen.size < 3 && id < 62; id += 1) {
      const poll = await modern(id, 'tasks/get', { taskId: task.taskId }, { tasks: true });
      const result = (await answer(poll)).result as Message;
      seen.set(poll.upstream, result);
    }
    expect([...seen.keys()].sort()).toEqual(cluster.instances.map((i) => i.address).sort());
    const results = [...seen.values()];
    for (const result of results) {
      expect(result).toMatchObject({ resultType: 'complete', taskId: task.taskId, status: 'completed' });
      expect({ result: result.result, lastUpdatedAt: result.lastUpdatedAt }).toEqual({
        result: results[0]!.result,
        lastUpdatedAt: (done.params as Message).lastUpdatedAt,
      });
    }
  }, 60_000);
});

describe('2025-11-25 tasks of a legacy session on three processes', () => {
  test('a task created on one process is found on the others: tasks/get, then tasks/result with the outcome', async () => {
    const { sessionId } = await openSession(url, '2025-11-25');
    const h = sessionHeaders(sessionId, '2025-11-25');
    const legacy = async (id: number, method: string, params: Record<string, unknown>) => {
      const response = await send(url, 'POST', { jsonrpc: '2.0', id, method, params }, h);
      opened.push(response);
      return { upstream: response.upstream, message: await answer(response) };
    };
    const created = await legacy(1, 'tools/call', { name: 'slow_compute', arguments: { seconds: 0.5 }, task: { ttl: 60_000 } });
    const taskId = (created.message.result as { task: { taskId: string } }).task.taskId;
    const got = await legacy(2, 'tasks/get', { taskId });
    expect(got.upstream).not.toBe(created.upstream);
    expect(got.message.result).toMatchObject({ taskId, status: expect.stringMatching(/working|completed/) });
    const result = await legacy(3, 'tasks/result', { taskId });
    expect(result.upstream).not.toBe(got.upstream);
    expect(result.message.result).toMatchObject({ content: [{ type: 'text', text: 'Computed for 0.5s' }] });
  }, 30_000);
});
