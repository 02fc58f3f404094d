// Two stdio bench servers side by side, for a difference too small for the bench's per-row repetitions to resolve
// (the ops bench's stdio rows spread ±30–80% run to run on a shared machine): both servers are started once and
// stay up, and short blocks of pipelined `tools/call` alternate between them (A B, B A, …), for `echo` and then for
// `conjugate`. Each block gives the server's CPU per call (all its threads, /proc/<pid>/task/*/schedstat, ns
// resolution) and its calls/s; the ratio B ÷ A is taken within each block pair, so drift in the machine's load hits
// both servers alike. The result per tool is the median of the per-pair ratios, a distribution-free 95% interval
// for that median (order statistics of the binomial), and the range.
//
//   node apps/bench/scripts/stdio-block-ab.mjs <serverA.js> <serverB.js> [--era 2025|2026] [--blocks 40]
//        [--calls 20000] [--in-flight 64] [--server-args "rate-limit"] [--args-a "off"] [--args-b "tracing"]
//        [--node-args="--cpu-prof --cpu-prof-dir=/tmp/p"]
//
// With --node-args each server gets up to 60 s after its stdin ends to exit by itself (and write its profile) before
// it is signalled; `node apps/bench/dist/profile-summary.js <file>` sums a profile by function.
//
// A server is a bench stdio server script of a built checkout (apps/bench/dist/servers/wiremcp-server.js, or the
// overhead bench's apps/bench/dist/ops/servers/ops-stdio.js, which takes its variant as argument: off, tracing,
// metrics, rate-limit). `--server-args` reach both scripts; `--args-a` / `--args-b` one side only (one script given
// twice with `--args-a off --args-b tracing` measures a feature inside one build). The client is this checkout's
// raw bench client (its dist must be built), the same for both sides; every answer is checked. Linux only. Wrap the
// run in `taskset -c 1` to keep the client and both servers on one CPU, as the bench pins its pairs.
import { loadavg } from 'node:os';
import { parseArgs } from 'node:util';
import { openRawSession } from '../dist/clients/raw-client.js';
import { pipelined } from '../dist/driver.js';
import { processCpuPreciseMs } from '../dist/proc-stats.js';

const { values, positionals } = parseArgs({
  allowPositionals: true,
  options: {
    era: { type: 'string', default: '2026' },
    blocks: { type: 'string', default: '40' },
    calls: { type: 'string', default: '20000' },
    'in-flight': { type: 'string', default: '64' },
    'node-args': { type: 'string', default: '' },
    'server-args': { type: 'string', default: '' },
    'args-a': { type: 'string', default: '' },
    'args-b': { type: 'string', default: '' },
  },
});
const blocks = Number(values.blocks);
const calls = Number(values.calls);
const inFlight = Number(values['in-flight']);
if (
  positionals.length !== 2 ||
  !['2025', '2026'].includes(values.era) ||
  ![blocks, calls, inFlight].every((n) => Number.isInteger(n) && n > 0)
) {
  console.error('usage: stdio-block-ab.mjs <serverA.js> <serverB.js> [--era 2025|2026] [--blocks N] [--calls N] [--in-flight N]');
  process.exit(2);
}
const words = (text) => text.split(' ').filter((a) => a !== '');
const nodeArgs = words(values['node-args']);
const serverArgs = words(values['server-args']);
const sideArgs = [words(values['args-a']), words(values['args-b'])];
const era = values.era === '2025' ? 'legacy' : 'modern';
const TOOLS = ['echo', 'conjugate'];
// The phase ends at `calls` answers; the time limit only guards a server that stops answering.
const BLOCK_LIMIT_MS = 120_000;

/** One block of `calls` pipelined calls of `tool`: server CPU µs per call and calls/s. */
async function block(session, tool) {
  const before = processCpuPreciseMs(session.serverPid);
  const phase = await pipelined(session, tool, inFlight, BLOCK_LIMIT_MS, calls, { clockTicksPerSec: 100 });
  const after = processCpuPreciseMs(session.serverPid);
  if (before === undefined || after === undefined) throw new Error('cannot read the server CPU time from /proc');
  if (phase.calls !== calls) throw new Error(`${tool}: ${phase.calls} of ${calls} calls answered in ${BLOCK_LIMIT_MS} ms`);
  return { cpuUs: ((after - before) * 1000) / calls, callsPerSec: phase.callsPerSec };
}

const sorted = (list) => [...list].sort((x, y) => x - y);
const median = (list) => {
  const s = sorted(list);
  const mid = Math.floor(s.length / 2);
  return s.length % 2 === 1 ? s[mid] : (s[mid - 1] + s[mid]) / 2;
};

