// The metrics of the table, how each is read out of a driver's result, and the summary of a whole run: medians of
// the raw values and medians of the per-repetition ratios to each row's reference.
import type { DriverResult } from './job.js';
import type { Row } from './plan.js';
import { median, medianRatio, summarize, type Summary } from './stats.js';
import { TOOLS, type ToolName } from './workload.js';

/** One metric of the table. */
export interface MetricDef {
  key: string;
  label: string;
  unit: string;
  better: 'higher' | 'lower';
  /** Which part of a driver job produces it. */
  phase: 'load' | 'cold';
  read(result: DriverResult): number | undefined;
}

function phaseMetric(
  key: string,
  label: string,
  unit: string,
  better: 'higher' | 'lower',
  phase: string,
  field: 'callsPerSec' | 'p50Us' | 'p99Us' | 'serverCpuUsPerCall' | 'clientCpuUsPerCall' | 'serverWritesPerCall',
): MetricDef {
  return { key, label, unit, better, phase: 'load', read: (r) => r.phases[phase]?.[field] };
}

function toolMetrics(tool: ToolName): MetricDef[] {
  return [
    phaseMetric(`seq.${tool}.callsPerSec`, 'sequential calls/s', 'calls/s', 'higher', `seq.${tool}`, 'callsPerSec'),
    phaseMetric(`seq.${tool}.p50Us`, 'sequential p50', 'µs', 'lower', `seq.${tool}`, 'p50Us'),
    phaseMetric(`seq.${tool}.p99Us`, 'sequential p99', 'µs', 'lower', `seq.${tool}`, 'p99Us'),
    phaseMetric(`seq.${tool}.serverCpuUs`, 'server CPU per call, sequential', 'µs', 'lower', `seq.${tool}`, 'serverCpuUsPerCall'),
    phaseMetric(`pipe.${tool}.callsPerSec`, 'pipelined calls/s', 'calls/s', 'higher', `pipe.${tool}`, 'callsPerSec'),
    phaseMetric(`pipe.${tool}.serverCpuUs`, 'server CPU per call, pipelined', 'µs', 'lower', `pipe.${tool}`, 'serverCpuUsPerCall'),
    phaseMetric(`pipe.${tool}.clientCpuUs`, 'client CPU per call, pipelined', 'µs', 'lower', `pipe.${tool}`, 'clientCpuUsPerCall'),
    phaseMetric(
      `pipe.${tool}.serverWrites`,
      'server write syscalls per call, pipelined',
      'writes',
      'lower',
      `pipe.${tool}`,
      'serverWritesPerCall',
    ),
  ];
}

/** Every metric, in table order. */
export const METRICS: readonly MetricDef[] = [
  ...TOOLS.flatMap(toolMetrics),
  {
    key: 'coldStartMs',
    label: 'cold start (spawn → handshake answered)',
    unit: 'ms',
    better: 'lower',
    phase: 'cold',
    read: (r) => (r.coldStartMs.length > 0 ? median(r.coldStartMs) : undefined),
  },
  {
    key: 'rssMb',
    label: 'server RSS after 1 session',
    unit: 'MB',
    better: 'lower',
    phase: 'cold',
    read: (r) => (r.rssKb === undefined ? undefined : r.rssKb / 1024),
  },
];

/** What one repetition recorded: a result or an error per row. */
export interface RepetitionRecord {
  index: number;
  order: string[];
  loadAverage: number[];
  results: Record<string, DriverResult | { error: string }>;
}

/** The summary of one metric of one row. */
export interface CellSummary {
  /** The raw values (median, range, count over repetitions). */
  value: Summary;
  /** The per-repetition ratios to the row's reference. */
  ratio: Summary;
}

/** Per metric: per row, the summary. */
export type RunSummary = Record<string, Record<string, CellSummary>>;

