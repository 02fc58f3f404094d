// The HTTP bench's metrics, their summary over repetitions (medians of raw values and of per-repetition ratios to
// each row's reference), the targets, and the markdown.
import type { SideBySideMeta } from '../report.js';
import { medianRatio, summarize, type Summary } from '../stats.js';
import { TOOLS } from '../workload.js';
import type { HttpDriverResult, HttpRow, HttpWorkload } from './http-plan.js';

/** One metric of the HTTP tables. */
export interface HttpMetric {
  key: string;
  label: string;
  unit: string;
  read(result: HttpDriverResult): number | undefined;
}

type Field = 'callsPerSec' | 'p50Us' | 'p99Us' | 'serverCpuUsPerCall' | 'clientCpuUsPerCall';
const phase = (key: string, label: string, unit: string, name: string, field: Field): HttpMetric => ({
  key,
  label,
  unit,
  read: (r) => r.phases[name]?.[field],
});

/** Every metric, in table order. */
export const HTTP_METRICS: readonly HttpMetric[] = [
  ...TOOLS.flatMap((tool) => [
    phase(`seq.${tool}.callsPerSec`, 'sequential calls/s', 'calls/s', `seq.${tool}`, 'callsPerSec'),
    phase(`seq.${tool}.p50Us`, 'sequential p50', 'µs', `seq.${tool}`, 'p50Us'),
    phase(`seq.${tool}.p99Us`, 'sequential p99', 'µs', `seq.${tool}`, 'p99Us'),
    phase(`seq.${tool}.serverCpuUs`, 'server CPU per call, sequential', 'µs', `seq.${tool}`, 'serverCpuUsPerCall'),
    phase(`conc.${tool}.callsPerSec`, '32-concurrent calls/s', 'calls/s', `conc.${tool}`, 'callsPerSec'),
    phase(`conc.${tool}.serverCpuUs`, 'server CPU per call, 32-concurrent', 'µs', `conc.${tool}`, 'serverCpuUsPerCall'),
    phase(`conc.${tool}.clientCpuUs`, 'client CPU per call, 32-concurrent', 'µs', `conc.${tool}`, 'clientCpuUsPerCall'),
  ]),
  {
    key: 'heapPerSessionKb',
    label: 'heap per idle legacy session',
    unit: 'KB',
    read: (r) => (r.heapPerSessionBytes === undefined ? undefined : r.heapPerSessionBytes / 1024),
  },
  {
    key: 'fullGcsPer100k',
    label: 'full collections per 100k calls',
    unit: 'GCs',
    read: (r) => (r.fullCollections === undefined || !r.measuredCalls ? undefined : (r.fullCollections * 100_000) / r.measuredCalls),
  },
];

/** One repetition: a result or an error per row. */
export interface HttpRepetition {
  index: number;
  order: string[];
  loadAverage: number[];
  results: Record<string, HttpDriverResult | { error: string }>;
}

/** Per metric, per row: the raw values and the per-repetition ratios to the row's reference. */
export type HttpSummary = Record<string, Record<string, { value: Summary; ratio: Summary }>>;

function byRepetition(repetitions: readonly HttpRepetition[], metric: HttpMetric): Array<Record<string, number | undefined>> {
  return repetitions.map((repetition) =>
    Object.fromEntries(Object.entries(repetition.results).map(([id, result]) => [id, 'error' in result ? undefined : metric.read(result)])),
  );
}

/** Summarises every metric of every row. */
export function summarizeHttp(rows: readonly HttpRow[], repetitions: readonly HttpRepetition[]): HttpSummary {
  const summary: HttpSummary = {};
  for (const metric of HTTP_METRICS) {
    const values = byRepetition(repetitions, metric);
    summary[metric.key] = Object.fromEntries(
      rows.map((row) => [row.id, { value: summarize(values.map((v) => v[row.id])), ratio: medianRatio(values, row.id, row.reference) }]),
    );
  }
  return summary;
}

/** One target, checked on a ratio between two rows or (heap) on an absolute value. */
export interface HttpTargetCheck {
  target: string;
  row: string;
  metric: string;
  /** The row compared against, or undefined for an absolute limit. */
  reference: string | undefined;
  comparison: '>=' | '<=';
  threshold: number;
  /** The median of the per-repetition ratios (or of the values), with its range. */
  measured: Summary;
  met: boolean | undefined;
}

/**
 * The targets for wiremcp over HTTP. `suffix` is appended to every row id (`:node24` under `--node`), and `prefix`
 * to every target's name.
 */