/**
 * A distribution-free 95% confidence interval for the median of `list`: [x(k), x(n-k+1)] for the largest k with
 * 2·P(Binomial(n, ½) ≤ k-1) ≤ 0.05. Undefined below 6 values (no such k).
 */
function medianInterval(list) {
  const s = sorted(list);
  const n = s.length;
  let cumulative = 0;
  let term = 0.5 ** n; // P(X = 0)
  let k = 0;
  for (let j = 0; j < n; j++) {
    cumulative += term;
    if (2 * cumulative > 0.05) break;
    k = j + 1;
    term = (term * (n - j)) / (j + 1);
  }
  return k === 0 ? undefined : [s[k - 1], s[n - k]];
}

const round = (x, digits) => Number(x.toFixed(digits));
function summary(ratios) {
  const interval = medianInterval(ratios);
  const s = sorted(ratios);
  return {
    median: round(median(ratios), 4),
    ci95: interval?.map((x) => round(x, 4)),
    range: [round(s[0], 3), round(s.at(-1), 3)],
    below1: ratios.filter((r) => r < 1).length,
  };
}

const loadStart = loadavg();
const started = new Date();
const sessions = [];
try {
  for (let side = 0; side < 2; side++) {
    const args = [...nodeArgs, positionals[side], ...serverArgs, ...sideArgs[side]];
    sessions.push(await openRawSession({ command: process.execPath, args }, era));
  }
  for (const session of sessions) await session.listTools();
  // Warm-up, discarded: two blocks of each tool on each server (JIT, the servers' buffers and caches).
  for (const tool of TOOLS) for (const session of sessions) for (let i = 0; i < 2; i++) await block(session, tool);
  const per = Object.fromEntries(TOOLS.map((tool) => [tool, { a: [], b: [] }]));
  for (let k = 0; k < blocks; k++) {
    const order = k % 2 === 0 ? [0, 1] : [1, 0];
    for (const tool of TOOLS) {
      const pair = [];
      for (const side of order) pair[side] = await block(sessions[side], tool);
      per[tool].a.push(pair[0]);
      per[tool].b.push(pair[1]);
    }
  }
  const result = {
    started: started.toISOString(),
    wallSec: round((Date.now() - started.getTime()) / 1000, 1),
    node: process.versions.node,
    era: values.era === '2025' ? '2025-11-25' : '2026-07-28',
    a: [positionals[0], ...serverArgs, ...sideArgs[0]].join(' '),
    b: [positionals[1], ...serverArgs, ...sideArgs[1]].join(' '),
    blocks,
    callsPerBlock: calls,
    inFlight,
    loadAverage: { start: loadStart.map((x) => round(x, 2)), end: loadavg().map((x) => round(x, 2)) },
    tools: {},
  };
  for (const tool of TOOLS) {
    const { a, b } = per[tool];
    result.tools[tool] = {
      serverCpuUsPerCallA: round(median(a.map((x) => x.cpuUs)), 2),
      serverCpuUsPerCallB: round(median(b.map((x) => x.cpuUs)), 2),
      callsPerSecA: Math.round(median(a.map((x) => x.callsPerSec))),
      callsPerSecB: Math.round(median(b.map((x) => x.callsPerSec))),
      // B ÷ A per block pair: CPU above 1 costs B more; calls/s below 1 is B slower (below1: pairs with a ratio < 1).
      cpuRatioBA: summary(b.map((x, i) => x.cpuUs / a[i].cpuUs)),
      callsPerSecRatioBA: summary(b.map((x, i) => x.callsPerSec / a[i].callsPerSec)),
    };
  }
  console.log(JSON.stringify(result));
  for (const [tool, t] of Object.entries(result.tools)) {
    const show = (r) => `${r.median} (95% CI ${r.ci95?.join('–') ?? '—'}, range ${r.range.join('–')}, ${r.below1}/${blocks} below 1)`;
    console.error(`${tool}: server CPU µs/call A ${t.serverCpuUsPerCallA}, B ${t.serverCpuUsPerCallB}, B ÷ A ${show(t.cpuRatioBA)}`);
    console.error(`${tool}: calls/s A ${t.callsPerSecA}, B ${t.callsPerSecB}, B ÷ A ${show(t.callsPerSecRatioBA)}`);
  }
  console.error(`load average ${result.loadAverage.start.join(' ')} → ${result.loadAverage.end.join(' ')}, ${result.wallSec} s`);
} finally {
  // A server given --node-args (a CPU or heap profile) writes its file when it exits by itself after stdin ends:
  // wait up to a minute for that rather than the 2 s after which it would be killed and the profile lost.
  await Promise.all(sessions.map((session) => session.close(nodeArgs.length > 0 ? 60_000 : undefined)));
}
