/**
 * One run of the app, from options to exit code: load scenarios, pick and probe targets, plan the matrix, run
 * the cells in parallel, apply the baseline, print the summary, write the JSON and HTML reports.
 */
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { PROTOCOL_VERSIONS, type ProtocolVersion } from '@wiremcp/protocol';
import type { CliOptions } from './cli-options.js';
import { DEFAULT_BASELINE, DEFAULT_OUT_DIR, DEFAULT_REGISTRY, SCENARIOS_DIR } from './paths.js';
import { applyBaseline, entryCovers, loadBaseline, type BaselineEntry } from './report/baseline.js';
import { renderHtmlReport } from './report/html-report.js';
import { Progress } from './report/progress.js';
import { buildReport, type RunReport } from './report/run-report.js';
import { formatSummary, runFailed } from './report/summary.js';
import type { CellResult } from './runner/cell-types.js';
import { planMatrix, type ProbeResult } from './runner/plan.js';
import { runPool } from './runner/pool.js';
import { probeTarget } from './runner/probe.js';
import { runCell } from './runner/run-cell.js';
import { loadScenarios } from './scenario/load-scenarios.js';
import { formatProblem } from './scenario/yaml-file.js';
import { splitCommandLine } from './targets/command-line.js';
import { loadRegistry } from './targets/registry.js';
import type { Target } from './targets/target.js';

/** Where the run writes its text (the CLI passes stdout/stderr; tests pass buffers). */
export interface RunIo {
  readonly out: NodeJS.WritableStream & { isTTY?: boolean; columns?: number };
  readonly err: NodeJS.WritableStream & { isTTY?: boolean; columns?: number };
}

/** The outcome of a run: the exit code and, unless listing, the report. */
export interface RunOutcome {
  readonly exitCode: number;
  readonly report?: RunReport;
}

function externalTarget(options: CliOptions): Target {
  const transports = options.transports.length > 0 ? options.transports : undefined;
  if (options.command !== undefined) {
    const command = splitCommandLine(options.command);
    if (command.length === 0) throw new Error('--command is empty');
    const ids = (transports ?? ['stdio-ndjson']).filter((id) => id === 'stdio-ndjson' || id === 'stdio-content-length');
    return {
      id: options.name,
      title: `--command ${options.command}`,
      origin: 'external',
      transports: ids.map((id) => ({ id, kind: 'stdio' as const, command, cwd: process.cwd(), env: {} })),
      revisions: PROTOCOL_VERSIONS,
      capabilities: undefined,
      features: new Set(),
      limits: {},
    };
  }
  const ids = (transports ?? ['streamable-http']).filter((id) => !id.startsWith('stdio'));
  return {
    id: options.name,
    title: `--url ${options.url!}`,
    origin: 'external',
    transports: ids.map((id) => ({ id, kind: 'http' as const, url: options.url! })),
    revisions: PROTOCOL_VERSIONS,
    capabilities: undefined,
    features: new Set(),
    limits: {},
  };
}

function chooseTargets(options: CliOptions): Target[] {
  const external = options.command !== undefined || options.url !== undefined;
  const registry = external && options.servers.length === 0 ? [] : loadRegistry(options.registry ?? DEFAULT_REGISTRY);
  const known = new Set(registry.map((server) => server.target.id));
  const unknown = options.servers.filter((id) => !known.has(id));
  if (unknown.length > 0) throw new Error(`unknown server ${unknown.join(', ')} (servers.yaml has ${[...known].join(', ')})`);
  const chosen = registry
    .filter((server) => (options.servers.length > 0 ? options.servers.includes(server.target.id) : server.isDefault))
    .map((server) => server.target);
  return external ? [...chosen, externalTarget(options)] : chosen;
}

