// `npm run bench -- ops`: what tracing, metrics and a rate limiter that never refuses cost a wiremcp server, and
// (`--against`) what the server costs with no middleware installed against a build from before middleware existed.
// Every row is the raw client driving one server variant in a driver process of its own (the stdio and HTTP benches'
// drivers), interleaved repetitions rotating the order, ratios computed within each repetition.
import { mkdirSync, writeFileSync } from 'node:fs';
import { cpus, loadavg, release, type } from 'node:os';
import { join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { againstName, againstScript } from '../http/http-bench.js';
import type { HttpJob } from '../http/http-plan.js';
import type { DriverJob } from '../job.js';
import { runDriver, runIsolated } from '../run-driver.js';
import { clockTicks, commandLine, gitCommit, PACKAGE_ROOT, pinnedCpu } from '../run-env.js';
import { rotate } from '../stats.js';
import {
  OPS_USAGE,
  opsComparisons,
  opsRows,
  opsWorkloads,
  parseOpsOptions,
  selectOpsRows,
  type OpsOptions,
  type OpsRow,
} from './ops-plan.js';
import { renderOpsMarkdown, summarizeOps, type OpsDriverResult, type OpsReport, type OpsRepetition } from './ops-report.js';

const HTTP_DRIVER = fileURLToPath(new URL('../http/http-driver.js', import.meta.url));
const STDIO_SERVER = fileURLToPath(new URL('./servers/ops-stdio.js', import.meta.url));
const HTTP_SERVER = fileURLToPath(new URL('./servers/ops-http.js', import.meta.url));
/** A driver that takes longer than this is killed with its server, and its repetition recorded as failed. */
const DRIVER_TIMEOUT_MS = 120_000;

/** The plain servers of another checkout, per transport, and its overhead bench's servers (`--against-variants`). */
interface Against {
  name: string;
  stdio: string;
  http: string;
  opsStdio: string;
  opsHttp: string;
}

function runRow(
  row: OpsRow,
  options: OpsOptions,
  against: Against | undefined,
  cpu: number | undefined,
  ticks: number,
): Promise<OpsDriverResult> {
  const before = row.variant === 'before';
  const isolated = { timeoutMs: DRIVER_TIMEOUT_MS, cpu };
  if (row.transport === 'stdio') {
    const job: DriverJob = {
      client: 'raw',
      server: 'wiremcp',
      era: row.era,
      workload: opsWorkloads(options.quick).stdio,
      cold: false,
      load: true,
      clockTicksPerSec: ticks,
      serverScript: before ? against!.stdio : row.before ? against!.opsStdio : STDIO_SERVER,
      serverArgs: before ? [] : [row.variant],
    };
    return runDriver(job, isolated);
  }
  const job: HttpJob = {
    client: 'raw',
    server: 'wiremcp',
    era: row.era,
    heap: false,
    workload: opsWorkloads(options.quick).http,
    clockTicksPerSec: ticks,
    serverScript: before ? against!.http : row.before ? against!.opsHttp : HTTP_SERVER,
    serverArgs: before ? [] : [row.variant],
  };
  return runIsolated<OpsDriverResult>(HTTP_DRIVER, [JSON.stringify(job)], isolated);
}

/** Runs the overhead bench with `argv` (after `ops`); resolves with the exit code (1 when a row failed). */
export async function runOpsBench(argv: readonly string[]): Promise<number> {
  const options = parseOpsOptions(argv);
  if (options.help) {
    process.stdout.write(`${OPS_USAGE}\n`);
    return 0;
  }
  const started = performance.now();
  const startLoad = loadavg();
  const against: Against | undefined =
    options.against === undefined
      ? undefined
      : {
          name: againstName(options.against),
          stdio: againstScript(options.against, 'apps/bench/dist/servers/wiremcp-server.js'),
          http: againstScript(options.against),
          opsStdio: options.againstVariants ? againstScript(options.against, 'apps/bench/dist/ops/servers/ops-stdio.js') : '',
          opsHttp: options.againstVariants ? againstScript(options.against, 'apps/bench/dist/ops/servers/ops-http.js') : '',
        };
  const rows = selectOpsRows(opsRows(against?.name, options.againstVariants), options.only);
  const comparisons = opsComparisons(rows);
  const repetitions = options.repetitions ?? (options.quick ? 3 : 5);
  const ticks = clockTicks();
  const cpu = pinnedCpu(options.pin, cpus().length);
  const outDir = resolve(options.out ?? join(PACKAGE_ROOT, options.only.length === 0 ? 'results' : 'out'));
  const baseName = options.only.length === 0 ? 'ops' : 'ops-partial';
  const log = (line: string): boolean => process.stderr.write(`${line}\n`);
  log(
    `bench ops: ${rows.length} rows × ${repetitions} repetitions${cpu === undefined ? ', not pinned' : `, each driver and its server on CPU ${cpu}`}`,
  );

  const records: OpsRepetition[] = [];
  for (let index = 0; index < repetitions; index++) {
    const order = rotate(rows, index);
    const record: OpsRepetition = { index, order: order.map((r) => r.id), loadAverage: loadavg(), results: {} };
    for (const row of order) {
      const t0 = performance.now();
      try {
        record.results[row.id] = await runRow(row, options, against, cpu, ticks);
        log(`  [${index + 1}/${repetitions}] ${row.id.padEnd(22)} ${((performance.now() - t0) / 1000).toFixed(1)} s`);
      } catch (error) {
        const message = error instanceof Error ? error.message : String(error);
        record.results[row.id] = { error: message };
        log(`  [${index + 1}/${repetitions}] ${row.id.padEnd(22)} FAILED: ${message.split('\n').slice(0, 6).join(' / ')}`);
      }
    }
    records.push(record);
  }

  const cpuInfo = cpus();
  const report: OpsReport = {
    meta: {
      date: new Date().toISOString(),
      command: commandLine(),
      wallTimeSec: (performance.now() - started) / 1000,
      node: process.versions.node,
      machine: `${type()} ${release()} · ${cpuInfo[0]?.model.trim() ?? 'unknown CPU'}, ${cpuInfo.length} cores`,
      pinnedCpu: cpu,
      loadAverage: { start: startLoad, end: loadavg() },
      gitCommit: gitCommit(),
      against: against?.name,
      repetitions,
      quick: options.quick,
    },
    rows,
    comparisons,
    summary: summarizeOps(rows, comparisons, records),
    repetitions: records,
  };
  mkdirSync(outDir, { recursive: true });
  const markdown = renderOpsMarkdown(report);
  writeFileSync(join(outDir, `${baseName}.md`), markdown);
  writeFileSync(join(outDir, `${baseName}.json`), JSON.stringify(report, null, 1) + '\n');
  process.stdout.write(`${markdown}\n`);
  log(`bench ops: wrote ${relative(process.cwd(), join(outDir, baseName))}.md and .json in ${Math.round(report.meta.wallTimeSec)} s`);
  return records.some((r) => Object.values(r.results).some((result) => 'error' in result)) ? 1 : 0;
}