export function checkHttpTargets(
  repetitions: readonly HttpRepetition[],
  rowIds: ReadonlySet<string>,
  suffix = '',
  prefix = '',
): HttpTargetCheck[] {
  const checks: HttpTargetCheck[] = [];
  const metric = (key: string): HttpMetric => HTTP_METRICS.find((m) => m.key === key)!;
  const add = (
    name: string,
    rowId: string,
    key: string,
    referenceId: string | undefined,
    comparison: '>=' | '<=',
    threshold: number,
  ): void => {
    const row = rowId + suffix;
    const reference = referenceId === undefined ? undefined : referenceId + suffix;
    const target = prefix + name;
    if (!rowIds.has(row) || (reference !== undefined && !rowIds.has(reference))) return;
    const values = byRepetition(repetitions, metric(key));
    const measured = reference === undefined ? summarize(values.map((v) => v[row])) : medianRatio(values, row, reference);
    const met = measured.n === 0 ? undefined : comparison === '>=' ? measured.median >= threshold : measured.median <= threshold;
    checks.push({ target, row, metric: key, reference, comparison, threshold, measured, met });
  };
  for (const tool of TOOLS) {
    // Against the hand-written node:http server of the same era: throughput, server CPU per call, sequential p50.
    for (const [row, era, calls, cpu] of [
      ['raw/wiremcp', 'raw/baseline', 0.95, 1.25],
      ['raw/wiremcp@2026', 'raw/baseline@2026', 0.85, 1.4],
    ] as const) {
      const name = era === 'raw/baseline' ? '2025-11-25 sessions' : '2026-07-28 stateless';
      add(`${name}, 32-concurrent ≥ ${calls}× hand-written`, row, `conc.${tool}.callsPerSec`, era, '>=', calls);
      add(`${name}, server CPU per call ≤ ${cpu}× hand-written`, row, `conc.${tool}.serverCpuUs`, era, '<=', cpu);
      add(`${name}, sequential p50 ≤ 1.2× hand-written`, row, `seq.${tool}.p50Us`, era, '<=', 1.2);
    }
    add('wiremcp pair ≥ 3× SDK v2 pair (32-concurrent)', 'wiremcp/wiremcp', `conc.${tool}.callsPerSec`, 'sdk-v2/sdk-v2', '>=', 3);
    add(
      'wiremcp pair ≥ 3× SDK v2 pair (32-concurrent)',
      'wiremcp/wiremcp@2026',
      `conc.${tool}.callsPerSec`,
      'sdk-v2/sdk-v2-stateless@2026',
      '>=',
      3,
    );
  }
  add('≤ 4 KB heap per idle legacy session', 'raw/wiremcp', 'heapPerSessionKb', undefined, '<=', 4);
  return checks;
}

/** Where, when and how a run happened. */
export interface HttpMeta extends SideBySideMeta {
  workload: HttpWorkload;
  packages: Record<string, string>;
}

/** Everything a run writes to JSON. */
export interface HttpReport {
  meta: HttpMeta;
  rows: HttpRow[];
  summary: HttpSummary;
  targets: HttpTargetCheck[];
  repetitions: HttpRepetition[];
}

const integer = new Intl.NumberFormat('en-US', { maximumFractionDigits: 0 });

function format(value: number, unit: string): string {
  if (!Number.isFinite(value)) return 'n/a';
  if (unit === 'calls/s') return integer.format(value);
  return value >= 100 ? integer.format(value) : value.toFixed(1);
}

const times = (s: Summary): string => (s.n === 0 ? '' : `${s.median >= 10 ? s.median.toFixed(1) : s.median.toFixed(2)}×`);

function table(report: HttpReport, keys: string[], headers: string[]): string[] {
  const lines = [`| implementation | ${headers.join(' | ')} |`, `| --- | ${headers.map(() => '---:').join(' | ')} |`];
  for (const row of report.rows) {
    const cells = keys.map((key) => {
      const cell = report.summary[key]?.[row.id];
      if (!cell || cell.value.n === 0) return '–';
      const unit = HTTP_METRICS.find((m) => m.key === key)!.unit;
      const ratio = row.id === row.reference ? '1×' : times(cell.ratio);
      return ratio === '' || unit === 'KB' || unit === 'GCs'
        ? format(cell.value.median, unit)
        : `${format(cell.value.median, unit)} (${ratio})`;
    });
    if (cells.every((c) => c === '–')) continue;
    lines.push(`| ${row.label} | ${cells.join(' | ')} |`);
  }
  return lines;
}

