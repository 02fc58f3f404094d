/**
 * Counting results, the run's verdict (exit code), and the terminal summary: a table of servers × transports
 * (rows) by revisions (columns), counts per area, then every unexpected failure, error and stale baseline entry.
 */
import { PROTOCOL_VERSIONS } from '@wiremcp/protocol';
import { CELL_STATUSES, type CellResult, type CellStatus } from '../runner/cell-types.js';

/** Counts of each status. */
export type StatusCounts = Record<CellStatus, number>;

/** An empty count. */
export function emptyCounts(): StatusCounts {
  return Object.fromEntries(CELL_STATUSES.map((status) => [status, 0])) as StatusCounts;
}

/** Counts results by status. */
export function countStatuses(results: readonly CellResult[]): StatusCounts {
  const counts = emptyCounts();
  for (const result of results) counts[result.status] += 1;
  return counts;
}

/** One row of the summary: a server over a transport, counts per revision and in total. */
export interface SummaryRow {
  readonly server: string;
  readonly transport: string;
  readonly byRevision: Readonly<Record<string, StatusCounts>>;
  readonly total: StatusCounts;
}

/** The rows of the summary table, in first-seen order of servers and transports. */
export function summaryRows(results: readonly CellResult[]): SummaryRow[] {
  const rows = new Map<string, { server: string; transport: string; byRevision: Record<string, StatusCounts>; total: StatusCounts }>();
  for (const result of results) {
    const key = `${result.server}\u0000${result.transport}`;
    let row = rows.get(key);
    if (!row) {
      row = { server: result.server, transport: result.transport, byRevision: {}, total: emptyCounts() };
      rows.set(key, row);
    }
    const counts = (row.byRevision[result.revision] ??= emptyCounts());
    counts[result.status] += 1;
    row.total[result.status] += 1;
  }
  return [...rows.values()];
}

/** Counts per scenario area, areas sorted by name. */
export function areaCounts(results: readonly CellResult[]): Array<{ readonly area: string; readonly counts: StatusCounts }> {
  const areas = new Map<string, StatusCounts>();
  for (const result of results) {
    const counts = areas.get(result.area) ?? emptyCounts();
    counts[result.status] += 1;
    areas.set(result.area, counts);
  }
  return [...areas].sort(([a], [b]) => a.localeCompare(b)).map(([area, counts]) => ({ area, counts }));
}

/** Statuses of cells that tested something (passed or not). */
const TESTED: readonly CellStatus[] = ['pass', 'fail', 'warn', 'expected-fail', 'stale'];

/** How many cells tested something. */
export function testedCount(results: readonly CellResult[]): number {
  return results.filter((result) => TESTED.includes(result.status)).length;
}

/** True when the run must exit non-zero because of cell results: an unexpected failure or a stale baseline entry. */
export function runFailed(results: readonly CellResult[]): boolean {
  return results.some((result) => result.status === 'fail' || result.status === 'stale');
}

/**
 * The exit code of a run (README "Exit codes"): 3 when a cell could not run (a server could not be started or
 * reached, or the app failed); 1 on an unexpected failure, a stale baseline entry, a scenario file that does not
 * load, or when nothing was tested at all; otherwise 0. Warnings, skips and not-applicable cells do not fail a run.
 */
export function exitCodeOf(results: readonly CellResult[], scenarioErrors: number): 0 | 1 | 3 {
  if (results.some((result) => result.status === 'error')) return 3;
  if (runFailed(results) || scenarioErrors > 0 || testedCount(results) === 0) return 1;
  return 0;
}

const MARKS: ReadonlyArray<[CellStatus, string]> = [
  ['warn', 'w'],
  ['not-exercised', 'u'],
  ['not-applicable', 'n'],
  ['skip', 's'],
  ['error', 'e'],
  ['expected-fail', 'x'],
  ['stale', '!'],
];

/** `pass/fail`, then `wN` warnings, `uN` not exercised, `nN` not applicable, `sN` skipped, `eN` errors, `xN` expected failures, `!N` stale; `·` for none. */
export function formatCounts(counts: StatusCounts | undefined): string {
  if (!counts) return '·';
  let text = `${counts.pass}/${counts.fail}`;
  for (const [status, mark] of MARKS) if (counts[status] > 0) text += ` ${mark}${counts[status]}`;
  return text;
}

