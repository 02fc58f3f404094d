/**
 * `npm run bench:cluster`: what scale-out costs and buys, measured side by side in one run on this machine —
 * the everything server over Streamable HTTP (legacy sessions, 2025-11-25) as
 *   1. one process, in-memory state, no balancer (the baseline);
 *   2. one process, state in Redis, no balancer (what Redis adds);
 *   3. one process behind nginx, in-memory (what the balancer adds);
 *   4. two processes behind nginx round-robin, state in Redis (the scaled-out design).
 * For each: sequential latency (one session, one request at a time: median and p99), and concurrent throughput
 * (16 sessions, each one request at a time). Then Redis memory per idle session and per buffered SSE event.
 * Medians over `--reps` repetitions; the order of configurations rotates between repetitions.
 */
import { parseArgs } from 'node:util';
import { connectRedisState } from '../../packages/redis/src/index.js';
import { startCluster, type Cluster } from './cluster.js';

const { values } = parseArgs({
  options: {
    reps: { type: 'string', default: '3' },
    sequential: { type: 'string', default: '400' },
    concurrent: { type: 'string', default: '2000' },
    sessions: { type: 'string', default: '16' },
    'idle-sessions': { type: 'string', default: '2000' },
    events: { type: 'string', default: '20000' },
  },
});
const REPS = Number(values.reps);
const SEQ = Number(values.sequential);
const CONC = Number(values.concurrent);
const SESSIONS = Number(values.sessions);
const say = (line: string): void => void process.stderr.write(`[bench:cluster] ${line}\n`);
const V = '2025-11-25';

interface Config {
  readonly id: string;
  readonly label: string;
  readonly options: { instances: number; redis: boolean; balancer: boolean };
}
const CONFIGS: Config[] = [
  { id: 'one-memory', label: '1 process, in-memory, direct', options: { instances: 1, redis: false, balancer: false } },
  { id: 'one-redis', label: '1 process, Redis, direct', options: { instances: 1, redis: true, balancer: false } },
  { id: 'one-nginx-memory', label: '1 process behind nginx, in-memory', options: { instances: 1, redis: false, balancer: true } },
  { id: 'two-nginx-redis', label: '2 processes behind nginx, Redis', options: { instances: 2, redis: true, balancer: true } },
];

async function rpc(url: string, sessionId: string | undefined, body: unknown): Promise<Response> {
  const headers: Record<string, string> = { 'content-type': 'application/json', accept: 'application/json, text/event-stream' };
  if (sessionId !== undefined) Object.assign(headers, { 'mcp-session-id': sessionId, 'mcp-protocol-version': V });
  return fetch(url, { method: 'POST', headers, body: JSON.stringify(body) });
}

async function open(url: string): Promise<string> {
  const init = await rpc(url, undefined, {
    jsonrpc: '2.0',
    id: 0,
    method: 'initialize',
    params: { protocolVersion: V, capabilities: {}, clientInfo: { name: 'bench', version: '1' } },
  });
  const id = init.headers.get('mcp-session-id');
  await init.text();
  if (init.status !== 200 || id === null) throw new Error(`initialize: ${init.status}`);
  const done = await rpc(url, id, { jsonrpc: '2.0', method: 'notifications/initialized' });
  await done.text();
  return id;
}

let nextId = 1;
async function call(url: string, sessionId: string): Promise<void> {
  const id = nextId++;
  const response = await rpc(url, sessionId, {
    jsonrpc: '2.0',
    id,
    method: 'tools/call',
    params: { name: 'test_simple_text', arguments: {} },
  });
  const text = await response.text();
  if (response.status !== 200 || !text.includes('"result"')) throw new Error(`tools/call: ${response.status} ${text.slice(0, 200)}`);
}

const median = (xs: number[]): number => {
  const s = [...xs].sort((a, b) => a - b);
  const m = s.length >> 1;
  return s.length % 2 ? s[m]! : (s[m - 1]! + s[m]!) / 2;
};
const quantile = (xs: number[], q: number): number => [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor(q * xs.length))]!;

async function measure(url: string): Promise<{ p50: number; p99: number; rps: number }> {
  const session = await open(url);
  for (let i = 0; i < 50; i += 1) await call(url, session); // warm-up
  const latencies: number[] = [];
  for (let i = 0; i < SEQ; i += 1) {
    const start = performance.now();
    await call(url, session);
    latencies.push(performance.now() - start);
  }
  const sessions = await Promise.all(Array.from({ length: SESSIONS }, () => open(url)));
  let remaining = CONC;
  const started = performance.now();
  await Promise.all(
    sessions.map(async (id) => {
      while (remaining > 0) {
        remaining -= 1;
        await call(url, id);
      }
    }),
  );
  const seconds = (performance.now() - started) / 1000;
  return { p50: median(latencies), p99: quantile(latencies, 0.99), rps: CONC / seconds };
}

/**
 * What a hop costs: on two processes sharing Redis (no balancer, each addressed directly), the first request of a
 * session on the process that did not open it (one Redis GET, then the session restored) against a request on the
 * process holding it; and a state-changing request (`logging/setLevel`: a Redis SET and a PUBLISH) against `ping`.
 */
