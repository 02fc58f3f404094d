/**
 * One run of the app, from options to exit code: load scenarios, pick the targets, start each once (warm-up)
 * and probe third-party ones, plan the matrix, run the cells in parallel on shared or fresh server processes,
 * apply the baseline, print the summary, write the reports.
 */
import { existsSync } from 'node:fs';
import { resolve } from 'node:path';
import { PROTOCOL_VERSIONS, type ProtocolVersion } from '@wiremcp/protocol';
import { UsageError, type CliOptions } from './cli-options.js';
import type { Host } from './hosts/host.js';
import { HttpHost } from './hosts/http-host.js';
import { StdioHost } from './hosts/stdio-host.js';
import { DEFAULT_BASELINE, DEFAULT_OUT_DIR, SCENARIOS_DIR } from './paths.js';
import { applyBaseline, entryCovers, loadBaseline, type BaselineEntry, type WrittenFor } from './report/baseline.js';
import { formatCellList } from './report/list-cells.js';
import { officialResultsFor } from './official/include.js';
import type { OfficialSuiteResults } from './report/official-suite.js';
import { formatDuration, Progress } from './report/progress.js';
import { countByStatus, type EventSink } from './report/run-events.js';
import { formatRuntimeRows, runtimeRows } from './report/runtimes.js';
import { buildReport, type ReportTarget, type RunReport } from './report/run-report.js';
import { exitCodeOf, formatSummary, testedCount } from './report/summary.js';
import { writeReports } from './report/write-reports.js';
import { planMatrix, scenarioSelected } from './runner/plan.js';
import { prepareTargets, type PreparedTargets } from './runner/prepare-targets.js';
import type { Cell } from './runner/cell-types.js';
import { runCell } from './runner/run-cell.js';
import { hostKey, runMatrix } from './runner/schedule.js';
import { loadScenarios } from './scenario/load-scenarios.js';
import type { Scenario } from './scenario/scenario-types.js';
import { formatProblem } from './scenario/yaml-file.js';
import { chooseTargets } from './targets/choose-targets.js';
import { warmNpx } from './targets/npx.js';
import type { RegistryServer } from './targets/registry.js';
import type { Target } from './targets/target.js';

/** Where the run writes its text (the CLI passes stdout/stderr; tests pass buffers). */
export interface RunIo {
  readonly out: NodeJS.WritableStream & { isTTY?: boolean; columns?: number };
  readonly err: NodeJS.WritableStream & { isTTY?: boolean; columns?: number };
  /** The run's events (`--events`), as they happen. */
  readonly events?: EventSink;
}

/** The outcome of a run: the exit code and, unless listing, the report. */
export interface RunOutcome {
  readonly exitCode: number;
  readonly report?: RunReport;
}

/** A `--scenario` glob that selects no scenario is a mistake, not an empty run. */
function checkScenarioFilter(scenarios: readonly Scenario[], globs: readonly string[]): void {
  const unmatched = globs.filter((glob) => !scenarios.some((scenario) => scenarioSelected(scenario, [glob])));
  if (unmatched.length > 0) {
    throw new UsageError(
      `--scenario ${unmatched.map((glob) => `'${glob}'`).join(', ')} matches no scenario (ids, area/id or areas; * is a wildcard)`,
    );
  }
}

function createHosts(targets: readonly Target[], options: CliOptions): Map<string, Host> {
  const hosts = new Map<string, Host>();
  for (const target of targets) {
    for (const transport of target.transports) {
      const key = hostKey({ target, transport });
      if (transport.kind === 'stdio') hosts.set(key, new StdioHost(transport, { checkTimeoutMs: Math.round(5000 * options.timeoutScale) }));
      else hosts.set(key, new HttpHost(transport, { startupTimeoutMs: options.startupTimeoutMs }));
    }
  }
  return hosts;
}

function reportTargets(prepared: PreparedTargets): ReportTarget[] {
  return prepared.targets.map((target) => {
    const error = prepared.errors.get(target.id)?.get('*');
    const warmUp = prepared.warmUps.get(target.id);
    return {
      id: target.id,
      title: target.title,
      origin: target.origin,
      transports: target.transports.map((transport) => transport.id),
      status: target.unavailable !== undefined ? 'unavailable' : error !== undefined ? 'error' : 'ready',
      ...(target.unavailable ? { unavailable: target.unavailable } : {}),
      ...(error ? { error } : {}),
      ...(target.knownAs ? { knownAs: target.knownAs } : {}),
      ...(target.resembles ? { resembles: target.resembles } : {}),
      ...(warmUp ? { warmUp } : {}),
    };
  });
}