/** The legend of {@link formatCounts}. */
export const COUNTS_LEGEND =
  'cells: pass/fail, w = warnings (SHOULD/MAY), u = not exercised (ran, checked nothing), n = not applicable, s = skipped, e = errors, x = expected failures, ! = stale';

function pad(text: string, width: number): string {
  return text + ' '.repeat(Math.max(0, width - text.length));
}

function table(header: string[], body: string[][]): string[] {
  const widths = header.map((title, column) => Math.max(title.length, ...body.map((line) => line[column]!.length)));
  const lines = [
    header.map((title, column) => pad(title, widths[column]!)).join('  '),
    widths.map((width) => '-'.repeat(width)).join('  '),
  ];
  for (const line of body) lines.push(line.map((cell, column) => pad(cell, widths[column]!)).join('  '));
  return lines;
}

function where(result: CellResult): string {
  return `${result.scenario} · ${result.server} · ${result.transport} · ${result.revision}`;
}

function firstLine(text: string | undefined, max = 300): string {
  return (text ?? '').split('\n')[0]!.slice(0, max);
}

/** One sentence with every count. */
export function countsSentence(totals: StatusCounts, cells: number, durationMs: number): string {
  return (
    `${cells} cells in ${(durationMs / 1000).toFixed(1)} s: ${totals.pass} passed, ${totals.fail} failed, ${totals.warn} warnings, ` +
    `${totals['not-exercised']} not exercised, ` +
    `${totals['not-applicable']} not applicable, ${totals.skip} skipped, ${totals.error} errors, ` +
    `${totals['expected-fail']} expected failures, ${totals.stale} stale`
  );
}

/** The summary as text lines (no colours: it also goes to CI logs). */
export function formatSummary(results: readonly CellResult[], durationMs: number): string {
  const revisions = PROTOCOL_VERSIONS.filter((revision) => results.some((result) => result.revision === revision));
  const rows = summaryRows(results).map((row) => [
    row.server,
    row.transport,
    ...revisions.map((revision) => formatCounts(row.byRevision[revision])),
    formatCounts(row.total),
  ]);
  // When nothing ran (the servers could not be started, or nothing applies), the tables would only repeat that.
  const ran = results.some((result) => result.process !== undefined);
  const areas = areaCounts(results).map(({ area, counts }) => [area, formatCounts(counts)]);
  const lines = ran ? [...table(['server', 'transport', ...revisions, 'total'], rows), '', ...table(['area', 'cells'], areas), ''] : [];
  lines.push(COUNTS_LEGEND, countsSentence(countStatuses(results), results.length, durationMs));
  const failures = results.filter((result) => result.status === 'fail');
  if (failures.length > 0) {
    lines.push('', 'Unexpected failures:');
    for (const result of failures.slice(0, 50)) {
      lines.push(`  ✗ ${where(result)}`);
      lines.push(`      step ${result.failure?.step ?? '?'} (${result.failure?.stepLabel ?? ''}): ${firstLine(result.failure?.message)}`);
    }
    if (failures.length > 50) lines.push(`  … and ${failures.length - 50} more (see the report)`);
  }
  const errors = results.filter((result) => result.status === 'error');
  if (errors.length > 0) {
    const reasons = new Map<string, number>();
    for (const result of errors) {
      const reason = `${result.server} · ${result.transport}: ${firstLine(result.reason, 500)}`;
      reasons.set(reason, (reasons.get(reason) ?? 0) + 1);
    }
    lines.push('', `Could not run (${errors.length} cell${errors.length === 1 ? '' : 's'}; the run fails):`);
    for (const [reason, count] of reasons) lines.push(`  ${count} × ${reason}`);
  }
  const warnings = results.filter((result) => result.status === 'warn');
  if (warnings.length > 0) {
    lines.push('', `Warnings (SHOULD/MAY scenarios that failed; they do not fail the run):`);
    for (const result of warnings.slice(0, 20)) {
      const known = result.reason ? ` (baseline: ${firstLine(result.reason, 120)})` : '';
      lines.push(`  ⚠ ${where(result)}: ${firstLine(result.failure?.message, 200)}${known}`);
    }
    if (warnings.length > 20) lines.push(`  … and ${warnings.length - 20} more (see the report)`);
  }
  const stale = results.filter((result) => result.status === 'stale');
  if (stale.length > 0) {
    lines.push('', 'Stale baseline entries (these cells pass now: remove the entries):');
    for (const result of stale) lines.push(`  ! ${where(result)} — ${result.reason ?? ''}`);
  }
  return lines.join('\n');
}