/** The values of one metric per repetition: `[{rowId: value}]`, what the ratio helpers take. */
export function valuesByRepetition(repetitions: readonly RepetitionRecord[], metric: MetricDef): Array<Record<string, number | undefined>> {
  return repetitions.map((repetition) => {
    const values: Record<string, number | undefined> = {};
    for (const [id, result] of Object.entries(repetition.results)) {
      values[id] = 'error' in result ? undefined : metric.read(result);
    }
    return values;
  });
}

/** Summarises every metric of every row. */
export function summarizeRun(rows: readonly Row[], repetitions: readonly RepetitionRecord[]): RunSummary {
  const summary: RunSummary = {};
  for (const metric of METRICS) {
    const byRepetition = valuesByRepetition(repetitions, metric);
    const cells: Record<string, CellSummary> = {};
    for (const row of rows) {
      cells[row.id] = {
        value: summarize(byRepetition.map((values) => values[row.id])),
        ratio: medianRatio(byRepetition, row.id, row.reference),
      };
    }
    summary[metric.key] = cells;
  }
  return summary;
}

/** One target of the issue, checked on one row. */
export interface TargetCheck {
  target: string;
  row: string;
  metric: string;
  reference: string;
  comparison: '>=' | '<=';
  threshold: number;
  /** The median of the per-repetition ratios `row / reference`, with its range. */
  ratio: Summary;
  met: boolean | undefined;
}

/**
 * The targets for wiremcp: on its server with the raw client and on wiremcp client ↔ server, both eras, against
 * the baseline of the same era; and wiremcp client ↔ server against the official v2 client ↔ server.
 */
export function checkTargets(repetitions: readonly RepetitionRecord[], rowIds: ReadonlySet<string>): TargetCheck[] {
  const checks: TargetCheck[] = [];
  const byKey = new Map(METRICS.map((m) => [m.key, m]));
  const add = (target: string, row: string, metricKey: string, reference: string, comparison: '>=' | '<=', threshold: number): void => {
    if (!rowIds.has(row) || !rowIds.has(reference)) return;
    const ratio = medianRatio(valuesByRepetition(repetitions, byKey.get(metricKey)!), row, reference);
    const met = ratio.n === 0 ? undefined : comparison === '>=' ? ratio.median >= threshold : ratio.median <= threshold;
    checks.push({ target, row, metric: metricKey, reference, comparison, threshold, ratio, met });
  };
  for (const suffix of ['', '@2026']) {
    const reference = `raw/baseline${suffix}`;
    for (const row of [`raw/wiremcp${suffix}`, `wiremcp/wiremcp${suffix}`]) {
      for (const tool of TOOLS) {
        add('pipelined throughput ≥ 0.8× baseline', row, `pipe.${tool}.callsPerSec`, reference, '>=', 0.8);
        add('server CPU per call ≤ 1.5× baseline', row, `pipe.${tool}.serverCpuUs`, reference, '<=', 1.5);
        add('sequential p50 ≤ 1.3× baseline', row, `seq.${tool}.p50Us`, reference, '<=', 1.3);
      }
      add('cold start ≤ 1.2× baseline', row, 'coldStartMs', reference, '<=', 1.2);
    }
    // The limit itself: a pipelined server at 0.9× the hand-written one's throughput and 1.3× its CPU, under both
    // raw client kinds (a round per write, a request per write).
    for (const kind of ['raw', 'raw-each']) {
      for (const tool of TOOLS) {
        const row = `${kind}/wiremcp${suffix}`;
        const base = `${kind}/baseline${suffix}`;
        add('pipelined throughput ≥ 0.9× baseline (the limit)', row, `pipe.${tool}.callsPerSec`, base, '>=', 0.9);
        add('server CPU per call ≤ 1.3× baseline (the limit)', row, `pipe.${tool}.serverCpuUs`, base, '<=', 1.3);
      }
    }
    for (const tool of TOOLS) {
      add(
        'wiremcp client ↔ server ≥ 3× SDK v2 client ↔ server (pipelined)',
        `wiremcp/wiremcp${suffix}`,
        `pipe.${tool}.callsPerSec`,
        `sdk-v2/sdk-v2${suffix}`,
        '>=',
        3,
      );
    }
  }
  return checks;
}
