// A rolling restart under load: three everything-server processes behind nginx round-robin, state in Redis, each
// restarted in turn — SIGTERM (the drain), its replacement started on the same port, then `/readyz` 200 — while
// clients run (scripts/cluster/fault-load.ts: 2025-11-25 sessions with streamed calls resumed anywhere with
// Last-Event-ID, 2026-07-28 calls and input-required rounds) and one session's standalone GET stream hears resource
// updates raised by calls through the balancer, resuming with Last-Event-ID whenever its stream ends. Counted: every
// request sent and every answer received, every update published and every one heard. No request lost, no update
// heard twice (by event id), none lost — also those raised while the draining process hands the stream over to the one
// its client resumed on —, progress in order; each instance exits 0 (its drain cut nothing).
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { startCluster, type Cluster, type ClusterInstance } from '../../../scripts/cluster/cluster.js';
import { startLoad, type LoadRecord } from '../../../scripts/cluster/fault-load.js';
import { messages, openSession, send, sessionHeaders, type RawResponse } from './raw-http.test-util.js';

const V = '2025-11-25';
const WATCHED = 'test://watched-resource';
/** Bounds of the whole run: no request may take longer; the publisher sends at most this many updates. */
const DEADLINE_MS = 20_000;
const MAX_UPDATES = 2_000;
let cluster: Cluster;

beforeAll(async () => {
  cluster = await startCluster({
    instances: 3,
    serverArgs: ['--health', '--drain-timeout', '5'],
    log: (line) => process.stderr.write(`[cluster] ${line}\n`),
  });
}, 180_000);

afterAll(async () => {
  await cluster?.stop();
}, 30_000);