/** Runs the conformance app with parsed options; never calls `process.exit`. */
/**
 * An entry was written for the server it names, over that server's registry transports and revisions: a server
 * given another name with `--name <registry id>` and run over another wire is not what it was written for.
 */
function writtenFor(registry: readonly RegistryServer[]): WrittenFor {
  return (entry, result) => {
    if (result.knownAs === undefined || entry.server !== result.knownAs) return true;
    const target = registry.find((server) => server.target.id === entry.server)?.target;
    if (target === undefined) return true;
    return target.revisions.includes(result.revision) && target.transports.some((transport) => transport.id === result.transport);
  };
}

/**
 * A stdio server whose warm-up answered after W ms counts as started when a fresh process of it has been silent for
 * max(10 s, 5 W): it is running, and silent only because it drops what it was sent first.
 */
function silentStartMs(prepared: PreparedTargets, cell: Cell, timeoutScale: number): number | undefined {
  const ms = prepared.warmUps.get(cell.target.id)?.ms;
  if (cell.transport.kind !== 'stdio' || ms === undefined) return undefined;
  return Math.max(10_000 * timeoutScale, 5 * ms);
}

function formatElsewhere(entries: readonly BaselineEntry[]): string {
  const lines = ['', 'Baseline entries that did not hold on a wire they were not written for (reported; they do not fail the run):'];
  for (const entry of entries) lines.push(`  ~ ${entry.scenario} · ${entry.server} — ${entry.reason}`);
  return lines.join('\n');
}

