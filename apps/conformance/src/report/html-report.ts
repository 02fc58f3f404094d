/**
 * The self-contained HTML report: one file, inline CSS, no script, no external asset. Every piece of text that
 * comes from a scenario, a server or a message is escaped — a server under test controls those bytes.
 */
import { PROTOCOL_VERSIONS } from '@wiremcp/protocol';
import type { CellResult } from '../runner/cell-types.js';
import { escapeHtml, renderMatrix, SYMBOLS } from './html-matrix.js';
import { officialCounts } from './official-suite.js';
import type { RunReport } from './run-report.js';
import { COUNTS_LEGEND, countsSentence, formatCounts } from './summary.js';

export { escapeHtml };

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
.ok{background:#2e7d32}.bad{background:#c62828}.pass{background:#d7f0d9}.fail{background:#f8c9c9}.warn{background:#fff3c4}
.not-applicable{background:#f7f8fa;color:#aab}.not-exercised{background:#fff3e0;color:#8d6e63}.skip{background:#eceff1;color:#78909c}.error{background:#e57373;color:#fff}
.expected-fail{background:#fde9c4}.stale{background:#e1bee7}
.wrap{overflow:auto;max-width:100%}.m{font-size:12px}.m td{padding:0;min-width:18px;height:18px;text-align:center}
.m td a{display:block;text-decoration:none;color:inherit}.m th.s{font-weight:400;white-space:nowrap;position:sticky;left:0;background:#fff}
.m thead th{text-align:center;font-size:11px;white-space:nowrap;padding:2px 4px}.m th.r{font-weight:400}.m th.a{background:#e8ebf0;text-align:left}
.m .g{border-left:2px solid #8a94a6}.m td.none{background:#fff}.lvl{font-size:10px;color:#8a6d00;border:1px solid #e0c060;border-radius:3px;padding:0 2px}
.filters input{margin:0 4px 0 0}.filters label{margin-right:18px}
#f-problems:checked~.wrap tr.row:not(.problem),#f-problems:checked~.wrap tr.area:not(.problem){display:none}
#f-ran:checked~.wrap tr.row:not(.ran),#f-ran:checked~.wrap tr.area:not(.ran){display:none}
.diff .add{background:#e6ffed;color:#22863a}.diff .del{background:#ffeef0;color:#b31d28}.diff span{display:block}
details{margin:10px 0;border:1px solid #e3e6ea;border-radius:6px;padding:6px 10px}summary{cursor:pointer;font-weight:600}
.legend span{display:inline-block;padding:1px 6px;margin-right:6px;border:1px solid #ccd}.small{color:#667;font-size:12px}`;

function diffBlock(cell: CellResult): string {
  const diff = cell.failure?.diff;
  if (!diff || diff.length === 0) return '';
  const lines = diff
    .map((line) => `<span class="${line.op === '+' ? 'add' : line.op === '-' ? 'del' : ''}">${h(`${line.op} ${line.text}`)}</span>`)
    .join('');
  return `<p class="small">Diff (− expected pattern, + actual message restricted to the keys the pattern names):</p><pre class="diff">${lines}</pre>`;
}

function cellDetails(cell: CellResult, anchor: string, open: boolean): string {
  const f = cell.failure;
  const parts = [
    `<details id="${anchor}"${open ? ' open' : ''}><summary>${h(SYMBOLS[cell.status])} ${h(cell.scenario)} · ${h(cell.server)} · ${h(cell.transport)} · ${h(cell.revision)}</summary>`,
    `<p>${h(cell.title)} <span class="small">(${h(cell.file)}; spec: ${h(cell.spec.join(', '))}; level ${h(cell.level)}${cell.process ? `; ${h(cell.process)} process` : ''})</span></p>`,
  ];
  if (cell.reason) parts.push(`<p><b>${cell.status === 'error' ? 'Could not run' : 'Baseline'}:</b> ${h(cell.reason)}</p>`);
  if (f) {
    parts.push(`<p><b>Step ${f.step}</b> <code>${h(f.stepLabel)}</code>: ${h(f.message)}</p>`);
    if (f.mismatches?.length) {
      const rows = f.mismatches.map(
        (m) => `<tr><td><code>${h(m.path || '(root)')}</code></td><td>${h(m.expected)}</td><td><code>${json(m.actual)}</code></td></tr>`,
      );
      parts.push(`<table><tr><th>path</th><th>expected</th><th>actual</th></tr>${rows.join('')}</table>`);
    }
    if (f.issues?.length)
      parts.push(`<p><b>Schema issues</b></p><pre>${h(f.issues.map((i) => `${i.path || '(root)'}: ${i.message}`).join('\n'))}</pre>`);
    if (f.expected !== undefined) parts.push(`<p><b>Expected pattern</b></p><pre>${json(f.expected)}</pre>`);
    if (f.actual !== undefined) parts.push(`<p><b>Actual message</b></p><pre>${json(f.actual)}</pre>`);
    parts.push(diffBlock(cell));
  }
  if (cell.stderr) parts.push(`<details><summary>stderr (tail)</summary><pre>${h(cell.stderr)}</pre></details>`);
  if (cell.transcript?.length) {
    const arrow = { out: '→', in: '←', note: '•' } as const;
    const lines = cell.transcript.map(
      (entry) => `${String(entry.at).padStart(6)} ms ${arrow[entry.dir]} ${entry.text ?? JSON.stringify(entry.message)}`,
    );
    parts.push(`<details><summary>transcript (${cell.transcript.length})</summary><pre>${h(lines.join('\n'))}</pre></details>`);
  }
  parts.push('</details>');
  return parts.join('\n');
}

function targetsTable(report: RunReport): string {
  const rows = report.targets.map((t) => {
    const warm = t.warmUp;
    const who = warm?.serverInfo ? ` — ${warm.serverInfo.name}${warm.serverInfo.version ? ` ${warm.serverInfo.version}` : ''}` : '';
    const state =
      t.status === 'ready'
        ? `ready: answered ${warm?.asked ?? '?'} after ${((warm?.ms ?? 0) / 1000).toFixed(1)} s${who}`
        : t.status === 'unavailable'
          ? `skipped: ${t.unavailable ?? ''}`
          : `could not be started or reached: ${t.error ?? ''}`;
    const known = t.knownAs ? ` (named as ${t.knownAs})` : t.resembles ? ` (reports the serverInfo of ${t.resembles}; not applied)` : '';
    return `<tr class="${t.status === 'error' ? 'error' : ''}"><td>${h(t.id)}${h(known)}</td><td>${h(t.title)}</td><td>${h(t.origin)}</td><td>${h(t.transports.join(', '))}</td><td>${h(state)}</td></tr>`;
  });
  return `<table><tr><th>id</th><th>title</th><th>origin</th><th>transports</th><th>start</th></tr>${rows.join('')}</table>`;
}

function officialSection(report: RunReport): string {
  const suite = report.officialSuite;
  if (!suite) return '';
  const runs = suite.runs.map((run) => {
    const c = officialCounts(run);
    const problems = run.scenarios.filter((s) => s.status !== 'pass');
    const list = problems.length
      ? `<table><tr><th>scenario</th><th>status</th><th>checks</th><th>what failed</th></tr>${problems
          .map(
            (s) =>
              `<tr class="${s.status}"><td>${h(s.name)}${s.scored === false ? ' <span class="small">(not scored)</span>' : ''}</td><td>${h(s.status)}</td><td>${h(s.checks ? `${s.checks.passed ?? 0} passed, ${s.checks.failed ?? 0} failed, ${s.checks.warnings ?? 0} warnings, ${s.checks.skipped ?? 0} skipped` : '')}</td><td>${h((s.failures ?? []).map((f) => `${f.check ? `${f.check}: ` : ''}${f.message}`).join('; '))}</td></tr>`,
          )
          .join('')}</table>`
      : '<p>Every scenario passed.</p>';
    const head = [run.server, run.transport, run.revision, run.suite].filter((part) => part !== undefined).join(' · ');
    const counts = `${c.pass} passed · ${c.fail} failed · ${c.warn} warnings · ${c['not-exercised']} not exercised · ${c['not-run']} not run · ${c['not-applicable']} not applicable · ${c.skip} skipped · ${c['expected-fail']} expected failures`;
    return `<h3>${h(head)}</h3><p>${counts}</p>${list}`;
  });
  return `<h2>Official conformance suite</h2><p class="small">${h(`${suite.tool} ${suite.version}`)}${suite.command ? ` — <code>${h(suite.command)}</code>` : ''} (reported beside the matrix; it does not change the exit code)</p>${runs.join('\n')}`;
}

function runtimesSection(report: RunReport): string {
  const rows = report.runtimes;
  if (!rows) return '';
  const cells = rows.map((row) => {
    const name = `${row.runtime}${row.version ? ` ${row.version}` : ''}`;
    if (row.status === 'not-run')
      return `<tr class="skip"><td>${h(name)}</td><td>${h(row.check)}</td><td colspan="4"><b>not run</b> — <code>${h(row.command)}</code></td><td></td></tr>`;
    const problems = (row.problems ?? []).map((problem) => `<br><span class="small">${h(problem)}</span>`).join('');
    return `<tr class="${row.failed > 0 ? 'fail' : row.passed > 0 ? 'pass' : 'skip'}"><td>${h(name)}</td><td>${h(row.check)}${problems}</td><td>${row.passed}</td><td>${row.failed}</td><td>${row.expectedFailed}</td><td>${row.notExercised}</td><td>${h(row.at ?? '')}</td></tr>`;
  });
  return `<h2>Runtimes</h2><p class="small">The everything server's <code>createHttpHandler</code> on each runtime's own HTTP server, checked by the official suite's server leg, and the client and server in Chromium pages (<code>tests/browser</code>). A runtime without results is not run, never passed.</p><table><tr><th>runtime</th><th>what ran</th><th>passed</th><th>failed</th><th>expected failures</th><th>not exercised</th><th>when</th></tr>${cells.join('')}</table>`;
}

function reasonsTable(report: RunReport, status: 'skip' | 'not-applicable' | 'not-exercised'): string {
  const reasons = new Map<string, number>();
  for (const cell of report.cells)
    if (cell.status === status)
      reasons.set(`${cell.server}: ${cell.reason ?? ''}`, (reasons.get(`${cell.server}: ${cell.reason ?? ''}`) ?? 0) + 1);
  if (reasons.size === 0) return '';
  const title = { skip: 'Skipped', 'not-applicable': 'Not applicable', 'not-exercised': 'Not exercised (ran, checked nothing)' }[status];
  return `<h2>${title} (${[...reasons.values()].reduce((a, b) => a + b, 0)})</h2><table><tr><th>reason</th><th>cells</th></tr>${[...reasons]
    .sort((a, b) => b[1] - a[1])
    .map(([reason, count]) => `<tr><td>${h(reason)}</td><td>${count}</td></tr>`)
    .join('')}</table>`;
}

/** Renders the report of a run as one self-contained HTML document. */
export function renderHtmlReport(report: RunReport): string {
  const byStatus = (status: CellResult['status']): CellResult[] => report.cells.filter((cell) => cell.status === status);
  const [failures, errors, warnings, expected, stale] = [
    byStatus('fail'),
    byStatus('error'),
    byStatus('warn'),
    byStatus('expected-fail'),
    byStatus('stale'),
  ];
  const anchors = new Map<CellResult, string>();
  [...failures, ...errors, ...warnings, ...expected].forEach((cell, index) => anchors.set(cell, `cell-${index}`));
  const ok = report.exitCode === 0;
  const revisions = PROTOCOL_VERSIONS.filter((revision) => report.cells.some((cell) => cell.revision === revision));
  const summary = report.summary
    .map(
      (row) =>
        `<tr><td>${h(row.server)}</td><td>${h(row.transport)}</td>${revisions.map((r) => `<td>${h(formatCounts(row.byRevision[r]))}</td>`).join('')}<td><b>${h(formatCounts(row.total))}</b></td></tr>`,
    )
    .join('');
  const areas = report.areas.map(({ area, counts }) => `<tr><td>${h(area)}</td><td>${h(formatCounts(counts))}</td></tr>`).join('');
  const section = (title: string, cells: CellResult[], open: boolean): string =>
    cells.length === 0
      ? ''
      : `<h2>${title} (${cells.length})</h2>${cells.map((cell) => cellDetails(cell, anchors.get(cell)!, open)).join('\n')}`;
  const body = [
    `<h1>wiremcp conformance report</h1>`,
    `<div class="meta"><span class="badge ${ok ? 'ok' : 'bad'}">${ok ? 'PASSED' : 'FAILED'}</span> ${h(report.startedAt)} · ${(report.durationMs / 1000).toFixed(1)} s · ${report.cells.length} cells · ${report.scenarioCount} scenarios · ${report.processes} server processes · jobs ${report.jobs}<br><code>${h(report.argv.join(' '))}</code></div>`,
    `<p>${h(countsSentence(report.counts, report.cells.length, report.durationMs))}</p>`,
    `<h2>Servers</h2>${targetsTable(report)}`,
    `<h2>Summary</h2><p class="small">${h(COUNTS_LEGEND)}</p><table><tr><th>server</th><th>transport</th>${revisions.map((r) => `<th>${h(r)}</th>`).join('')}<th>total</th></tr>${summary}</table>`,
    `<h2>By area</h2><table><tr><th>area</th><th>cells</th></tr>${areas}</table>`,
    officialSection(report),
    runtimesSection(report),
  ];
  if (report.scenarioErrors.length > 0) {
    const lines = report.scenarioErrors.flatMap((e) =>
      e.problems.map((p) => `${e.file}${p.line ? `:${p.line}:${p.column ?? 1}` : ''} ${p.path || '(document)'}: ${p.message}`),
    );
    body.push(`<h2>Scenario files that failed to load (${report.scenarioErrors.length})</h2><pre>${h(lines.join('\n'))}</pre>`);
  }
  body.push(`<h2>Matrix</h2>${renderMatrix(report, anchors)}`);
  body.push(failures.length === 0 ? '<h2>Unexpected failures (0)</h2><p>None.</p>' : section('Unexpected failures', failures, true));
  body.push(section('Cells that could not run', errors, true));
  if (stale.length > 0) {
    const items = stale.map(
      (cell) => `<li>${h(`${cell.scenario} · ${cell.server} · ${cell.transport} · ${cell.revision}: ${cell.reason ?? ''}`)}</li>`,
    );
    body.push(`<h2>Stale baseline entries (${stale.length})</h2><ul>${items.join('')}</ul>`);
  }
  body.push(section('Warnings (SHOULD/MAY)', warnings, false), section('Expected failures', expected, false));
  body.push(reasonsTable(report, 'not-exercised'), reasonsTable(report, 'not-applicable'), reasonsTable(report, 'skip'));
  const title = `wiremcp conformance — ${ok ? 'passed' : 'failed'}`;
  return `<!doctype html>\n<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1"><title>${title}</title><style>${CSS}</style></head><body>\n${body.filter((part) => part !== '').join('\n')}\n</body></html>\n`;
}
