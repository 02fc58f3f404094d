/**
 * The self-contained HTML report: one file, inline CSS, no script, no external asset. Every piece of text that
 * comes from a scenario, a server or a message is escaped — a server under test controls those bytes.
 */
import { PROTOCOL_VERSIONS } from '@wiremcp/protocol';
import type { CellResult } from '../runner/cell-types.js';
import type { RunReport } from './run-report.js';
import { formatCounts } from './summary.js';

/** Escapes text for HTML element content and double-quoted attributes. */
export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (char) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[char]!);
}

const h = escapeHtml;

function json(value: unknown): string {
  return h(value === undefined ? '(nothing)' : (JSON.stringify(value, null, 2) ?? String(value)));
}

const CSS = `
body{font:14px/1.45 system-ui,-apple-system,Segoe UI,sans-serif;margin:24px;color:#1d2330;background:#fff}
h1{font-size:22px;margin:0 0 4px}h2{font-size:18px;margin:28px 0 8px;border-bottom:1px solid #dde;padding-bottom:4px}
.meta{color:#556;margin-bottom:12px}code,pre{font:12px/1.4 ui-monospace,SFMono-Regular,Menlo,monospace}
pre{background:#f6f7f9;border:1px solid #e3e6ea;padding:8px;overflow:auto;max-height:420px;white-space:pre-wrap;word-break:break-word}
table{border-collapse:collapse;margin:8px 0}th,td{border:1px solid #dde;padding:3px 7px;text-align:left;vertical-align:top}
th{background:#f1f3f6;font-weight:600}.badge{display:inline-block;padding:2px 8px;border-radius:10px;color:#fff;font-weight:600}
.ok{background:#2e7d32}.bad{background:#c62828}.pass{background:#d7f0d9}.fail{background:#f8c9c9}.skip{background:#eceff1;color:#78909c}
.expected-fail{background:#fde9c4}.stale{background:#e1bee7}.m td{padding:0;width:16px;height:16px;text-align:center;font-size:11px}
.m td a{display:block;width:100%;height:100%;text-decoration:none;color:inherit}.m th.s{font-weight:400;white-space:nowrap}
.m th.v{writing-mode:vertical-rl;transform:rotate(180deg);font-weight:400;font-size:11px;padding:4px 1px}
.diff .add{background:#e6ffed;color:#22863a}.diff .del{background:#ffeef0;color:#b31d28}.diff span{display:block}
details{margin:10px 0;border:1px solid #e3e6ea;border-radius:6px;padding:6px 10px}summary{cursor:pointer;font-weight:600}
.legend span{display:inline-block;padding:1px 6px;margin-right:6px;border:1px solid #ccd}.small{color:#667;font-size:12px}`;

function statusCell(cell: CellResult | undefined, anchors: Map<CellResult, string>): string {
  if (!cell) return '<td></td>';
  const symbol = { pass: '✓', fail: '✗', skip: '·', 'expected-fail': 'x', stale: '!' }[cell.status];
  const title = h(`${cell.status}${cell.reason ? `: ${cell.reason}` : ''}${cell.failure ? `: ${cell.failure.message.slice(0, 300)}` : ''}`);
  const anchor = anchors.get(cell);
  const inner = anchor ? `<a href="#${anchor}">${symbol}</a>` : symbol;
  return `<td class="${cell.status}" title="${title}">${inner}</td>`;
}

function matrix(report: RunReport, anchors: Map<CellResult, string>): string {
  const columns: Array<{ server: string; transport: string; revision: string }> = [];
  const seen = new Set<string>();
  for (const row of report.summary) {
    for (const revision of PROTOCOL_VERSIONS) {
      if (!row.byRevision[revision]) continue;
      const key = `${row.server}|${row.transport}|${revision}`;
      if (!seen.has(key)) (seen.add(key), columns.push({ server: row.server, transport: row.transport, revision }));
    }
  }
  const byKey = new Map<string, CellResult>();
  for (const cell of report.cells) byKey.set(`${cell.scenario}|${cell.server}|${cell.transport}|${cell.revision}`, cell);
  const scenarios = [...new Map(report.cells.map((cell) => [cell.scenario, cell])).values()].sort(
    (a, b) => a.area.localeCompare(b.area) || a.scenario.localeCompare(b.scenario),
  );
  const head = `<tr><th>scenario</th>${columns.map((c) => `<th class="v" title="${h(`${c.server} · ${c.transport} · ${c.revision}`)}">${h(`${c.server} ${c.transport} ${c.revision}`)}</th>`).join('')}</tr>`;
  const rows = scenarios.map((s) => {
    const cells = columns.map((c) => statusCell(byKey.get(`${s.scenario}|${c.server}|${c.transport}|${c.revision}`), anchors)).join('');
    return `<tr><th class="s" title="${h(s.title)}">${h(s.area)}/${h(s.scenario)}</th>${cells}</tr>`;
  });
  return `<table class="m">${head}${rows.join('')}</table>`;
}