export async function runConformance(
  options: CliOptions,
  io: RunIo,
  argv: readonly string[] = [],
  signal?: AbortSignal,
): Promise<RunOutcome> {
  const startedAt = new Date();
  const { scenarios, errors } = loadScenarios(options.scenariosDir ? resolve(options.scenariosDir) : SCENARIOS_DIR);
  for (const error of errors) for (const problem of error.problems) io.err.write(`scenario error: ${formatProblem(error.file, problem)}\n`);
  checkScenarioFilter(scenarios, options.scenarios);
  const chosen = chooseTargets(options);
  const registry = chosen.registry;
  const revisions = (options.revisions.length > 0 ? options.revisions : PROTOCOL_VERSIONS) as ProtocolVersion[];
  // The baseline and the official results are read before anything starts, so that a broken file stops the run early.
  const baselineFile = options.noBaseline ? undefined : resolve(options.baseline ?? DEFAULT_BASELINE);
  const entries: BaselineEntry[] =
    baselineFile !== undefined && (options.baseline !== undefined || existsSync(baselineFile)) ? loadBaseline(baselineFile) : [];
  const log = (line: string): void => void io.err.write(`${line}\n`);
  const official: OfficialSuiteResults | undefined = await officialResultsFor(options, log);
  // An `npx -y <package>` server is installed once here and its bin started directly from then on.
  const targets = await warmNpx(chosen.targets, options.startupTimeoutMs, log);
  const hosts = createHosts(targets, options);
  try {
    log(`start-up timeout: ${formatDuration(options.startupTimeoutMs)} per server start (--startup-timeout); ${options.jobs} jobs`);
    const prepared = await prepareTargets(targets, registry, hosts, {
      revisions,
      jobs: options.jobs,
      startupTimeoutMs: options.startupTimeoutMs,
      timeoutScale: options.timeoutScale,
      log,
      ...(signal ? { signal } : {}),
    });
    const filter = { transports: options.transports, revisions: options.revisions, scenarios: options.scenarios };
    const cells = planMatrix(scenarios, prepared.targets, filter, prepared.probes, prepared.errors);
    const unreachable = prepared.targets.filter((target) => prepared.errors.get(target.id)?.has('*'));
    if (options.list) {
      io.out.write(formatCellList(cells, scenarios.length, prepared.targets.length, options.jobs));
      return { exitCode: unreachable.length > 0 ? 3 : errors.length > 0 ? 1 : 0 };
    }
    const runnable = cells.filter((cell) => cell.skip === undefined && cell.notApplicable === undefined && cell.error === undefined).length;
    const progress = new Progress(cells.length, { stream: io.err, runnable, ...(options.plain ? { plain: true } : {}) });
    io.events?.write({ type: 'start', cells: cells.length, runnable, targets: prepared.targets.map((target) => target.id) });
    if (runnable > 0) log(`running ${cells.length} cells: ${runnable} to run, ${cells.length - runnable} that do not apply or cannot run`);
    const listed = (result: Parameters<typeof entryCovers>[1]): boolean => entries.some((entry) => entryCovers(entry, result));
    const results = await runMatrix(
      cells,
      {
        hosts,
        jobs: options.jobs,
        run: (cell, session, context) =>
          runCell(cell, session, context, {
            timeoutScale: options.timeoutScale,
            startupTimeoutMs: options.startupTimeoutMs,
            assumeStartedAfterMs: (c) => silentStartMs(prepared, c, options.timeoutScale),
          }),
        ...(signal ? { signal } : {}),
      },
      (result) => {
        io.events?.write({ type: 'cell', result, expected: listed(result) });
        if (runnable > 0) progress.cellDone(result, listed(result));
      },
    );
    if (runnable > 0) progress.finish();
    const outcome = applyBaseline(results, entries, writtenFor(registry));
    const durationMs = Date.now() - startedAt.getTime();
    const outDir = resolve(options.out ?? DEFAULT_OUT_DIR);
    // The runtime rows are about wiremcp's own servers and client: not shown for a --command/--url server.
    const runtimes = options.command === undefined && options.url === undefined ? runtimeRows(official, outDir) : undefined;
    const exitCode = signal?.aborted ? 1 : exitCodeOf(results, errors.length);
    const report = buildReport({
      startedAt: startedAt.toISOString(),
      durationMs,
      argv,
      jobs: options.jobs,
      options: { startupTimeoutMs: options.startupTimeoutMs, timeoutScale: options.timeoutScale },
      exitCode,
      targets: reportTargets(prepared),
      processes: [...hosts.values()].reduce((sum, host) => sum + host.processCount(), 0),
      scenarioCount: scenarios.length,
      scenarioErrors: errors,
      baseline: {
        ...(baselineFile ? { file: baselineFile } : {}),
        used: outcome.used,
        stale: outcome.stale,
        ...(outcome.elsewhere.length > 0 ? { elsewhere: outcome.elsewhere } : {}),
        unused: outcome.unused,
      },
      cells: results,
      ...(official ? { officialSuite: official } : {}),
      ...(runtimes ? { runtimes } : {}),
    });
    io.out.write(`${formatSummary(results, durationMs)}\n`);
    if (outcome.elsewhere.length > 0) io.out.write(`${formatElsewhere(outcome.elsewhere)}\n`);
    if (runtimes) io.out.write(`\n${formatRuntimeRows(runtimes)}\n`);
    const ran = results.filter((result) => result.process !== undefined).length;
    if (ran > 0) io.out.write(`${ran} cells ran on ${report.processes} server processes\n`);
    if (errors.length > 0) io.out.write(`\n${errors.length} scenario file(s) failed to load (see above): the run fails.\n`);
    for (const target of prepared.targets)
      if (target.unavailable) io.out.write(`\nnote: ${target.id} was skipped: ${target.unavailable}\n`);
    if (testedCount(results) === 0 && !signal?.aborted)
      io.out.write('\nnothing was tested: every cell was not applicable, skipped or could not run (the run fails).\n');
    const written = writeReports(report, outDir, {
      html: options.html,
      ...(options.junit ? { junit: options.junit } : {}),
    });
    io.out.write(
      `\nresults: ${written.results}${written.html ? `\nreport:  ${written.html}` : ''}${written.junit ? `\njunit:   ${written.junit}` : ''}\n`,
    );
    if (signal?.aborted) io.out.write('\ninterrupted: the run is incomplete.\n');
    io.events?.write({ type: 'end', exitCode, counts: countByStatus(results), aborted: signal?.aborted ?? false });
    return { exitCode, report };
  } finally {
    await Promise.all([...hosts.values()].map((host) => host.close()));
  }
}
