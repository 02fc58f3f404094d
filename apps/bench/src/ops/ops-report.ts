// The overhead bench's metrics, their summary (medians of values, and medians of the ratios computed within each
// repetition) and its markdown.
import type { PhaseResult } from '../job.js';
import type { SideBySideMeta } from '../report.js';
import { medianRatio, summarize, type Summary } from '../stats.js';
import { TOOLS, type ToolName } from '../workload.js';
import type { OpsComparison, OpsRow } from './ops-plan.js';

/** What a driver of either transport prints that this bench reads. */
export interface OpsDriverResult {
  phases: Record<string, PhaseResult>;
}

/** One repetition: a result or an error per row, in the order run. */
export interface OpsRepetition {
  index: number;
  order: string[];
  loadAverage: number[];
  results: Record<string, OpsDriverResult | { error: string }>;
}

/** One metric of a row. */
export interface OpsMetric {
  key: string;
  label: string;
  unit: string;
  read(row: OpsRow, result: OpsDriverResult): number | undefined;
}

/** The loaded phase of a row: 64 calls in flight on one pipe (stdio), or 32 concurrent workers (HTTP). */
function loaded(row: OpsRow, tool: ToolName): string {
  return `${row.transport === 'stdio' ? 'pipe' : 'conc'}.${tool}`;
}

/** Every metric, in table order. */
export const OPS_METRICS: readonly OpsMetric[] = TOOLS.flatMap((tool): OpsMetric[] => [
  { key: `${tool}.calls`, label: `${tool} calls/s (loaded)`, unit: 'calls/s', read: (row, r) => r.phases[loaded(row, tool)]?.callsPerSec },
  {
    key: `${tool}.cpu`,
    label: `${tool} server CPU µs/call (loaded)`,
    unit: 'µs',
    read: (row, r) => r.phases[loaded(row, tool)]?.serverCpuUsPerCall,
  },
  { key: `${tool}.p50`, label: `${tool} sequential p50 µs`, unit: 'µs', read: (_row, r) => r.phases[`seq.${tool}`]?.p50Us },
]);

/** Per metric: the summary of each row's values and of each comparison's per-repetition ratios. */
export interface OpsSummary {
  values: Record<string, Record<string, Summary>>;
  ratios: Record<string, Summary[]>;
}

/** Summarises every metric of every row and every comparison (failed repetitions are left out and counted by n). */
export function summarizeOps(
  rows: readonly OpsRow[],
  comparisons: readonly OpsComparison[],
  repetitions: readonly OpsRepetition[],
): OpsSummary {
  const summary: OpsSummary = { values: {}, ratios: {} };
  for (const metric of OPS_METRICS) {
    const perRepetition = repetitions.map((repetition) =>
      Object.fromEntries(
        rows.map((row) => {
          const result = repetition.results[row.id];
          return [row.id, result === undefined || 'error' in result ? undefined : metric.read(row, result)];
        }),
      ),
    );
    summary.values[metric.key] = Object.fromEntries(rows.map((row) => [row.id, summarize(perRepetition.map((v) => v[row.id]))]));
    summary.ratios[metric.key] = comparisons.map((c) => medianRatio(perRepetition, c.row, c.reference));
  }
  return summary;
}

/** Where, when and how a run happened. */
export interface OpsMeta extends SideBySideMeta {
  against: string | undefined;
}

/** Everything a run writes to JSON. */
export interface OpsReport {
  meta: OpsMeta;
  rows: OpsRow[];
  comparisons: OpsComparison[];
  summary: OpsSummary;
  repetitions: OpsRepetition[];
}

const ratioCell = (s: Summary): string =>
  s.n === 0 ? 'not measured' : `${s.median.toFixed(3)}× (${s.min.toFixed(2)}–${s.max.toFixed(2)}, n=${s.n})`;

function valueCell(s: Summary | undefined, unit: string): string {
  if (s === undefined || s.n === 0) return 'not measured';
  return unit === 'calls/s' ? Math.round(s.median).toLocaleString('en-US') : s.median.toFixed(1);
}

const loadText = (l: readonly number[]): string => l.map((x) => x.toFixed(2)).join(' ');

/**
 * The bound on a server with no middleware installed: over stdio, pipelined calls/s at least 0.98× and server CPU per
 * call at most 1.02× the build it is compared with (`--against`), per tool. Empty without such a comparison.
 */
