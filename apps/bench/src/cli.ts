#!/usr/bin/env node
// The one command of the bench: every implementation × every metric, interleaved repetitions, then the markdown
// table and the JSON. `npm run bench` (root) builds first and runs this; `--help` lists the options.
import { execFileSync } from 'node:child_process';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { cpus, loadavg, release, totalmem, type } from 'node:os';
import { join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { DriverJob } from './job.js';
import { checkTargets, METRICS, summarizeRun, type RepetitionRecord } from './metrics.js';
import { parseOptions, select, selectedMetrics, USAGE, type CliOptions } from './options.js';
import { FULL, QUICK, ROWS, type Row, type Workload } from './plan.js';
import { HTTP_NOT_MEASURED, renderMarkdown, type MicroResults, type RunReport } from './report.js';
import { runDriver, runIsolated } from './run-driver.js';
import { rotate } from './stats.js';

const PACKAGE_ROOT = fileURLToPath(new URL('..', import.meta.url));
const REPO_ROOT = resolve(PACKAGE_ROOT, '../..');
/** A driver that takes longer than this is killed (with its server) and its repetition recorded as failed. */
const DRIVER_TIMEOUT_MS = 120_000;

function clockTicks(): number {
  try {
    const ticks = Number(execFileSync('getconf', ['CLK_TCK'], { encoding: 'utf8' }).trim());
    return Number.isFinite(ticks) && ticks > 0 ? ticks : 100;
  } catch {
    return 100;
  }
}

/**
 * The CPU that drivers and their servers share, or undefined (not pinned). On the bench VM two processes on different
 * vCPUs pay the hypervisor's wake-up latency on every message: sequential round trips were ~10 or ~20 µs depending
 * on where the scheduler happened to put the pair, which made per-repetition latency ratios bimodal. On one CPU they
 * measure the software. Needs Linux `taskset`; `--no-pin` turns it off.
 */
function pinnedCpu(options: CliOptions, cores: number): number | undefined {
  if (!options.pin || process.platform !== 'linux') return undefined;
  try {
    execFileSync('taskset', ['-c', String(cores - 1), 'true'], { stdio: 'ignore' });
    return cores - 1;
  } catch {
    return undefined;
  }
}

function gitCommit(): string | undefined {
  try {
    const commit = execFileSync('git', ['rev-parse', '--short', 'HEAD'], { cwd: REPO_ROOT, encoding: 'utf8' }).trim();
    const dirty = execFileSync('git', ['status', '--porcelain', '--untracked-files=no', '--', 'packages'], {
      cwd: REPO_ROOT,
      encoding: 'utf8',
    }).trim();
    return dirty === '' ? commit : `${commit} (packages/ with uncommitted changes)`;
  } catch {
    return undefined;
  }
}

function packageVersion(name: string): string {
  try {
    const manifest = join(PACKAGE_ROOT, 'node_modules', ...name.split('/'), 'package.json');
    return (JSON.parse(readFileSync(manifest, 'utf8')) as { version: string }).version;
  } catch {
    return '?';
  }
}

function job(row: Row, workload: Workload, parts: { cold: boolean; load: boolean }, clockTicksPerSec: number): DriverJob {
  return { client: row.client, server: row.server, era: row.era, workload, cold: parts.cold, load: parts.load, clockTicksPerSec };
}

/** The command as typed: `npm run bench -- …` when run through the root script (npm sets the lifecycle event). */
function commandLine(): string {
  const args = process.argv.slice(2).join(' ');
  if (process.env.npm_lifecycle_event === 'bench') return `npm run bench${args === '' ? '' : ` -- ${args}`}`;
  return `node ${relative(REPO_ROOT, process.argv[1] ?? 'apps/bench/dist/cli.js')}${args === '' ? '' : ` ${args}`}`;
}

function log(line: string): void {
  process.stderr.write(`${line}\n`);
}

async function main(options: CliOptions): Promise<number> {
  const started = performance.now();
  const startLoad = loadavg();
  const selection = select(ROWS, options.only);
  const workload = options.quick ? QUICK : FULL;
  const repetitions = options.repetitions ?? (options.quick ? 2 : 7);
  const ticks = clockTicks();
  const cpu = pinnedCpu(options, cpus().length);
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
