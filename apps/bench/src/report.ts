// The markdown table of a run (implementation × metric, with ratios) and the shape of its JSON.
import { METRICS, type CellSummary, type RepetitionRecord, type RunSummary, type TargetCheck } from './metrics.js';
import { rowLabel, type Row, type Workload } from './plan.js';
import type { Summary } from './stats.js';
import type { TypedToolsResult } from './micro/typed-tools-bench.js';
import { TOOLS } from './workload.js';

/** Where, when and how a run of a side-by-side bench (`http`, `ops`) happened: what their reports share. */
export interface SideBySideMeta {
  date: string;
  command: string;
  wallTimeSec: number;
  node: string;
  machine: string;
  pinnedCpu: number | undefined;
  loadAverage: { start: number[]; end: number[] };
  gitCommit: string | undefined;
  repetitions: number;
  quick: boolean;
}

/** Where and how a run happened. */
export interface RunMeta {
  date: string;
  command: string;
  wallTimeSec: number;
  node: string;
  os: string;
  cpu: string;
  cores: number;
  /** The CPU every driver and its server ran on (`undefined`: not pinned). */
  pinnedCpu: number | undefined;
  memoryGb: number;
  loadAverage: { start: number[]; end: number[] };
  gitCommit: string | undefined;
  repetitions: number;
  quick: boolean;
  only: string[];
  workload: Workload;
  packages: Record<string, string>;
}

/** The micro-benchmark results (apps/bench/src/micro). */
export interface MicroResults {
  framing: Array<{ name: string; mbPerSec: number; framesPerSec: number }>;
  jsonrpc: Array<{ name: string; roundTripsPerSec: number }>;
  /** CPU per call by tool registration style (src/micro/typed-tools-bench.ts). */
  typed?: TypedToolsResult[];
}

/** Everything a run writes to JSON. */
export interface RunReport {
  meta: RunMeta;
  rows: Row[];
  metrics: Array<{ key: string; label: string; unit: string; better: string }>;
  summary: RunSummary;
  targets: TargetCheck[];
  micro: MicroResults | { error: string } | undefined;
  http: string;
  repetitions: RepetitionRecord[];
}

/** Where the Streamable HTTP figures are: a command of their own. */
export const HTTP_NOT_MEASURED = 'measured by `npm run bench -- http`, see [http.md](http.md)';

const integer = new Intl.NumberFormat('en-US', { maximumFractionDigits: 0 });

function formatValue(value: number, unit: string): string {
  if (!Number.isFinite(value)) return 'n/a';
  if (unit === 'calls/s') return integer.format(value);
  if (unit === 'MB') return value.toFixed(1);
  if (unit === 'ms') return value.toFixed(0);
  if (unit === 'writes') return value.toFixed(3);
  return value >= 100 ? integer.format(value) : value.toFixed(1);
}

function formatRatio(ratio: Summary): string {
  if (ratio.n === 0 || !Number.isFinite(ratio.median)) return '';
  return `${ratio.median >= 10 ? ratio.median.toFixed(1) : ratio.median.toFixed(2)}×`;
}

function cell(summary: CellSummary | undefined, unit: string, isReference: boolean): string {
  if (!summary || summary.value.n === 0) return '–';
  const ratio = isReference ? '1×' : formatRatio(summary.ratio);
  return ratio === '' ? formatValue(summary.value.median, unit) : `${formatValue(summary.value.median, unit)} (${ratio})`;
}

function table(rows: readonly Row[], summary: RunSummary, keys: string[], headers: string[]): string[] {
  const metrics = keys.map((key) => METRICS.find((m) => m.key === key)!);
  const lines = [`| implementation | ${headers.join(' | ')} |`, `| --- | ${headers.map(() => '---:').join(' | ')} |`];
  for (const row of rows) {
    const cells = metrics.map((metric) => cell(summary[metric.key]?.[row.id], metric.unit, row.id === row.reference));
    if (cells.every((c) => c === '–')) continue;
    lines.push(`| ${rowLabel(row)} | ${cells.join(' | ')} |`);
  }
  return lines;
}

function targetLine(check: TargetCheck, rows: readonly Row[]): string {
  const label = (id: string): string => {
    const row = rows.find((r) => r.id === id);
    return row ? rowLabel(row) : id;
  };
  const metric = METRICS.find((m) => m.key === check.metric)!;
  const tool = check.metric.split('.')[1];
  const what = metric.key === 'coldStartMs' ? metric.label : `${metric.label}, ${tool}`;
  const ratio =
    check.ratio.n === 0
      ? 'n/a'
      : `${check.ratio.median.toFixed(2)}× (${check.ratio.min.toFixed(2)}–${check.ratio.max.toFixed(2)}, n=${check.ratio.n})`;
  const verdict = check.met === undefined ? 'not measured' : check.met ? '**met**' : '**missed**';
  return `| ${check.target} | ${label(check.row)} | ${what} | ${label(check.reference)} | ${ratio} | ${verdict} |`;
}