function zeroCostBound(report: OpsReport): string[] {
  const lines: string[] = [];
  report.comparisons.forEach((c, index) => {
    if (!c.reference.startsWith('stdio') || !c.reference.endsWith('/before')) return;
    for (const metric of OPS_METRICS.filter((m) => !m.key.endsWith('.p50'))) {
      const ratio = report.summary.ratios[metric.key]![index]!;
      const higher = metric.unit === 'calls/s';
      const met =
        ratio.n === 0 ? 'not measured' : (higher ? ratio.median >= 0.98 : ratio.median <= 1.02) ? 'within 2%' : '**not within 2%**';
      lines.push(`| ${c.label} | ${metric.label} | ${higher ? '≥ 0.98×' : '≤ 1.02×'} | ${ratioCell(ratio)} | ${met} |`);
    }
  });
  if (lines.length === 0) return [];
  return [
    '',
    '## No middleware installed: within 2% of the build before middleware (stdio, pipelined)',
    '',
    'The verdict reads the median; when the range is wider than the bound, it says little.',
    '',
    '| comparison | metric | bound | measured | verdict |',
    '| --- | --- | --- | --- | --- |',
    ...lines,
  ];
}

/** Renders the run as markdown: the ratios first (what the bench is for), then the values they come from. */
export function renderOpsMarkdown(report: OpsReport): string {
  const { meta, summary } = report;
  const out = [
    '# wiremcp benchmarks: what tracing, metrics, a rate limiter and middleware cost',
    '',
    `Run on ${meta.date} · Node ${meta.node} · ${meta.machine} · ` +
      `${meta.pinnedCpu === undefined ? 'not pinned' : `each driver and its server pinned to CPU ${meta.pinnedCpu}`} · ` +
      `load average ${loadText(meta.loadAverage.start)} at the start, ${loadText(meta.loadAverage.end)} at the end.`,
    `Command: \`${meta.command}\` · wall time ${Math.round(meta.wallTimeSec)} s · ${meta.repetitions} interleaved repetitions` +
      `${meta.quick ? ' (--quick)' : ''}${meta.gitCommit ? ` · commit ${meta.gitCommit}` : ''}${meta.against ? ` · against ${meta.against}` : ''}.`,
    '',
    'Each ratio is computed within a repetition (the rows of one repetition ran one after another, minutes apart at ' +
      'most), then the median over repetitions, with the range and the number of repetitions where both rows were ' +
      'measured. Throughput above 1 is faster; CPU and latency above 1 cost more. On a machine with other work running, ' +
      'the figures are indicative: compare the range with the effect before reading anything into a few percent.',
    '',
    '## Ratios',
    '',
  ];
  const keys = OPS_METRICS.map((m) => m.key);
  out.push(`| comparison | ${OPS_METRICS.map((m) => m.label).join(' | ')} |`, `| --- | ${keys.map(() => '---:').join(' | ')} |`);
  report.comparisons.forEach((c, index) => {
    out.push(`| ${c.label} | ${keys.map((key) => ratioCell(summary.ratios[key]![index]!)).join(' | ')} |`);
  });
  out.push(...zeroCostBound(report));
  out.push('', '## Values (medians over repetitions)', '');
  out.push(`| row | ${OPS_METRICS.map((m) => m.label).join(' | ')} |`, `| --- | ${keys.map(() => '---:').join(' | ')} |`);
  for (const row of report.rows) {
    out.push(`| ${row.label} | ${OPS_METRICS.map((m) => valueCell(summary.values[m.key]?.[row.id], m.unit)).join(' | ')} |`);
  }
  out.push(
    '',
    `Load average (1 min) at the start of each repetition: ${report.repetitions.map((r) => r.loadAverage[0]!.toFixed(1)).join(', ')}.`,
    '',
  );
  const failures = report.repetitions.flatMap((r) =>
    Object.entries(r.results)
      .filter((entry): entry is [string, { error: string }] => 'error' in entry[1])
      .map(([id, result]) => `- repetition ${r.index + 1}, ${id}: ${result.error.split('\n')[0]!.slice(0, 200)}`),
  );
  if (failures.length > 0) out.push('## Failures (left out of the medians)', '', ...failures, '');
  return out.join('\n');
}
