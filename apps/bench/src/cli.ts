#!/usr/bin/env node
// The one command of the bench: every implementation × every metric, interleaved repetitions, then the markdown
// table and the JSON. `npm run bench` (root) builds first and runs this; `--help` lists the options.
import { mkdirSync, writeFileSync } from 'node:fs';
import { cpus, loadavg, release, totalmem, type } from 'node:os';
import { join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { DriverJob } from './job.js';
import { checkTargets, METRICS, summarizeRun, type RepetitionRecord } from './metrics.js';
import { parseOptions, select, selectedMetrics, USAGE, type CliOptions } from './options.js';
import { FULL, QUICK, ROWS, type Row, type Workload } from './plan.js';
import { HTTP_NOT_MEASURED, renderMarkdown, type MicroResults, type RunReport } from './report.js';
import { runDriver, runIsolated } from './run-driver.js';
import { clockTicks, commandLine, gitCommit, PACKAGE_ROOT, packageVersion, pinnedCpu } from './run-env.js';
import { rotate } from './stats.js';

/** A driver that takes longer than this is killed (with its server) and its repetition recorded as failed. */
const DRIVER_TIMEOUT_MS = 120_000;

function job(row: Row, workload: Workload, parts: { cold: boolean; load: boolean }, clockTicksPerSec: number): DriverJob {
  return { client: row.client, server: row.server, era: row.era, workload, cold: parts.cold, load: parts.load, clockTicksPerSec };
}

function log(line: string): void {
  process.stderr.write(`${line}\n`);
}

async function main(options: CliOptions): Promise<number> {
  const started = performance.now();
  const startLoad = loadavg();
  const selection = select(ROWS, options.only);
  const workload = options.quick ? QUICK : FULL;
  const repetitions = options.repetitions ?? (options.quick ? 2 : 5);
  const ticks = clockTicks();
  const cpu = pinnedCpu(options.pin, cpus().length);
  const isolated = { timeoutMs: DRIVER_TIMEOUT_MS, cpu };
  const full = !options.quick && options.only.length === 0;
  // A full run is the one committed (results/, linked from the README); other runs go to out/ (git-ignored).
  const outDir = resolve(options.out ?? join(PACKAGE_ROOT, full ? 'results' : 'out'));
  const baseName = full ? 'latest' : 'partial';
  const { rows } = selection;
  const measured = selection.cold || selection.load;

  log(
    `bench: ${rows.length} implementations × ${repetitions} repetitions${options.quick ? ' (quick)' : ''}` +
      `${cpu === undefined ? ', not pinned' : `, each driver and its server on CPU ${cpu}`}; results → ${relative(process.cwd(), join(outDir, baseName))}.{md,json}`,
  );
  const records: RepetitionRecord[] = [];
  if (measured) {
    // Warm-up: every implementation once (one cold start, no load), discarded; it brings the files into the page
    // cache so that the first measured repetition does not pay for the disk.
    log('warm-up: one discarded start of every implementation');
    for (const row of rows) {
      await runDriver(job(row, { ...workload, coldStarts: 1 }, { cold: true, load: false }, ticks), isolated).catch((error: Error) =>
        log(`  warm-up ${row.id} failed: ${error.message.split('\n')[0]}`),
      );
    }
    for (let index = 0; index < repetitions; index++) {
      const order = rotate(rows, index);
      const record: RepetitionRecord = { index, order: order.map((r) => r.id), loadAverage: loadavg(), results: {} };
      const repStart = performance.now();
      for (const row of order) {
        const t0 = performance.now();
        try {
          record.results[row.id] = await runDriver(job(row, workload, selection, ticks), isolated);
          log(`  [${index + 1}/${repetitions}] ${row.id.padEnd(24)} ${((performance.now() - t0) / 1000).toFixed(1)} s`);
        } catch (error) {
          const message = error instanceof Error ? error.message : String(error);
          record.results[row.id] = { error: message };
          log(`  [${index + 1}/${repetitions}] ${row.id.padEnd(24)} FAILED: ${message.split('\n').slice(0, 6).join(' / ')}`);
        }
      }
      records.push(record);
      log(
        `repetition ${index + 1}/${repetitions} done in ${((performance.now() - repStart) / 1000).toFixed(0)} s (load average ${loadavg()
          .map((l) => l.toFixed(1))
          .join(' ')})`,
      );
    }
  }

  let micro: MicroResults | { error: string } | undefined;
  if (selection.micro) {
    log('micro-benchmarks');
    micro = await runIsolated<MicroResults>(fileURLToPath(new URL('./micro/run-micro.js', import.meta.url)), [], isolated).catch(
      (error: Error) => ({ error: error.message.split('\n')[0]! }),
    );
  }

  const rowIds = new Set(rows.map((r) => r.id));
  const cpuInfo = cpus();
  const report: RunReport = {
    meta: {
      date: new Date().toISOString(),
      command: commandLine(),
      wallTimeSec: (performance.now() - started) / 1000,
      node: process.versions.node,
      os: `${type()} ${release()}`,
      cpu: cpuInfo[0]?.model.trim() ?? 'unknown CPU',
      cores: cpuInfo.length,
      pinnedCpu: cpu,
      memoryGb: Math.round(totalmem() / 1024 ** 3),
      loadAverage: { start: startLoad, end: loadavg() },
      gitCommit: gitCommit(),
      repetitions,
      quick: options.quick,
      only: options.only,
      workload,
      packages: Object.fromEntries(
        ['@modelcontextprotocol/sdk', '@modelcontextprotocol/server', '@modelcontextprotocol/client', 'zod'].map((name) => [
          name,
          packageVersion(name),
        ]),
      ),
    },
    rows: [...rows],
    metrics: (measured ? selectedMetrics(selection) : []).map(({ key, label, unit, better }) => ({ key, label, unit, better })),
    summary: measured ? summarizeRun(rows, records) : {},
    targets: measured ? checkTargets(records, rowIds) : [],
    micro,
    http: HTTP_NOT_MEASURED,
    repetitions: records,
  };
  // Metrics that were not selected are left out of the summary rather than shown as empty.
  for (const metric of METRICS) if (!report.metrics.some((m) => m.key === metric.key)) delete report.summary[metric.key];

  mkdirSync(outDir, { recursive: true });
  const markdown = renderMarkdown(report);
  writeFileSync(join(outDir, `${baseName}.md`), markdown);
  writeFileSync(join(outDir, `${baseName}.json`), JSON.stringify(report, null, 1) + '\n');
  process.stdout.write(`${markdown}\n`);
  log(`bench: wrote ${relative(process.cwd(), join(outDir, baseName))}.md and .json in ${Math.round(report.meta.wallTimeSec)} s`);
  const failed = records.some((record) => Object.values(record.results).some((result) => 'error' in result));
  return failed || (micro !== undefined && 'error' in micro) ? 1 : 0;
}

let options: CliOptions;
if (process.argv[2] === 'http') {
  // Streamable HTTP side by side (src/http/).
  const { runHttpBench } = await import('./http/http-bench.js');
  process.exitCode = await runHttpBench(process.argv.slice(3)).catch((error: unknown) => {
    process.stderr.write(`bench http: ${error instanceof Error ? error.message : String(error)}\n`);
    return 2;
  });
  process.exit();
}
if (process.argv[2] === 'ops') {
  // What tracing, metrics, a rate limiter and middleware cost (src/ops/).
  const { runOpsBench } = await import('./ops/ops-bench.js');
  process.exitCode = await runOpsBench(process.argv.slice(3)).catch((error: unknown) => {
    process.stderr.write(`bench ops: ${error instanceof Error ? error.message : String(error)}\n`);
    return 2;
  });
  process.exit();
}
if (process.argv[2] === 'filesystem') {
  // A benchmark of its own: the filesystem server beside the official one (src/filesystem/).
  const { runFilesystemBench } = await import('./filesystem/fs-bench.js');
  process.exitCode = await runFilesystemBench(process.argv.slice(3)).catch((error: unknown) => {
    process.stderr.write(`bench filesystem: ${error instanceof Error ? error.message : String(error)}\n`);
    return 2;
  });
  process.exit();
}
try {
  options = parseOptions(process.argv.slice(2));
} catch (error) {
  process.stderr.write(`bench: ${(error as Error).message}\n\n${USAGE}\n`);
  process.exit(2);
}
if (options.help) {
  process.stdout.write(`${USAGE}\n`);
} else {
  try {
    process.exitCode = await main(options);
  } catch (error) {
    process.stderr.write(`bench: ${error instanceof Error ? error.message : String(error)}\n`);
    process.exitCode = 2;
  }
}