function diffBlock(cell: CellResult): string {
  const diff = cell.failure?.diff;
  if (!diff || diff.length === 0) return '';
  const lines = diff
    .map((line) => `<span class="${line.op === '+' ? 'add' : line.op === '-' ? 'del' : ''}">${h(`${line.op} ${line.text}`)}</span>`)
    .join('');
  return `<p class="small">Diff (− expected pattern, + actual message restricted to the keys the pattern names):</p><pre class="diff">${lines}</pre>`;
}

function failureDetails(cell: CellResult, anchor: string, open: boolean): string {
  const f = cell.failure;
  const parts = [
    `<details id="${anchor}"${open ? ' open' : ''}><summary>${h(cell.status === 'expected-fail' ? 'x' : '✗')} ${h(cell.scenario)} · ${h(cell.server)} · ${h(cell.transport)} · ${h(cell.revision)}</summary>`,
    `<p>${h(cell.title)} <span class="small">(${h(cell.file)}; spec: ${h(cell.spec.join(', '))}; level ${h(cell.level)})</span></p>`,
  ];
  if (cell.reason) parts.push(`<p><b>Baseline:</b> ${h(cell.reason)}</p>`);
  if (f) {
    parts.push(`<p><b>Step ${f.step}</b> <code>${h(f.stepLabel)}</code>: ${h(f.message)}</p>`);
    if (f.mismatches?.length) {
      parts.push(
        `<table><tr><th>path</th><th>expected</th><th>actual</th></tr>${f.mismatches.map((m) => `<tr><td><code>${h(m.path || '(root)')}</code></td><td>${h(m.expected)}</td><td><code>${json(m.actual)}</code></td></tr>`).join('')}</table>`,
      );
    }
    if (f.issues?.length)
      parts.push(`<p><b>Schema issues</b></p><pre>${h(f.issues.map((i) => `${i.path || '(root)'}: ${i.message}`).join('\n'))}</pre>`);
    if (f.expected !== undefined) parts.push(`<p><b>Expected pattern</b></p><pre>${json(f.expected)}</pre>`);
    if (f.actual !== undefined) parts.push(`<p><b>Actual message</b></p><pre>${json(f.actual)}</pre>`);
    parts.push(diffBlock(cell));
  }
  if (cell.stderr) parts.push(`<details><summary>stderr (tail)</summary><pre>${h(cell.stderr)}</pre></details>`);
  if (cell.transcript?.length) {
    const lines = cell.transcript.map(
      (entry) =>
        `${String(entry.at).padStart(6)} ms ${entry.dir === 'out' ? '→' : entry.dir === 'in' ? '←' : '•'} ${entry.text ?? JSON.stringify(entry.message)}`,
    );
    parts.push(`<details><summary>transcript (${cell.transcript.length})</summary><pre>${h(lines.join('\n'))}</pre></details>`);
  }
  parts.push('</details>');
  return parts.join('\n');
}