/** Resolves once `instance` answers `/readyz` with 200 (bounded: each probe by the deadline, at most 200 probes). */
async function ready(instance: ClusterInstance): Promise<void> {
  for (let probe = 0; probe < 200; probe += 1) {
    const response = await fetch(`http://${instance.address}/readyz`, { signal: AbortSignal.timeout(DEADLINE_MS) }).catch(() => undefined);
    await response?.text();
    if (response?.status === 200) return;
    // A probe's period, as an orchestrator's: the process just printed its start line, readiness follows at once.
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  throw new Error(`${instance.address} never became ready`);
}

/**
 * Resolves once the balancer sends requests to `instance` again, as a rolling update waits for a replacement to be in
 * service before it takes the next one out. nginx skips a port for `fail_timeout` after a failure there (the drain's
 * refused connections): restarting the next instance within that time would leave one instance serving, and a single
 * failure on it would leave none (502 "no live upstreams").
 */
async function inService(instance: ClusterInstance): Promise<void> {
  const front = new URL(cluster.url).origin;
  for (let probe = 0; probe < 400; probe += 1) {
    const response = await fetch(`${front}/readyz`, { signal: AbortSignal.timeout(DEADLINE_MS) }).catch(() => undefined);
    await response?.text();
    // With a retry, nginx lists every upstream it tried; the last one answered.
    if (response?.headers.get('x-upstream')?.split(', ').at(-1) === instance.address) return;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  throw new Error(`the balancer never sent a request to ${instance.address} after its restart`);
}

/**
 * The watched session: a standalone GET stream (resumed with Last-Event-ID through the balancer whenever it ends or
 * breaks) and a publisher raising one update per call. Every event id heard is kept, to find one heard twice.
 */
async function watch() {
  const { sessionId } = await openSession(cluster.url, V).catch((error: unknown) => {
    // What the processes said (a Redis command that timed out, a connection lost) is the diagnosis.
    const said = cluster.instances.map((instance) => `${instance.address}:\n${instance.output.slice(-1500)}`).join('\n');
    throw new Error(`the watched session did not open: ${String(error)}\n${said}`);
  });
  const headers = sessionHeaders(sessionId, V);
  const ids: string[] = [];
  let heard = 0;
  let published = 0;
  let resumptions = 0;
  let stopped = false;
  let finished = false;
  const problems: string[] = [];
  let waiter: (() => void) | undefined;
  let stream: RawResponse = await send(cluster.url, 'GET', undefined, headers);
  if (stream.status !== 200) throw new Error(`GET stream: HTTP ${stream.status}`);
  const subscribe = await send(
    cluster.url,
    'POST',
    { jsonrpc: '2.0', id: 1, method: 'resources/subscribe', params: { uri: WATCHED } },
    headers,
  );
  await subscribe.rest();
  if (subscribe.status !== 200) throw new Error(`subscribe: HTTP ${subscribe.status}`);
  const reading = (async () => {
    let last: string | undefined;
    for (let attempt = 0; attempt < 50 && !finished;) {
      const event = await stream.next();
      if (event !== undefined) {
        if (event.id !== undefined) {
          ids.push(event.id);
          last = event.id;
        }
        if (messages([event]).some((m) => m.method === 'notifications/resources/updated')) heard += 1;
        waiter?.();
        continue;
      }
      if (finished) break;
      // The stream ended (a draining process ends it with a retry hint) or broke: resume where it stopped.
      attempt += 1;
      resumptions += 1;
      stream = await send(cluster.url, 'GET', undefined, last === undefined ? headers : { ...headers, 'last-event-id': last });
      if (stream.status !== 200) {
        problems.push(`resumption ${resumptions}: HTTP ${stream.status}`);
        // A client waits before it reconnects after a failed attempt (the SSE reconnection time), not 50 times at once.
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
    }
  })();
  const publishing = (async () => {
    for (let id = 2; !stopped && published < MAX_UPDATES; id += 1) {
      const raise = await send(
        cluster.url,
        'POST',
        { jsonrpc: '2.0', id, method: 'tools/call', params: { name: 'test_update_watched_resource', arguments: {} } },
        headers,
        AbortSignal.timeout(DEADLINE_MS),
      );
      const answer = messages(await raise.rest()).find((m) => m.id === id);
      if (raise.status === 200 && answer !== undefined && 'result' in answer) published += 1;
      else problems.push(`update ${id}: HTTP ${raise.status} ${JSON.stringify(answer ?? null).slice(0, 200)}`);
    }
  })();
  return {
    problems,
    get counts() {
      return { published, heard, resumptions, duplicates: ids.length - new Set(ids).size };
    },
    /** Stops publishing, then waits (bounded) until every update published was heard. */
    async stop(): Promise<void> {
      stopped = true;
      await publishing;
      const deadline = Date.now() + DEADLINE_MS;
      while (heard < published && Date.now() < deadline) {
        await new Promise<void>((resolve) => {
          waiter = resolve;
          setTimeout(resolve, 1000);
        });
      }
      finished = true;
      await stream.cancel();
      await reading;
    },
  };
}

describe('a rolling restart of three processes behind nginx, under load', () => {
  test('every request answered, each drain clean, every update heard exactly once across the restarts', async () => {
    const load = startLoad(cluster.url, { legacy: 3, modern: 3, sse: 0, deadlineMs: DEADLINE_MS, steps: 5, durationMs: 500 });
    const watched = await watch();
    let records: LoadRecord[] = [];
    try {
      const servedSince = async (since: number): Promise<void> => {
        const deadline = Date.now() + DEADLINE_MS;
        while (!load.records.some((r) => r.kind === 'legacy' && r.outcome === 'result' && r.startedAt >= since)) {
          if (Date.now() > deadline) throw new Error(`no legacy result since ${since}: ${load.violations.join('; ')}`);
          await new Promise((resolve) => setTimeout(resolve, 20));
        }
      };
      for (const instance of cluster.instances) {
        await servedSince(Date.now());
        await instance.terminate();
        expect(instance.exitCode, instance.output).toBe(0);
        await instance.start();
        await ready(instance);
        await inService(instance);
      }
      await servedSince(Date.now());
    } finally {
      records = await load.stop();
      await watched.stop();
    }
    const { published, heard, resumptions, duplicates } = watched.counts;
    // Printed first, so that a run failing on another assertion still says what was heard.
    process.stderr.write(
      `[rolling] ${records.length} requests answered (${records.filter((r) => r.resumed).length} after a resumption), ` +
        `${published} updates published, ${heard} heard, ${duplicates} duplicates, ${resumptions} GET resumptions\n`,
    );
    const failed = records.filter((r) => r.outcome !== 'result');
    expect(load.violations).toEqual([]);
    expect(failed.map((r) => `${r.kind}: ${r.outcome} ${r.detail}`)).toEqual([]);
    expect(records.length).toBeGreaterThan(30);
    // A legacy call in progress at a drain is given the drain deadline and finishes where it started; one whose stream
    // broke meanwhile resumes elsewhere. Such resumptions are incidental (0–2 per run, none in about one run of four
    // on the same build), so they are counted above, not required: the standalone stream's resumptions below are the
    // drain's own (it ends that stream with a retry hint), and every call answered (`failed` is empty) is the rule.
    expect(watched.problems).toEqual([]);
    // The draining process keeps storing the stream's updates until the process its client resumed on took it over:
    // none is lost in a hand-over, none heard twice.
    expect(duplicates).toBe(0);
    expect(published).toBeGreaterThan(10);
    expect(heard).toBe(published);
    expect(resumptions).toBeGreaterThan(0);
    expect(cluster.unexpectedExits()).toEqual([]);
  }, 240_000);
});
