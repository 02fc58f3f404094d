// Latency of two HTTP bench servers side by side, for percentiles the bench's short phases cannot resolve: both
// servers run at once, blocks of calls alternate between them (A B, B A, …) with the bench's raw client, and each
// server's round-trip times are pooled over all its blocks. A stall of the machine (another process, the hypervisor)
// lands in one block of one server at a time, so over many alternating blocks both servers see the same share of
// them; the bench's sequential phase is one 0.6 s stretch per row and repetition, where one stall moves a p99.
//
//   node apps/bench/scripts/http-latency-ab.mjs <serverA.js> <serverB.js> [--era 2025|2026] [--tool echo|conjugate]
//        [--lanes 1] [--blocks 40] [--calls 500] [--pin-server 1]
//
// --lanes 1 is the bench's sequential phase (one call at a time); --lanes 32 measures latency under the
// 32-concurrent load (each lane a keep-alive socket, calls back to back). Each server is warmed as the bench warms a
// row (200 sequential calls, then 2 s of 32-concurrent calls, per tool) before the first block. Prints JSON: per
// server the pooled p50, p90, p99 and p99.9 in µs, the ratios A/B, and the median of the per-block ratios of p50 and
// p99 with the share of blocks where A was slower; percentiles and medians as the bench computes them (apps/bench's
// stats: linear interpolation between the nearest ranks). Build apps/bench first (it uses apps/bench/dist's client and
// servers). Pin both the servers and this process to one CPU as the bench does:
//   taskset -c 1 node apps/bench/scripts/http-latency-ab.mjs apps/bench/dist/http/servers/wiremcp-http.js \
//     apps/bench/dist/http/servers/baseline-http.js --pin-server 1
import { parseArgs } from 'node:util';
import { HttpBenchClient } from '../dist/http/http-client.js';
import { median, percentileSorted as percentile } from '../dist/stats.js';
import { startServer } from './start-server.mjs';

const { values, positionals } = parseArgs({
  allowPositionals: true,
  options: {
    era: { type: 'string', default: '2026' },
    tool: { type: 'string', default: 'echo' },
    lanes: { type: 'string', default: '1' },
    blocks: { type: 'string', default: '40' },
    calls: { type: 'string', default: '500' },
    'pin-server': { type: 'string' },
  },
});
const lanes = Number(values.lanes);
const blocks = Number(values.blocks);
const callsPerBlock = Number(values.calls);
if (
  positionals.length !== 2 ||
  !['2025', '2026'].includes(values.era) ||
  !['echo', 'conjugate'].includes(values.tool) ||
  ![lanes, blocks, callsPerBlock].every((n) => Number.isInteger(n) && n > 0)
) {
  console.error(
    'usage: http-latency-ab.mjs <serverA.js> <serverB.js> [--era 2025|2026] [--tool echo|conjugate] [--lanes N] [--blocks N] [--calls N] [--pin-server CPU]',
  );
  process.exit(2);
}
const era = values.era === '2025' ? 'legacy' : 'modern';
const TOOLS = ['echo', 'conjugate'];

async function start(script) {
  const { child, port } = await startServer(script, { pin: values['pin-server'] });
  return { child, client: new HttpBenchClient(new URL(`http://127.0.0.1:${port}/mcp`), era, 32), sessions: [] };
}

/** `count` calls per lane on `lanes` lanes (each lane its own session in the legacy era), round trips into `times`. */
async function run(server, tool, laneCount, count, times) {
  await Promise.all(
    Array.from({ length: laneCount }, async (_, lane) => {
      for (let i = 0; i < count; i++) {
        const t0 = performance.now();
        await server.client.call(tool, i, server.sessions[lane]);
        times?.push((performance.now() - t0) * 1000);
      }
    }),
  );
}

async function warm(server) {
  for (let lane = 0; lane < 32; lane++) server.sessions.push(era === 'legacy' ? await server.client.openSession() : undefined);
  for (const tool of TOOLS) {
    await run(server, tool, 1, 200);
    const end = performance.now() + 2000;
    await Promise.all(
      server.sessions.map(async (session) => {
        for (let i = 0; performance.now() < end; i++) await server.client.call(tool, i, session);
      }),
    );
  }
}

const round = (x, digits = 1) => Number(x.toFixed(digits));

const servers = [];
try {
  for (const script of positionals) servers.push(await start(script));
  for (const server of servers) await warm(server);
  const pooled = [[], []];
  const perBlock = [[], []];
  const perLane = Math.max(1, Math.round(callsPerBlock / lanes));
  for (let k = 0; k < blocks; k++) {
    for (const i of k % 2 === 0 ? [0, 1] : [1, 0]) {
      const times = [];
      await run(servers[i], values.tool, lanes, perLane, times);
      times.sort((x, y) => x - y);
      perBlock[i].push({ p50: percentile(times, 50), p99: percentile(times, 99) });
      pooled[i].push(...times);
    }
  }
  const summary = pooled.map((times) => {
    times.sort((x, y) => x - y);
    return {
      calls: times.length,
      p50: round(percentile(times, 50)),
      p90: round(percentile(times, 90)),
      p99: round(percentile(times, 99)),
      p999: round(percentile(times, 99.9)),
    };
  });
  const blockRatio = (key) => perBlock[0].map((a, k) => a[key] / perBlock[1][k][key]);
  console.log(
    JSON.stringify({
      era: values.era,
      tool: values.tool,
      lanes,
      blocks,
      callsPerBlock: perLane * lanes,
      a: { script: positionals[0], ...summary[0] },
      b: { script: positionals[1], ...summary[1] },
      ratioAB: {
        p50: round(summary[0].p50 / summary[1].p50, 3),
        p90: round(summary[0].p90 / summary[1].p90, 3),
        p99: round(summary[0].p99 / summary[1].p99, 3),
        p999: round(summary[0].p999 / summary[1].p999, 3),
      },
      perBlock: {
        p50Median: round(median(blockRatio('p50')), 3),
        p99Median: round(median(blockRatio('p99')), 3),
        aSlowerP50: `${blockRatio('p50').filter((r) => r > 1).length}/${blocks}`,
        aSlowerP99: `${blockRatio('p99').filter((r) => r > 1).length}/${blocks}`,
      },
    }),
  );
} finally {
  for (const server of servers) {
    server.client.close();
    server.child.kill('SIGTERM');
  }
}
