/**
 * `npm run bench:cluster -- --faults [--before <bin.js>]`: what a fault costs the clients of a running cluster,
 * measured side by side in one run — the everything server on three processes behind nginx round-robin, state in
 * Redis (append-only file, fsync always), under the load of `fault-load.ts` (8 legacy 2025-11-25 clients, each
 * call streaming progress for 2 s and resumed with `Last-Event-ID` when its stream breaks, and 2 clients of
 * 2026-07-28 with plain calls and input-required rounds), and two faults:
 *   - an instance killed (SIGKILL) while it runs legacy streams, started again 2 s later;
 *   - Redis killed (SIGKILL) and started again with its data 1 s later.
 * For each, the requests running at some moment from the fault until 2 s after the recovery (those in flight when
 * it struck included): how many were lost (never answered: no result, no JSON-RPC error, no refusal — a stream
 * that broke and could not be resumed, or one past its 15 s deadline), refused (an HTTP error, such as a 503 with
 * `Retry-After`), answered with a JSON-RPC error; their p99 latency (from sending to the outcome, failures
 * included); MCP processes that exited on their own; and what the load saw that no client may see (an event heard
 * twice, progress skipped, a 503 without `Retry-After`).
 * With `--before`, every repetition runs each fault against that build of the server too (another checkout's
 * `servers/everything/dist/bin.js`), in alternating order, so the two are compared on the same machine at the
 * same moment. A fresh cluster for each run.
 */
import { uptime, loadavg, cpus } from 'node:os';
import { parseArgs } from 'node:util';
import { startCluster, type Cluster } from './cluster.js';
import { startLoad, type LoadRecord } from './fault-load.js';

const { values } = parseArgs({
  options: {
    faults: { type: 'boolean' },
    before: { type: 'string' },
    reps: { type: 'string', default: '3' },
  },
});
const REPS = Number(values.reps);
const DEADLINE_MS = 15_000;
const say = (line: string): void => void process.stderr.write(`[bench:cluster:faults] ${line}\n`);
const pause = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

interface Build {
  readonly label: string;
  readonly bin: string | undefined;
}
const BUILDS: Build[] = [
  ...(values.before === undefined ? [] : [{ label: 'before', bin: values.before }]),
  { label: 'this build', bin: undefined },
];

interface Fault {
  readonly label: string;
  /** Injects the fault and resolves once it is over (the window measured ends 2 s after). */
  run(cluster: Cluster, streaming: () => string[]): Promise<void>;
}
const FAULTS: Fault[] = [
  {
    label: 'an instance killed',
    async run(cluster, streaming) {
      // The instance running a legacy stream being read (waited for, at most 2 s): where a kill hurts most.
      for (let waited = 0; streaming().length === 0 && waited < 2000; waited += 20) await pause(20);
      const victim = cluster.instances.find((instance) => instance.address === streaming()[0]) ?? cluster.instances[0]!;
      await victim.kill();
      await pause(2000);
      await victim.start();
    },
  },
  {
    label: 'Redis restarted',
    async run(cluster) {
      await cluster.stopRedis();
      await pause(1000);
      await cluster.startRedis();
    },
  },
];

interface Sample {
  readonly requests: number;
  readonly lost: number;
  /** Of {@link lost}, legacy requests (resumable: a lost one is a fault of the server). */
  readonly legacyLost: number;
  readonly refused: number;
  readonly errors: number;
  readonly p99: number;
  readonly steadyP99: number;
  readonly crashes: number;
  readonly violations: number;
}

const quantile = (xs: readonly number[], q: number): number => {
  if (xs.length === 0) return Number.NaN;
  const sorted = [...xs].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))]!;
};
const median = (xs: readonly number[]): number => quantile(xs, 0.5);
const latency = (r: LoadRecord): number => r.endedAt - r.startedAt;

