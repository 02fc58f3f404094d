// The stdio writer's `writeBatchBytes`, measured: the wiremcp pair (client and server both wiremcp) pipelined with
// 64 calls in flight, one write per turn (the default) against 2 KiB batches written as they fill, with the client
// and its server on one CPU (as the main bench runs them) and free to use two. Every measurement is a process of its
// own (pinned with `taskset` for one CPU), interleaved over the repetitions; the table gives medians and the ratio
// of medians to the default's on the same placement.
//   node apps/bench/dist/write-batches.js [--reps 5] [--calls 150000] [--era legacy|modern] [--tool echo|conjugate]
import { execFileSync, spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { openWiremcpSession } from './clients/wiremcp-client.js';
import { pipelined } from './driver.js';
import { clockTicks } from './run-env.js';
import { median } from './stats.js';
import type { ToolName } from './workload.js';
import type { Era } from './wire.js';

const IN_FLIGHT = 64;
const BATCH = 2048;
/** Upper bound of each phase (the warm-up and the measured calls), whatever `--calls` asks. */
const PHASE_MAX_MS = 60_000;

interface Measured {
  callsPerSec: number;
  clientUs: number;
  serverUs: number;
}

/** One measurement, in this process: a session, a warm-up, then `calls` pipelined calls (the main bench's phase). */
async function measure(era: Era, tool: ToolName, calls: number, batch: number | undefined): Promise<Measured> {
  const server = fileURLToPath(new URL('./servers/wiremcp-server.js', import.meta.url));
  if (batch !== undefined) process.env.BENCH_WRITE_BATCH_BYTES = String(batch);
  const session = await openWiremcpSession({ command: process.execPath, args: [server] }, era, batch);
  try {
    await session.listTools();
    const job = { clockTicksPerSec: clockTicks() };
    await pipelined(session, tool, IN_FLIGHT, PHASE_MAX_MS, Math.ceil(calls / 5), job);
    const phase = await pipelined(session, tool, IN_FLIGHT, PHASE_MAX_MS, calls, job);
    if (phase.serverCpuUsPerCall === undefined) throw new Error('cannot read the server CPU time');
    return { callsPerSec: phase.callsPerSec, clientUs: phase.clientCpuUsPerCall, serverUs: phase.serverCpuUsPerCall };
  } finally {
    await session.close();
  }
}

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: {
      reps: { type: 'string', default: '5' },
      calls: { type: 'string', default: '150000' },
      era: { type: 'string', default: 'legacy' },
      tool: { type: 'string', default: 'echo' },
      measure: { type: 'string' },
    },
  });
  const era = values.era as Era;
  const tool = values.tool as ToolName;
  const calls = Number(values.calls);
  if (values.measure !== undefined) {
    const batch = values.measure === 'default' ? undefined : Number(values.measure);
    process.stdout.write(JSON.stringify(await measure(era, tool, calls, batch)) + '\n');
    return;
  }
  execFileSync('taskset', ['-V']); // Linux, util-linux: fails clearly where pinning is not possible
  const placements = [
    { name: 'one CPU (pinned)', prefix: ['taskset', '-c', '1'] },
    { name: 'two CPUs (not pinned)', prefix: [] as string[] },
  ];
  const batches = ['default', String(BATCH)];
  const results = new Map<string, Measured[]>();
  const reps = Number(values.reps);
  const self = fileURLToPath(import.meta.url);
  for (let rep = 0; rep < reps; rep++) {
    for (const placement of placements) {
      for (const batch of batches) {
        const args = [
          ...placement.prefix,
          process.execPath,
          self,
          '--measure',
          batch,
          '--era',
          era,
          '--tool',
          tool,
          '--calls',
          String(calls),
        ];
        const child = spawnSync(args[0]!, args.slice(1), { encoding: 'utf8', stdio: ['ignore', 'pipe', 'inherit'], timeout: 300_000 });
        if (child.status !== 0) throw new Error(`a measurement failed (${placement.name}, ${batch}): exit ${String(child.status)}`);
        const key = `${placement.name}|${batch}`;
        results.set(key, [...(results.get(key) ?? []), JSON.parse(child.stdout) as Measured]);
      }
    }
  }
  const lines = [
    `write batches: wiremcp → wiremcp, ${era} ${tool}, ${IN_FLIGHT} calls in flight, ${calls} calls per measurement, ${reps} repetitions (medians)`,
    '',
    '| placement | writeBatchBytes | calls/s | client CPU µs/call | server CPU µs/call |',
    '| --- | --- | ---: | ---: | ---: |',
  ];
  for (const placement of placements) {
    const base = results.get(`${placement.name}|default`)!;
    for (const batch of batches) {
      const rows = results.get(`${placement.name}|${batch}`)!;
      const cell = (pick: (m: Measured) => number, digits: number): string => {
        const value = median(rows.map(pick));
        const ratio = value / median(base.map(pick));
        return `${value.toFixed(digits)} (${ratio.toFixed(2)}×)`;
      };
      lines.push(
        `| ${placement.name} | ${batch === 'default' ? 'default (one write per turn)' : batch} | ${cell((m) => m.callsPerSec, 0)} | ${cell((m) => m.clientUs, 2)} | ${cell((m) => m.serverUs, 2)} |`,
      );
    }
  }
  process.stdout.write(lines.join('\n') + '\n');
}

await main();
