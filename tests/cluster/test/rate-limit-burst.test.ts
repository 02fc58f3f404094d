// One rate limit across three everything-server processes behind nginx round-robin, its buckets in one Redis
// (`--rate-limit` with `--redis`): a burst of 3N calls spread over the three processes gets N results — plus what
// the bucket refilled while the burst lasted, computed from the measured duration (0 with these rates) — and a 429
// with `Retry-After` and error -32029 for every other call; 2026-07-28 stateless calls and 2025-11-25 session calls,
// each era on a rule of its own. With a bucket per process the successes would be up to 3N.
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { startCluster, type Cluster } from '../../../scripts/cluster/cluster.js';
import { messages, openSession, send, sessionHeaders, type RawResponse } from './raw-http.test-util.js';

/** The limit of each rule, per PERIOD. */
const N = 12;
const PERIOD_MS = 3_600_000;
const BURST = 3 * N;
const RULES = `tools/call:test_simple_text=${N}/h,tools/call:test_image_content=${N}/h`;
let cluster: Cluster;

beforeAll(async () => {
  cluster = await startCluster({
    instances: 3,
    serverArgs: ['--rate-limit', RULES],
    log: (line) => process.stderr.write(`[cluster] ${line}\n`),
  });
}, 180_000);

afterAll(async () => {
  await cluster?.stop();
}, 30_000);

const META = { 'io.modelcontextprotocol/protocolVersion': '2026-07-28', 'io.modelcontextprotocol/clientCapabilities': {} };

interface Outcome {
  readonly status: number;
  readonly upstream: string;
  readonly retryAfter: string | null;
  readonly body: Record<string, unknown>;
}

async function outcome(response: Promise<RawResponse>): Promise<Outcome> {
  const r = await response;
  const body = messages(await r.rest())[0] ?? {};
  return { status: r.status, upstream: r.upstream, retryAfter: r.headers.get('retry-after'), body };
}

/** Checks a burst's outcomes against the limit; `elapsedMs` bounds the refill the bucket could add meanwhile. */
function checkBurst(outcomes: readonly Outcome[], elapsedMs: number): void {
  const allowance = Math.floor((N * elapsedMs) / PERIOD_MS);
  const ok = outcomes.filter((o) => o.status === 200);
  const refused = outcomes.filter((o) => o.status === 429);
  expect(ok.length + refused.length, JSON.stringify(outcomes.filter((o) => o.status !== 200 && o.status !== 429))).toBe(BURST);
  expect(ok.length).toBeGreaterThanOrEqual(N);
  expect(ok.length).toBeLessThanOrEqual(N + allowance);
  for (const o of ok) expect(o.body).toMatchObject({ result: { content: expect.any(Array) } });
  for (const o of refused) {
    expect(o.retryAfter).toMatch(/^[1-9]\d*$/);
    expect(o.body).toMatchObject({ error: { code: -32029, data: { retryAfterMs: expect.any(Number) } } });
  }
  // Spread over every process. With that, the count above is what shows the bucket shared: buckets of their own would
  // let through at least N + 2 of 3N calls that reach all three processes (all 3N under round robin's even split). Which
  // processes the N successes came from is not asserted: the one that reaches Redis first may rightly take all N
  // (seen on a busy machine, where one process ran its N takes before the others were scheduled).
  expect(new Set(outcomes.map((o) => o.upstream))).toEqual(new Set(cluster.instances.map((i) => i.address)));
  // Redis answered every take: no instance fell back to letting requests through.
  for (const instance of cluster.instances) expect(instance.output).not.toMatch(/rate limit store failed/);
}

describe('a burst across three processes behind nginx, one limit in Redis', () => {
  test('2026-07-28 stateless calls: N results, 429 + Retry-After for the rest', async () => {
    const started = Date.now();
    const outcomes = await Promise.all(
      Array.from({ length: BURST }, (_, id) =>
        outcome(
          send(
            cluster.url,
            'POST',
            { jsonrpc: '2.0', id, method: 'tools/call', params: { name: 'test_simple_text', arguments: {}, _meta: META } },
            { 'mcp-protocol-version': '2026-07-28', 'mcp-method': 'tools/call', 'mcp-name': 'test_simple_text' },
          ),
        ),
      ),
    );
    checkBurst(outcomes, Date.now() - started);
  }, 60_000);

  test('2025-11-25 session calls, from three sessions: N results, 429 + Retry-After for the rest', async () => {
    const sessions = await Promise.all([0, 1, 2].map(() => openSession(cluster.url, '2025-11-25')));
    const started = Date.now();
    const outcomes = await Promise.all(
      Array.from({ length: BURST }, (_, id) =>
        outcome(
          send(
            cluster.url,
            'POST',
            { jsonrpc: '2.0', id, method: 'tools/call', params: { name: 'test_image_content', arguments: {} } },
            sessionHeaders(sessions[id % 3]!.sessionId, '2025-11-25'),
          ),
        ),
      ),
    );
    checkBurst(outcomes, Date.now() - started);
  }, 60_000);
});