/** Renders the run as markdown. */
export function renderMarkdown(report: RunReport): string {
  const { meta, rows, summary } = report;
  const out: string[] = [];
  out.push('# wiremcp benchmarks: latest results', '');
  out.push(
    `Run on ${meta.date} · Node ${meta.node} · ${meta.os} · ${meta.cpu}, ${meta.cores} cores, ${meta.memoryGb} GB · ` +
      `${meta.pinnedCpu === undefined ? 'not pinned' : `each client and its server pinned to CPU ${meta.pinnedCpu}`} · ` +
      `load average ${meta.loadAverage.start.map((l) => l.toFixed(2)).join(' ')} at the start, ${meta.loadAverage.end.map((l) => l.toFixed(2)).join(' ')} at the end (a shared machine).`,
  );
  out.push(
    `Command: \`${meta.command}\` · wall time ${Math.round(meta.wallTimeSec)} s · ${meta.repetitions} interleaved repetitions` +
      `${meta.quick ? ' (--quick)' : ''}${meta.only.length > 0 ? ` · only: ${meta.only.join(', ')}` : ''}` +
      `${meta.gitCommit ? ` · commit ${meta.gitCommit}` : ''}.`,
  );
  out.push(
    `Packages: ${Object.entries(meta.packages)
      .map(([name, version]) => `${name} ${version}`)
      .join(', ')}.`,
    '',
  );
  out.push(
    'Each cell: the median over repetitions of the raw value, and in parentheses the median of the per-repetition ratios to the ' +
      'baseline of the same era (raw client → hand-written server; 2026-07-28 rows against its 2026-07-28 twin). Ratios are ' +
      'value ÷ baseline for every metric: above 1× is more calls/s, or more µs/ms/MB. See [../README.md](../README.md) for the method.',
    '',
  );

  out.push('## Targets (wiremcp)', '');
  out.push(
    '| target | implementation | metric | against | ratio: median of per-repetition ratios (range, n) | verdict |',
    '| --- | --- | --- | --- | --- | --- |',
  );
  for (const check of report.targets) out.push(targetLine(check, rows));
  out.push('');

  const toolKeys = (tool: string): string[] => [
    `seq.${tool}.callsPerSec`,
    `seq.${tool}.p50Us`,
    `seq.${tool}.p99Us`,
    `pipe.${tool}.callsPerSec`,
    `pipe.${tool}.serverCpuUs`,
    `pipe.${tool}.clientCpuUs`,
    `pipe.${tool}.serverWrites`,
    `seq.${tool}.serverCpuUs`,
  ];
  const toolHeaders = [
    'sequential calls/s',
    'sequential p50 µs',
    'sequential p99 µs',
    `pipelined (${meta.workload.inFlight} in flight) calls/s`,
    'server CPU µs/call (pipelined)',
    'client CPU µs/call (pipelined)',
    'server writes/call (pipelined)',
    'server CPU µs/call (sequential)',
  ];
  for (const tool of TOOLS) {
    const description =
      tool === 'echo' ? '`echo` tool (returns its text)' : '`conjugate` tool (enum inputSchema, outputSchema, structuredContent)';
    out.push(`## stdio: ${description}`, '');
    out.push(...table(rows, summary, toolKeys(tool), toolHeaders), '');
  }

  out.push('## stdio: cold start and memory', '');
  out.push(
    ...table(
      rows,
      summary,
      ['coldStartMs', 'rssMb'],
      ['cold start ms (spawn → initialize or discover answered)', 'server RSS MB after 1 session'],
    ),
    '',
  );

  out.push('## Streamable HTTP', '', `Sequential, 32 concurrent, client ↔ server pairs, heap per idle session: ${HTTP_NOT_MEASURED}.`, '');

  out.push('## Micro-benchmarks (apps/bench/src/micro, one run each, medians of their own repetitions)', '');
  const micro = report.micro;
  if (micro === undefined) out.push('Not run.');
  else if ('error' in micro) out.push(`Failed: ${micro.error}`);
  else {
    out.push('| framing decode | MB/s | frames/s |', '| --- | ---: | ---: |');
    for (const r of micro.framing) out.push(`| ${r.name} | ${integer.format(r.mbPerSec)} | ${integer.format(r.framesPerSec)} |`);
    out.push('', '| in-memory jsonrpc (two Peers, linked pair) | round trips/s |', '| --- | ---: |');
    for (const r of micro.jsonrpc) out.push(`| ${r.name} | ${integer.format(r.roundTripsPerSec)} |`);
    if (micro.typed !== undefined) {
      out.push(
        '',
        '| typed authoring: tool registration (McpClient ↔ McpServer in memory, 64 in flight; client + server CPU) | echo µs/call | conjugate µs/call |',
        '| --- | ---: | ---: |',
      );
      for (const r of micro.typed) {
        out.push(
          `| ${r.name} | ${r.echoUs.toFixed(1)} (${r.echoRatio.toFixed(2)}×) | ${r.conjugateUs.toFixed(1)} (${r.conjugateRatio.toFixed(2)}×) |`,
        );
      }
    }
  }
  out.push('');

  const failures = report.repetitions.flatMap((repetition) =>
    Object.entries(repetition.results)
      .filter(([, result]) => 'error' in result)
      .map(([id, result]) => `- repetition ${repetition.index + 1}, ${id}: ${(result as { error: string }).error.split('\n')[0]}`),
  );
  if (failures.length > 0) out.push('## Failures (those repetitions are left out of the medians)', '', ...failures, '');
  return out.join('\n');
}
