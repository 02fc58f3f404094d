/**
 * The matrix of the HTML report: scenario rows grouped by area; columns grouped by server, then transport, then
 * revision, with horizontal headers. Two CSS-only filters (no script: the report stays inert) hide rows without
 * problems or rows where nothing ran; every failing cell links to its details.
 */
import { PROTOCOL_VERSIONS } from '@wiremcp/protocol';
import type { CellResult, CellStatus } from '../runner/cell-types.js';
import type { RunReport } from './run-report.js';

/** Escapes text for HTML element content and double-quoted attributes. */
export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (char) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[char]!);
}

const h = escapeHtml;

/** The symbol of each status in the matrix. */
export const SYMBOLS: Readonly<Record<CellStatus, string>> = {
  pass: '✓',
  fail: '✗',
  warn: '⚠',
  'not-exercised': '∅',
  'not-applicable': '–',
  skip: '·',
  error: 'E',
  'expected-fail': 'x',
  stale: '!',
};

const PROBLEMS: ReadonlySet<CellStatus> = new Set(['fail', 'warn', 'error', 'stale']);
const RAN: ReadonlySet<CellStatus> = new Set(['pass', 'fail', 'warn', 'not-exercised', 'error', 'expected-fail', 'stale']);

interface Column {
  readonly server: string;
  readonly transport: string;
  readonly revision: string;
}

function columnsOf(report: RunReport): Column[] {
  const columns: Column[] = [];
  for (const row of report.summary) {
    for (const revision of PROTOCOL_VERSIONS)
      if (row.byRevision[revision]) columns.push({ server: row.server, transport: row.transport, revision });
  }
  return columns;
}

/** Runs of equal keys, for colspans. */
function spans(columns: readonly Column[], key: (column: Column) => string): Array<{ label: string; span: number; first: boolean }> {
  const out: Array<{ label: string; span: number; first: boolean }> = [];
  let previousServer: string | undefined;
  for (const column of columns) {
    const label = key(column);
    const last = out[out.length - 1];
    const sameGroup = last !== undefined && last.label === label && previousServer === column.server;
    if (sameGroup) last.span += 1;
    else out.push({ label, span: 1, first: previousServer !== column.server });
    previousServer = column.server;
  }
  return out;
}

function statusCell(cell: CellResult | undefined, anchors: ReadonlyMap<CellResult, string>, first: boolean): string {
  const edge = first ? ' g' : '';
  if (!cell) return `<td class="none${edge}"></td>`;
  const detail = cell.failure ? `: ${cell.failure.message.slice(0, 300)}` : cell.reason ? `: ${cell.reason.slice(0, 300)}` : '';
  const title = h(`${cell.scenario} · ${cell.server} · ${cell.transport} · ${cell.revision} — ${cell.status}${detail}`);
  const anchor = anchors.get(cell);
  const symbol = SYMBOLS[cell.status];
  return `<td class="${cell.status}${edge}" title="${title}">${anchor ? `<a href="#${anchor}">${symbol}</a>` : symbol}</td>`;
}

/** The matrix with its filters and legend. */
export function renderMatrix(report: RunReport, anchors: ReadonlyMap<CellResult, string>): string {
  const columns = columnsOf(report);
  const byKey = new Map<string, CellResult>();
  for (const cell of report.cells) byKey.set(`${cell.scenario}|${cell.server}|${cell.transport}|${cell.revision}`, cell);
  const scenarios = [...new Map(report.cells.map((cell) => [cell.scenario, cell])).values()].sort(
    (a, b) => a.area.localeCompare(b.area) || a.scenario.localeCompare(b.scenario),
  );
  const serverRow = spans(columns, (c) => c.server)
    .map((s) => `<th class="g" colspan="${s.span}">${h(s.label)}</th>`)
    .join('');
  const transportRow = spans(columns, (c) => `${c.server}\u0000${c.transport}`)
    .map((s) => `<th class="${s.first ? 'g' : 't'}" colspan="${s.span}">${h(s.label.split('\u0000')[1]!.replace(/^stdio-/, ''))}</th>`)
    .join('');
  let previous: string | undefined;
  const revisionRow = columns
    .map((c) => {
      const first = previous !== c.server;
      previous = c.server;
      return `<th class="r${first ? ' g' : ''}" title="${h(c.revision)}">${h(c.revision.slice(2, 7))}</th>`;
    })
    .join('');
  const rows: string[] = [];
  let area: string | undefined;
  let areaRows: string[] = [];
  let areaClasses = new Set<string>();
  const flush = (): void => {
    if (area === undefined) return;
    rows.push(
      `<tr class="${['area', ...[...areaClasses].sort()].join(' ')}"><th class="a" colspan="${columns.length + 1}">${h(area)}</th></tr>`,
      ...areaRows,
    );
  };
  for (const s of scenarios) {
    if (s.area !== area) {
      flush();
      area = s.area;
      areaRows = [];
      areaClasses = new Set();
    }
    const cells = columns.map((c) => byKey.get(`${s.scenario}|${c.server}|${c.transport}|${c.revision}`));
    const classes = ['row'];
    if (cells.some((cell) => cell && PROBLEMS.has(cell.status))) classes.push('problem');
    if (cells.some((cell) => cell && RAN.has(cell.status))) classes.push('ran');
    for (const name of classes.slice(1)) areaClasses.add(name);
    let last: string | undefined;
    const tds = cells
      .map((cell, index) => {
        const first = columns[index]!.server !== last;
        last = columns[index]!.server;
        return statusCell(cell, anchors, first);
      })
      .join('');
    const level = s.level === 'must' ? '' : ` <span class="lvl">${h(s.level.toUpperCase())}</span>`;
    areaRows.push(`<tr class="${classes.join(' ')}"><th class="s" title="${h(s.title)}">${h(s.scenario)}${level}</th>${tds}</tr>`);
  }
  flush();
  const legend = (Object.entries(SYMBOLS) as Array<[CellStatus, string]>)
    .map(([status, symbol]) => `<span class="${status}">${symbol} ${status}</span>`)
    .join('');
  return [
    `<p class="legend">${legend}</p>`,
    '<div class="filters">',
    '<input type="checkbox" id="f-problems"><label for="f-problems">only scenarios with failures, warnings or errors</label>',
    '<input type="checkbox" id="f-ran"><label for="f-ran">hide scenarios that ran nowhere (not applicable, skipped)</label>',
    `<div class="wrap"><table class="m"><thead><tr><th class="s" rowspan="3">scenario</th>${serverRow}</tr><tr>${transportRow}</tr><tr>${revisionRow}</tr></thead>`,
    `<tbody>${rows.join('')}</tbody></table></div>`,
    '</div>',
  ].join('\n');
}