/** Runs the conformance app with parsed options; never calls `process.exit`. */
export async function runConformance(
  options: CliOptions,
  io: RunIo,
  argv: readonly string[] = [],
  signal?: AbortSignal,
): Promise<RunOutcome> {
  const startedAt = new Date();
  const { scenarios, errors } = loadScenarios(options.scenariosDir ? resolve(options.scenariosDir) : SCENARIOS_DIR);
  for (const error of errors) for (const problem of error.problems) io.err.write(`scenario error: ${formatProblem(error.file, problem)}\n`);
  const targets = chooseTargets(options);
  const revisions = (options.revisions.length > 0 ? options.revisions : PROTOCOL_VERSIONS) as ProtocolVersion[];
  const filter = { servers: [], transports: options.transports, revisions: options.revisions, scenarios: options.scenarios };
  const probes = new Map<string, Map<string, ProbeResult>>();
  for (const target of targets) {
    if (target.capabilities !== undefined || options.list) continue;
    io.err.write(`probing ${target.id} (${target.transports.map((t) => t.id).join(', ')}; ${revisions.join(', ')})…\n`);
    probes.set(target.id, await probeTarget(target, revisions, options.jobs));
  }
  const cells = planMatrix(scenarios, targets, filter, probes);
  if (options.list) {
    for (const cell of cells) {
      io.out.write(
        `${cell.scenario.area}/${cell.scenario.id}  ${cell.target.id}  ${cell.transport.id}  ${cell.revision}${cell.skip ? `  (skip: ${cell.skip})` : ''}\n`,
      );
    }
    io.out.write(`${cells.length} cells, ${scenarios.length} scenarios, ${targets.length} servers\n`);
    return { exitCode: errors.length > 0 ? 1 : 0 };
  }
  // The baseline is read before the run, so that a broken file stops it early and progress can tell news from
  // known failures.
  const baselineFile = options.noBaseline ? undefined : resolve(options.baseline ?? DEFAULT_BASELINE);
  let entries: BaselineEntry[] = [];
  if (baselineFile !== undefined && (options.baseline !== undefined || existsSync(baselineFile))) entries = loadBaseline(baselineFile);
  const progress = new Progress(cells.length, { stream: io.err, ...(options.plain ? { plain: true } : {}) });
  const listed = (result: CellResult): boolean => entries.some((entry) => entryCovers(entry, result));
  const results: CellResult[] = await runPool(
    cells,
    options.jobs,
    (cell) => runCell(cell, { timeoutScale: options.timeoutScale }),
    (result) => progress.cellDone(result, listed(result)),
    signal,
  );
  progress.finish();
  const outcome = applyBaseline(results, entries);
  const durationMs = Date.now() - startedAt.getTime();
  const exitCode = runFailed(results) || errors.length > 0 || signal?.aborted ? 1 : 0;
  const report = buildReport({
    startedAt: startedAt.toISOString(),
    durationMs,
    argv,
    jobs: options.jobs,
    exitCode,
    targets: targets.map((target) => ({
      id: target.id,
      title: target.title,
      origin: target.origin,
      transports: target.transports.map((transport) => transport.id),
      ...(target.unavailable ? { unavailable: target.unavailable } : {}),
    })),
    scenarioCount: scenarios.length,
    scenarioErrors: errors,
    baseline: { file: baselineFile, used: outcome.used, stale: outcome.stale, unused: outcome.unused },
    cells: results,
  });
  io.out.write(`${formatSummary(results, durationMs)}\n`);
  if (errors.length > 0) io.out.write(`\n${errors.length} scenario file(s) failed to load (see above): the run fails.\n`);
  for (const target of targets) if (target.unavailable) io.out.write(`\nnote: ${target.id} was skipped: ${target.unavailable}\n`);
  const outDir = resolve(options.out ?? DEFAULT_OUT_DIR);
  mkdirSync(outDir, { recursive: true });
  writeFileSync(join(outDir, 'results.json'), `${JSON.stringify(report, null, 2)}\n`);
  if (options.html) writeFileSync(join(outDir, 'report.html'), renderHtmlReport(report));
  io.out.write(`\nresults: ${join(outDir, 'results.json')}${options.html ? `\nreport:  ${join(outDir, 'report.html')}` : ''}\n`);
  if (signal?.aborted) io.out.write('\ninterrupted: the run is incomplete.\n');
  return { exitCode, report };
}
