/**
 * JUnit XML (`--junit <file>`) for CI dashboards: one `<testsuite>` per server · transport · revision, one
 * `<testcase>` per cell (classname `server.transport.revision.area`, name the scenario id). Failures and stale
 * baseline entries are `<failure>`, cells that could not run `<error>`, skipped, not-exercised, not-applicable and expected
 * failures `<skipped>` with the reason; a warning passes with the finding in `<system-out>`.
 */
import type { CellResult } from '../runner/cell-types.js';
import type { RunReport } from './run-report.js';

// Characters XML 1.0 cannot hold at all (a server's bytes may contain them).
const INVALID_XML = /[\u0000-\u0008\u000B\u000C\u000E-\u001F\uFFFE\uFFFF]/g;

/** Escapes text for XML element content and double-quoted attributes, dropping characters XML cannot hold. */
export function escapeXml(text: string): string {
  return text
    .replace(INVALID_XML, '\uFFFD')
    .replace(/[&<>"']/g, (char) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&apos;' })[char]!);
}

const x = escapeXml;

function seconds(ms: number): string {
  return (ms / 1000).toFixed(3);
}

function details(cell: CellResult): string {
  const f = cell.failure;
  const lines: string[] = [];
  if (f) {
    lines.push(`step ${f.step} (${f.stepLabel}): ${f.message}`);
    if (f.expected !== undefined) lines.push(`expected: ${JSON.stringify(f.expected)}`);
    if (f.actual !== undefined) lines.push(`actual: ${JSON.stringify(f.actual)}`);
  }
  if (cell.reason) lines.push(cell.reason);
  lines.push(`scenario file: ${cell.file}; spec: ${cell.spec.join(', ')}; level: ${cell.level}`);
  if (cell.stderr) lines.push(`server stderr (tail):\n${cell.stderr.slice(-1500)}`);
  return lines.join('\n');
}

function testcase(cell: CellResult): string {
  const open = `<testcase classname="${x(`${cell.server}.${cell.transport}.${cell.revision}.${cell.area}`)}" name="${x(cell.scenario)}" time="${seconds(cell.durationMs)}"`;
  const message = (cell.failure?.message ?? cell.reason ?? '').split('\n')[0]!.slice(0, 500);
  switch (cell.status) {
    case 'pass':
      return `${open}/>`;
    case 'warn':
      return `${open}><system-out>${x(`WARNING (${cell.level.toUpperCase()}-level scenario failed; it does not fail the run)\n${details(cell)}`)}</system-out></testcase>`;
    case 'fail':
      return `${open}><failure message="${x(message)}" type="${x(cell.failure?.stepLabel ?? 'failure')}">${x(details(cell))}</failure></testcase>`;
    case 'stale':
      return `${open}><failure message="${x(`stale baseline entry: the cell passes (${cell.reason ?? ''})`)}" type="stale"/></testcase>`;
    case 'error':
      return `${open}><error message="${x(message)}" type="could-not-run">${x(details(cell))}</error></testcase>`;
    case 'expected-fail':
      return `${open}><skipped message="${x(`expected failure (baseline): ${cell.reason ?? ''}`)}"/></testcase>`;
    case 'not-exercised':
      return `${open}><skipped message="${x(`not exercised: ${cell.reason ?? ''}`)}"/></testcase>`;
    case 'not-applicable':
      return `${open}><skipped message="${x(`not applicable: ${cell.reason ?? ''}`)}"/></testcase>`;
    case 'skip':
      return `${open}><skipped message="${x(`skipped: ${cell.reason ?? ''}`)}"/></testcase>`;
  }
}

/** Renders a run as JUnit XML. */
export function renderJunit(report: RunReport): string {
  const suites = new Map<string, CellResult[]>();
  for (const cell of report.cells) {
    const key = `${cell.server} · ${cell.transport} · ${cell.revision}`;
    suites.set(key, [...(suites.get(key) ?? []), cell]);
  }
  const count = (cells: readonly CellResult[], statuses: readonly string[]): number =>
    cells.filter((cell) => statuses.includes(cell.status)).length;
  const body = [...suites].map(([name, cells]) => {
    const time = cells.reduce((sum, cell) => sum + cell.durationMs, 0);
    const attributes =
      `name="${x(name)}" tests="${cells.length}" failures="${count(cells, ['fail', 'stale'])}" errors="${count(cells, ['error'])}" ` +
      `skipped="${count(cells, ['skip', 'not-exercised', 'not-applicable', 'expected-fail'])}" time="${seconds(time)}" timestamp="${x(report.startedAt.replace(/Z$/, ''))}"`;
    return `  <testsuite ${attributes}>\n${cells.map((cell) => `    ${testcase(cell)}`).join('\n')}\n  </testsuite>`;
  });
  const all = report.cells;
  const top =
    `name="wiremcp-conformance" tests="${all.length}" failures="${count(all, ['fail', 'stale'])}" errors="${count(all, ['error'])}" ` +
    `skipped="${count(all, ['skip', 'not-exercised', 'not-applicable', 'expected-fail'])}" time="${seconds(report.durationMs)}"`;
  return `<?xml version="1.0" encoding="UTF-8"?>\n<testsuites ${top}>\n${body.join('\n')}\n</testsuites>\n`;
}
