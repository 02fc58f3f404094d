/**
 * Counting results, and the terminal summary: a table of servers × transports (rows) by revisions (columns) with
 * pass / fail / skip counts, then every unexpected failure and stale baseline entry.
 */
import { PROTOCOL_VERSIONS } from '@wiremcp/protocol';
import type { CellResult, CellStatus } from '../runner/cell-types.js';

/** Counts of each status. */
export type StatusCounts = Record<CellStatus, number>;

/** An empty count. */
export function emptyCounts(): StatusCounts {
  return { pass: 0, fail: 0, skip: 0, 'expected-fail': 0, stale: 0 };
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

/** True when the run must exit non-zero: an unexpected failure or a stale baseline entry. */
export function runFailed(results: readonly CellResult[]): boolean {
  return results.some((result) => result.status === 'fail' || result.status === 'stale');
}

/** `pass/fail/skip` with `+N xfail` and `!N stale` when there are any; `·` for an empty cell. */
export function formatCounts(counts: StatusCounts | undefined): string {
  if (!counts) return '·';
  let text = `${counts.pass}/${counts.fail}/${counts.skip}`;
  if (counts['expected-fail'] > 0) text += ` x${counts['expected-fail']}`;
  if (counts.stale > 0) text += ` !${counts.stale}`;
  return text;
}

function pad(text: string, width: number): string {
  return text + ' '.repeat(Math.max(0, width - text.length));
}

/** The summary as text lines (no colours: it also goes to CI logs). */
export function formatSummary(results: readonly CellResult[], durationMs: number): string {
  const rows = summaryRows(results);
  const revisions = PROTOCOL_VERSIONS.filter((revision) => results.some((result) => result.revision === revision));
  const header = ['server', 'transport', ...revisions, 'total'];
  const body = rows.map((row) => [
    row.server,
    row.transport,
    ...revisions.map((revision) => formatCounts(row.byRevision[revision])),
    formatCounts(row.total),
  ]);
  const widths = header.map((title, column) => Math.max(title.length, ...body.map((line) => line[column]!.length)));
  const lines = [
    header.map((title, column) => pad(title, widths[column]!)).join('  '),
    widths.map((width) => '-'.repeat(width)).join('  '),
  ];
  for (const line of body) lines.push(line.map((cell, column) => pad(cell, widths[column]!)).join('  '));
  const totals = countStatuses(results);
  lines.push('');
  lines.push(`cells: pass/fail/skip, x = expected failure (baseline), ! = stale baseline entry`);
  lines.push(
    `${results.length} cells in ${(durationMs / 1000).toFixed(1)} s: ${totals.pass} passed, ${totals.fail} failed, ${totals.skip} skipped, ` +
      `${totals['expected-fail']} expected failures, ${totals.stale} stale`,
  );
  const failures = results.filter((result) => result.status === 'fail');
  if (failures.length > 0) {
    lines.push('', 'Unexpected failures:');
    for (const result of failures.slice(0, 50)) {
      lines.push(`  ✗ ${result.scenario} · ${result.server} · ${result.transport} · ${result.revision}`);
      lines.push(
        `      step ${result.failure?.step ?? '?'} (${result.failure?.stepLabel ?? ''}): ${(result.failure?.message ?? '').split('\n')[0]!.slice(0, 300)}`,
      );
    }
    if (failures.length > 50) lines.push(`  … and ${failures.length - 50} more (see the report)`);
  }
  const stale = results.filter((result) => result.status === 'stale');
  if (stale.length > 0) {
    lines.push('', 'Stale baseline entries (these cells pass now: remove the entries):');
    for (const result of stale)
      lines.push(`  ! ${result.scenario} · ${result.server} · ${result.transport} · ${result.revision} — ${result.reason ?? ''}`);
  }
  return lines.join('\n');
}