async function hopCost(): Promise<{ held: number; restored: number; ping: number; setLevel: number }> {
  const cluster = await startCluster({ instances: 2, redis: true, balancer: false });
  try {
    const [a, b] = cluster.instances.map((instance) => `http://${instance.address}/mcp`) as [string, string];
    const held: number[] = [];
    const restored: number[] = [];
    const ping: number[] = [];
    const setLevel: number[] = [];
    const time = async (into: number[], url: string, session: string, body: Record<string, unknown>): Promise<void> => {
      const start = performance.now();
      const response = await rpc(url, session, { jsonrpc: '2.0', id: nextId++, ...body });
      await response.text();
      if (response.status !== 200) throw new Error(`${String(body.method)}: ${response.status}`);
      into.push(performance.now() - start);
    };
    for (let i = 0; i < 200; i += 1) {
      const session = await open(a);
      await time(held, a, session, { method: 'ping' });
      await time(restored, b, session, { method: 'ping' });
      await time(ping, b, session, { method: 'ping' });
      await time(setLevel, b, session, { method: 'logging/setLevel', params: { level: 'info' } });
    }
    return { held: median(held), restored: median(restored), ping: median(ping), setLevel: median(setLevel) };
  } finally {
    await cluster.stop();
  }
}

async function redisMemory(): Promise<{ perSession: number; perEvent: number; eventBytes: number }> {
  const cluster = await startCluster({ instances: 1, redis: true, balancer: false });
  try {
    const state = await connectRedisState({ url: cluster.redisUrl!, onError: () => {} });
    try {
      const used = async (): Promise<number> => Number(/used_memory:(\d+)/.exec(await state.client.info('memory'))![1]);
      const idle = Number(values['idle-sessions']);
      const before = await used();
      for (let i = 0; i < idle; i += 50) await Promise.all(Array.from({ length: Math.min(50, idle - i) }, () => open(cluster.url)));
      const perSession = ((await used()) - before) / idle;
      // Events as the handler stores them: progress notifications of 100 streams in 10 sessions.
      const events = Number(values.events);
      const sample = (n: number): string =>
        JSON.stringify({
          jsonrpc: '2.0',
          method: 'notifications/progress',
          params: { progressToken: 'op-1', progress: n, total: 1000, message: `Step ${n} of 1000` },
        });
      const beforeEvents = await used();
      for (let i = 0; i < events; i += 500) {
        await Promise.all(
          Array.from({ length: Math.min(500, events - i) }, (_, k) => {
            const n = i + k;
            return state.eventStore.append({
              sessionId: `bench-${n % 10}`,
              streamId: `s${n % 100}`,
              seq: Math.floor(n / 100),
              data: sample(n),
            });
          }),
        );
      }
      const perEvent = ((await used()) - beforeEvents) / events;
      return { perSession, perEvent, eventBytes: sample(500).length };
    } finally {
      await state.close();
    }
  } finally {
    await cluster.stop();
  }
}

const results = new Map<string, { p50: number[]; p99: number[]; rps: number[] }>(CONFIGS.map((c) => [c.id, { p50: [], p99: [], rps: [] }]));
const began = Date.now();
for (let rep = 0; rep < REPS; rep += 1) {
  const order = CONFIGS.map((_, i) => CONFIGS[(i + rep) % CONFIGS.length]!);
  for (const config of order) {
    let cluster: Cluster | undefined;
    try {
      cluster = await startCluster(config.options);
      const r = await measure(cluster.url);
      const into = results.get(config.id)!;
      into.p50.push(r.p50);
      into.p99.push(r.p99);
      into.rps.push(r.rps);
      say(`rep ${rep + 1}/${REPS} ${config.label}: p50 ${r.p50.toFixed(3)} ms, p99 ${r.p99.toFixed(3)} ms, ${r.rps.toFixed(0)} req/s`);
    } finally {
      await cluster?.stop();
    }
  }
}
const hop = await hopCost();
const memory = await redisMemory();
const base = results.get('one-memory')!;
const lines = [
  `Cluster benchmark — ${new Date().toISOString()}, Node ${process.version}, ${(await import('node:os')).cpus().length} CPUs, ${REPS} repetitions (medians), ${((Date.now() - began) / 1000).toFixed(0)} s`,
  `Command: npm run bench:cluster -- --reps ${REPS} --sequential ${SEQ} --concurrent ${CONC} --sessions ${SESSIONS}`,
  '',
  '| configuration | sequential p50 (ms) | sequential p99 (ms) | p50 added vs baseline (ms) | concurrent req/s | throughput vs baseline |',
  '| --- | ---: | ---: | ---: | ---: | ---: |',
  ...CONFIGS.map((config) => {
    const r = results.get(config.id)!;
    return `| ${config.label} | ${median(r.p50).toFixed(3)} | ${median(r.p99).toFixed(3)} | ${(median(r.p50) - median(base.p50)).toFixed(3)} | ${median(r.rps).toFixed(0)} | ${(median(r.rps) / median(base.rps)).toFixed(2)}× |`;
  }),
  '',
  `A hop (2 processes sharing Redis, medians of 200): a request on the process holding the session ${hop.held.toFixed(3)} ms; the first request on the other process (session restored from Redis) ${hop.restored.toFixed(3)} ms; then ping ${hop.ping.toFixed(3)} ms vs logging/setLevel (state written and published) ${hop.setLevel.toFixed(3)} ms.`,
  '',
  `Redis memory: ${memory.perSession.toFixed(0)} bytes per idle session; ${memory.perEvent.toFixed(0)} bytes per buffered SSE event (a ${memory.eventBytes}-byte progress notification).`,
];
process.stdout.write(`${lines.join('\n')}\n`);