/** Renders the report of a run as one self-contained HTML document. */
export function renderHtmlReport(report: RunReport): string {
  const failures = report.cells.filter((cell) => cell.status === 'fail');
  const expected = report.cells.filter((cell) => cell.status === 'expected-fail');
  const stale = report.cells.filter((cell) => cell.status === 'stale');
  const anchors = new Map<CellResult, string>();
  [...failures, ...expected].forEach((cell, index) => anchors.set(cell, `cell-${index}`));
  const ok = report.exitCode === 0;
  const c = report.counts;
  const revisions = PROTOCOL_VERSIONS.filter((revision) => report.cells.some((cell) => cell.revision === revision));
  const summary = report.summary
    .map(
      (row) =>
        `<tr><td>${h(row.server)}</td><td>${h(row.transport)}</td>${revisions.map((r) => `<td>${h(formatCounts(row.byRevision[r]))}</td>`).join('')}<td><b>${h(formatCounts(row.total))}</b></td></tr>`,
    )
    .join('');
  const skipReasons = new Map<string, number>();
  for (const cell of report.cells)
    if (cell.status === 'skip')
      skipReasons.set(`${cell.server}: ${cell.reason ?? ''}`, (skipReasons.get(`${cell.server}: ${cell.reason ?? ''}`) ?? 0) + 1);
  const body = [
    `<h1>wiremcp conformance report</h1>`,
    `<div class="meta"><span class="badge ${ok ? 'ok' : 'bad'}">${ok ? 'PASSED' : 'FAILED'}</span> ${h(report.startedAt)} · ${(report.durationMs / 1000).toFixed(1)} s · ${report.cells.length} cells · ${report.scenarioCount} scenarios · jobs ${report.jobs}<br><code>${h(report.argv.join(' '))}</code></div>`,
    `<p>${c.pass} passed · ${c.fail} failed · ${c.skip} skipped · ${c['expected-fail']} expected failures · ${c.stale} stale baseline entries</p>`,
    `<h2>Servers</h2><table><tr><th>id</th><th>title</th><th>origin</th><th>transports</th><th>note</th></tr>${report.targets.map((t) => `<tr><td>${h(t.id)}</td><td>${h(t.title)}</td><td>${h(t.origin)}</td><td>${h(t.transports.join(', '))}</td><td>${h(t.unavailable ?? '')}</td></tr>`).join('')}</table>`,
    `<h2>Summary</h2><p class="small">pass/fail/skip per server, transport and revision; x = expected failure (baseline), ! = stale baseline entry.</p><table><tr><th>server</th><th>transport</th>${revisions.map((r) => `<th>${h(r)}</th>`).join('')}<th>total</th></tr>${summary}</table>`,
  ];
  if (report.scenarioErrors.length > 0) {
    body.push(
      `<h2>Scenario files that failed to load (${report.scenarioErrors.length})</h2><pre>${h(report.scenarioErrors.map((e) => e.problems.map((p) => `${e.file}${p.line ? `:${p.line}:${p.column ?? 1}` : ''} ${p.path || '(document)'}: ${p.message}`).join('\n')).join('\n'))}</pre>`,
    );
  }
  body.push(
    `<h2>Matrix</h2><p class="legend"><span class="pass">✓ pass</span><span class="fail">✗ fail</span><span class="expected-fail">x expected</span><span class="stale">! stale</span><span class="skip">· skip</span></p>${matrix(report, anchors)}`,
  );
  body.push(
    `<h2>Unexpected failures (${failures.length})</h2>${failures.length === 0 ? '<p>None.</p>' : failures.map((cell) => failureDetails(cell, anchors.get(cell)!, true)).join('\n')}`,
  );
  if (stale.length > 0)
    body.push(
      `<h2>Stale baseline entries (${stale.length})</h2><ul>${stale.map((cell) => `<li>${h(`${cell.scenario} · ${cell.server} · ${cell.transport} · ${cell.revision}: ${cell.reason ?? ''}`)}</li>`).join('')}</ul>`,
    );
  if (expected.length > 0)
    body.push(
      `<h2>Expected failures (${expected.length})</h2>${expected.map((cell) => failureDetails(cell, anchors.get(cell)!, false)).join('\n')}`,
    );
  if (skipReasons.size > 0)
    body.push(
      `<h2>Skips</h2><table><tr><th>reason</th><th>cells</th></tr>${[...skipReasons].map(([reason, count]) => `<tr><td>${h(reason)}</td><td>${count}</td></tr>`).join('')}</table>`,
    );
  return `<!doctype html>\n<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1"><title>wiremcp conformance — ${ok ? 'passed' : 'failed'}</title><style>${CSS}</style></head><body>\n${body.join('\n')}\n</body></html>\n`;
}