/** One fault against one build, on a fresh cluster. */
async function measure(build: Build, fault: Fault): Promise<Sample> {
  const cluster = await startCluster({ instances: 3, ...(build.bin === undefined ? {} : { serverBin: build.bin }) });
  try {
    // Legacy calls stream for 2 s (10 progress events), so that a fault strikes several of them in flight.
    const load = startLoad(cluster.url, { legacy: 8, modern: 2, sse: 0, deadlineMs: DEADLINE_MS, steps: 10, durationMs: 2000 });
    let records: LoadRecord[] | undefined;
    let window: { from: number; to: number };
    let steadyFrom: number;
    try {
      // Warm-up: until both kinds of client were served (bounded), then 2 s of load before the fault (the requests
      // started then are measured too: those the fault strikes included).
      for (let waited = 0; waited < 10_000; waited += 50) {
        if (['legacy', 'modern'].every((kind) => load.records.some((r) => r.kind === kind && r.outcome === 'result'))) break;
        await pause(50);
      }
      steadyFrom = Date.now();
      await pause(2000);
      const from = Date.now();
      await fault.run(cluster, () => load.streaming());
      window = { from, to: Date.now() + 2000 };
      await pause(2000);
      records = await load.stop();
    } finally {
      records ??= await load.stop();
    }
    // In the window: every request running at some moment of it (those in flight when the fault struck included).
    const during = records.filter((r) => r.endedAt >= window.from && r.startedAt < window.to);
    const steady = records.filter((r) => r.startedAt >= steadyFrom && r.startedAt < window.from);
    const count = (outcome: LoadRecord['outcome'] | LoadRecord['outcome'][]): number =>
      during.filter((r) => ([] as string[]).concat(outcome).includes(r.outcome)).length;
    return {
      requests: during.length,
      lost: count(['broken', 'hung']),
      legacyLost: during.filter((r) => r.kind === 'legacy' && (r.outcome === 'broken' || r.outcome === 'hung')).length,
      refused: count('refused'),
      errors: count('rpc-error'),
      p99: quantile(during.map(latency), 0.99),
      steadyP99: quantile(steady.map(latency), 0.99),
      crashes: cluster.unexpectedExits().length,
      violations: load.violations.length,
    };
  } finally {
    await cluster.stop();
  }
}

const began = Date.now();
const startLoadAvg = loadavg()[0]!.toFixed(2);
const samples = new Map<string, Sample[]>();
for (let rep = 0; rep < REPS; rep += 1) {
  for (const fault of FAULTS) {
    const order = rep % 2 === 0 ? BUILDS : [...BUILDS].reverse();
    for (const build of order) {
      const sample = await measure(build, fault);
      const key = `${fault.label}|${build.label}`;
      samples.set(key, [...(samples.get(key) ?? []), sample]);
      say(
        `rep ${rep + 1}/${REPS} ${fault.label}, ${build.label}: ${sample.requests} requests, ${sample.lost} lost (${sample.legacyLost} legacy), ` +
          `${sample.refused} refused, ${sample.errors} errors, p99 ${sample.p99} ms (started before it ${sample.steadyP99} ms), ` +
          `${sample.crashes} crashes, ${sample.violations} violations`,
      );
    }
  }
}
const sum = (xs: readonly Sample[], field: keyof Sample): number => xs.reduce((total, s) => total + s[field], 0);
const lines = [
  `Cluster fault benchmark — ${new Date().toISOString()}, Node ${process.version}, ${cpus().length} CPUs, ${REPS} repetitions, ` +
    `${((Date.now() - began) / 1000).toFixed(0)} s, load average ${startLoadAvg} at start, ${loadavg()[0]!.toFixed(2)} at end (up ${Math.round(uptime())} s)`,
  `Command: npm run bench:cluster -- --faults --reps ${REPS}${values.before === undefined ? '' : ' --before <the build before>'}`,
  '',
  '| fault | build | requests in the window | lost (of them legacy) | refused | JSON-RPC errors | p99 in the window (ms, median of reps) | p99 of those started in the 2 s before it (ms) | MCP processes crashed | violations |',
  '| --- | --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |',
  ...FAULTS.flatMap((fault) =>
    BUILDS.map((build) => {
      const s = samples.get(`${fault.label}|${build.label}`) ?? [];
      return (
        `| ${fault.label} | ${build.label} | ${sum(s, 'requests')} | ${sum(s, 'lost')} (${sum(s, 'legacyLost')}) | ${sum(s, 'refused')} | ${sum(s, 'errors')} | ` +
        `${median(s.map((x) => x.p99)).toFixed(0)} | ${median(s.map((x) => x.steadyP99)).toFixed(0)} | ${sum(s, 'crashes')} | ${sum(s, 'violations')} |`
      );
    }),
  ),
  '',
  "Counts are totals over the repetitions; latencies are medians over them of each run's p99. A 2026-07-28 plain request",
  'in flight on a killed process is lost by design (the client sends it again); a legacy one can be resumed.',
];
process.stdout.write(`${lines.join('\n')}\n`);
