// Tasks on three processes behind nginx round-robin, state in Redis: a 2025-11-25 task belongs to its session, so
// every process serving the session lists, reads, awaits and cancels it (and no other session sees it); a task
// whose process is killed mid-run is failed once its lease lapses (a short lease here), instead of staying
// `working` until its TTL, and a client waiting on `tasks/result` on another process hears it.
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { startCluster, type Cluster } from '../../../scripts/cluster/cluster.js';
import { messages, openSession, send, sessionHeaders } from './raw-http.test-util.js';

const V = '2025-11-25';
let cluster: Cluster;
let url: string;

beforeAll(async () => {
  // The server processes inherit it: a task of a killed process is failed within about 1.5 s.
  process.env.WIREMCP_TASK_LEASE_MS = '1500';
  cluster = await startCluster({ instances: 3, log: (line) => process.stderr.write(`[cluster] ${line}\n`) });
  url = cluster.url;
}, 180_000);

afterAll(async () => {
  await cluster?.stop();
}, 30_000);

interface Answer {
  readonly upstream: string;
  readonly message: Record<string, unknown>;
}

/** One request of the session through the balancer: its answer and the process that served it. */
async function call(headers: Record<string, string>, id: number, method: string, params: Record<string, unknown>): Promise<Answer> {
  const response = await send(url, 'POST', { jsonrpc: '2.0', id, method, params }, headers);
  expect(response.status).toBe(200);
  const message = messages(await response.rest()).find((m) => m.id === id);
  if (message === undefined) throw new Error(`no answer to ${method}`);
  return { upstream: response.upstream, message };
}

const slow = (seconds: number) => ({ name: 'slow_compute', arguments: { seconds }, task: { ttl: 120_000 } });
const taskIdOf = (answer: Answer) => ((answer.message.result as { task: { taskId: string } }).task ?? {}).taskId;
const listed = (answer: Answer) => (answer.message.result as { tasks: Array<{ taskId: string; status: string }> }).tasks;

describe('2025-11-25 tasks of a session served by three processes', () => {
  test('every process serving the session lists, reads, awaits and cancels its tasks; another session sees none', async () => {
    const { sessionId } = await openSession(url, V);
    const h = sessionHeaders(sessionId, V);
    const quick = await call(h, 1, 'tools/call', slow(0.2));
    const long = await call(h, 2, 'tools/call', slow(60));
    const ids = [taskIdOf(quick), taskIdOf(long)];
    const upstreams = new Set<string>([quick.upstream, long.upstream]);
    // Round-robin: the next requests land on the other processes too, each of which sees both tasks.
    for (let id = 3; id <= 5; id += 1) {
      const page = await call(h, id, 'tasks/list', {});
      upstreams.add(page.upstream);
      expect(listed(page).map((task) => task.taskId)).toEqual(ids);
    }
    expect(upstreams.size).toBe(3);
    const done = await call(h, 6, 'tasks/result', { taskId: ids[0] });
    expect(done.message.result).toMatchObject({ content: [{ type: 'text', text: 'Computed for 0.2s' }] });
    const read = await call(h, 7, 'tasks/get', { taskId: ids[1] });
    expect(read.message.result).toMatchObject({ taskId: ids[1], status: 'working' });
    // Cancelled from a process other than the one running it: round-robin (one nginx worker) sends the request
    // after one served by that process elsewhere.
    for (let id = 20; (await call(h, id, 'ping', {})).upstream !== long.upstream; id += 1);
    const cancelled = await call(h, 8, 'tasks/cancel', { taskId: ids[1] });
    expect(cancelled.upstream).not.toBe(long.upstream);
    expect(cancelled.message.result).toMatchObject({ taskId: ids[1], status: 'cancelled' });
    const after = await call(h, 9, 'tasks/get', { taskId: ids[1] });
    expect(after.message.result).toMatchObject({ status: 'cancelled' });

    const stranger = await openSession(url, V);
    const s = sessionHeaders(stranger.sessionId, V);
    for (let id = 1; id <= 3; id += 1) expect(listed(await call(s, id, 'tasks/list', {}))).toEqual([]);
    for (const method of ['tasks/get', 'tasks/result', 'tasks/cancel']) {
      expect((await call(s, 10, method, { taskId: ids[0] })).message.error).toMatchObject({ code: -32602 });
    }
  }, 60_000);

  test('a process killed mid-task: the task is failed once its lease lapses, and a waiting tasks/result hears it', async () => {
    const { sessionId } = await openSession(url, V);
    const h = sessionHeaders(sessionId, V);
    const created = await call(h, 1, 'tools/call', slow(60));
    const taskId = taskIdOf(created);
    const victim = cluster.instances.find((instance) => instance.address === created.upstream)!;
    await victim.kill();
    try {
      // Sent at once after the kill, the lease still running: the tasks/result waits, and hears the failure.
      const result = await call(h, 2, 'tasks/result', { taskId });
      expect(result.upstream).not.toBe(victim.address);
      expect(result.message.error).toMatchObject({ code: -32603, message: expect.stringMatching(/stopped before it finished/) });
      const read = await call(h, 100, 'tasks/get', { taskId });
      expect(read.upstream).not.toBe(victim.address);
      expect(read.message.result).toMatchObject({ taskId, status: 'failed', statusMessage: expect.stringMatching(/lease lapsed/) });
      expect(listed(await call(h, 101, 'tasks/list', {}))).toEqual([expect.objectContaining({ taskId, status: 'failed' })]);
    } finally {
      await victim.start();
    }
  }, 60_000);
});