/** Renders the run as markdown. */
export function renderHttpMarkdown(report: HttpReport): string {
  const { meta } = report;
  const label = (id: string | undefined): string => (id === undefined ? 'absolute' : (report.rows.find((r) => r.id === id)?.label ?? id));
  const load = (l: number[]): string => l.map((x) => x.toFixed(2)).join(' ');
  const out = [
    '# wiremcp benchmarks: Streamable HTTP',
    '',
    `Run on ${meta.date} · Node ${meta.node} · ${meta.machine} · ${meta.pinnedCpu === undefined ? 'not pinned' : `each driver and its server pinned to CPU ${meta.pinnedCpu}`} · ` +
      `load average ${load(meta.loadAverage.start)} at the start, ${load(meta.loadAverage.end)} at the end (a shared machine: other work ran on its cores).`,
    `Command: \`${meta.command}\` · wall time ${Math.round(meta.wallTimeSec)} s · ${meta.repetitions} interleaved repetitions${meta.quick ? ' (--quick)' : ''}` +
      `${meta.gitCommit ? ` · commit ${meta.gitCommit}` : ''}.`,
    `Packages: ${Object.entries(meta.packages)
      .map(([name, version]) => `${name} ${version}`)
      .join(', ')}.`,
    '',
    'Each cell: the median over repetitions, and in parentheses the median of the per-repetition ratios to the raw client → ' +
      'hand-written node:http server of the same era (and Node version, when rows name one). Raw-client rows run 32 workers on keep-alive sockets (2025-11-25: one ' +
      'session per worker); pair rows run one MCP client with 32 calls in flight. See [../README.md](../README.md#streamable-http).',
    '',
    '## Targets (wiremcp)',
    '',
    '| target | implementation | metric | against | measured: median (range, n) | verdict |',
    '| --- | --- | --- | --- | --- | --- |',
  ];
  for (const c of report.targets) {
    const unit = c.reference === undefined ? ' KB' : '×';
    const m = c.measured;
    const measured = m.n === 0 ? 'n/a' : `${m.median.toFixed(2)}${unit} (${m.min.toFixed(2)}–${m.max.toFixed(2)}, n=${m.n})`;
    const metric = HTTP_METRICS.find((x) => x.key === c.metric)!;
    const tool = c.metric.includes('.') ? `, ${c.metric.split('.')[1]}` : '';
    const verdict = c.met === undefined ? 'not measured' : c.met ? '**met**' : '**missed**';
    out.push(`| ${c.target} | ${label(c.row)} | ${metric.label}${tool} | ${label(c.reference)} | ${measured} | ${verdict} |`);
  }
  out.push('');
  for (const tool of TOOLS) {
    out.push(`## \`${tool}\` tool`, '');
    const keys = [
      'seq.%.callsPerSec',
      'seq.%.p50Us',
      'seq.%.p99Us',
      'conc.%.callsPerSec',
      'conc.%.serverCpuUs',
      'conc.%.clientCpuUs',
      'seq.%.serverCpuUs',
    ].map((k) => k.replace('%', tool));
    const headers = [
      'sequential calls/s',
      'sequential p50 µs',
      'sequential p99 µs',
      `${meta.workload.concurrency}-concurrent calls/s`,
      'server CPU µs/call (concurrent)',
      'client CPU µs/call (concurrent)',
      'server CPU µs/call (sequential)',
    ];
    out.push(...table(report, keys, headers), '');
  }
  out.push(`## Memory: heap per idle legacy session (${meta.workload.heapSessions} sessions, after a full GC)`, '');
  out.push(...table(report, ['heapPerSessionKb'], ['KB per session']), '');
  out.push(
    '## Memory: full (old-generation) collections of the server per 100k calls, during the measured phases',
    '',
    'Request objects that survive two young-generation collections are promoted and then need full collections: a server ' +
      'that keeps nothing per request needs none.',
    '',
  );
  out.push(...table(report, ['fullGcsPer100k'], ['full GCs per 100k calls']), '');
  const failures = report.repetitions.flatMap((r) =>
    Object.entries(r.results)
      .filter(([, result]) => 'error' in result)
      .map(([id, result]) => `- repetition ${r.index + 1}, ${id}: ${(result as { error: string }).error.split('\n')[0]}`),
  );
  if (failures.length > 0) out.push('## Failures (left out of the medians)', '', ...failures, '');
  return out.join('\n');
}
