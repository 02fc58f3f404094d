import { expect, test } from 'vitest';
import type { CellResult } from '../runner/cell-types.js';
import { escapeHtml, renderHtmlReport } from './html-report.js';
import { buildReport } from './run-report.js';
import { formatSummary } from './summary.js';

const evil = '<script>alert("x")</script>&';

function cell(status: CellResult['status'], extra: Partial<CellResult> = {}): CellResult {
  return {
    scenario: 'tools-call',
    area: 'tools',
    title: 'Calls a tool',
    spec: ['s'],
    level: 'must',
    file: 'tools/tools-call.yaml',
    server: 'grammar',
    transport: 'stdio-ndjson',
    revision: '2025-11-25',
    status,
    durationMs: 3,
    process: 'fresh',
    ...extra,
  };
}

function report(cells: CellResult[]) {
  return buildReport({
    startedAt: '2026-11-22T00:00:00.000Z',
    durationMs: 1234,
    argv: ['wiremcp-conformance', '--scenario', evil],
    jobs: 2,
    options: { startupTimeoutMs: 120_000, timeoutScale: 1 },
    exitCode: 1,
    targets: [{ id: 'grammar', title: evil, origin: 'registry', transports: ['stdio-ndjson'], status: 'ready' }],
    processes: 1,
    scenarioCount: 1,
    scenarioErrors: [],
    baseline: { file: undefined, used: [], stale: [], unused: [] },
    cells,
  });
}

test('escapeHtml escapes the five special characters', () => {
  expect(escapeHtml(`<a href="x">'&'</a>`)).toBe('&lt;a href=&quot;x&quot;&gt;&#39;&amp;&#39;&lt;/a&gt;');
});

test('the report is self-contained and escapes everything a server controls', () => {
  const failing = cell('fail', {
    failure: {
      step: 2,
      stepLabel: 'expect id 2',
      message: evil,
      expected: { id: 2 },
      actual: { id: 2, result: { text: evil } },
      diff: [{ op: '+', text: evil }],
    },
    stderr: evil,
    transcript: [{ at: 1, dir: 'in', message: { evil } }],
  });
  const html = renderHtmlReport(report([failing, cell('pass', { scenario: 'ping' })]));
  expect(html).not.toContain('<script>');
  expect(html).toContain('&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt;&amp;');
  // No external asset: no link, no src, no remote URL.
  expect(html).not.toMatch(/<link|\ssrc=|https?:\/\//);
  expect(html).toContain('FAILED');
  expect(html).toContain('id="cell-0"');
  expect(html).toContain('href="#cell-0"');
});

test('the terminal summary counts per server, transport and revision and lists failures', () => {
  const text = formatSummary(
    [
      cell('pass'),
      cell('fail', { failure: { step: 1, stepLabel: 'expect', message: 'boom' } }),
      cell('skip', { revision: '2026-07-28', reason: 'r' }),
    ],
    2000,
  );
  expect(text).toMatch(/grammar\s+stdio-ndjson\s+1\/1\s+0\/0 s1\s+1\/1 s1/);
  expect(text).toMatch(/tools\s+1\/1 s1/);
  expect(text).toContain('3 cells in 2.0 s: 1 passed, 1 failed, 0 warnings, 0 not exercised, 0 not applicable, 1 skipped, 0 errors');
  expect(text).toContain('✗ tools-call · grammar · stdio-ndjson · 2025-11-25');
});

test('warnings, not-applicable cells and errors are counted apart and listed', () => {
  const text = formatSummary(
    [
      cell('warn', { level: 'should', failure: { step: 1, stepLabel: 'expect', message: 'no -32602 for a bad cursor' } }),
      cell('not-applicable', { scenario: 'a', reason: 'the server does not declare the capability tools' }),
      cell('error', { scenario: 'b', reason: 'the server could not be started: spawn x ENOENT' }),
    ],
    1000,
  );
  expect(text).toMatch(/grammar\s+stdio-ndjson\s+0\/0 w1 n1 e1/);
  expect(text).toContain('⚠ tools-call · grammar · stdio-ndjson · 2025-11-25: no -32602 for a bad cursor');
  expect(text).toContain('1 × grammar · stdio-ndjson: the server could not be started: spawn x ENOENT');
});

test('the matrix groups columns by server and transport, rows by area, and filters without a script', () => {
  const html = renderHtmlReport(
    report([
      cell('pass'),
      cell('warn', { scenario: 'tools-list-invalid-cursor', level: 'should', failure: { step: 1, stepLabel: 'expect', message: 'm' } }),
      cell('not-applicable', { scenario: 'ping', area: 'lifecycle', transport: 'stdio-content-length', reason: 'r' }),
    ]),
  );
  expect(html).toContain('<th class="g" colspan="2">grammar</th>');
  expect(html).toMatch(/<th class="g" colspan="1">ndjson<\/th><th class="t" colspan="1">content-length<\/th>/);
  expect(html).toContain('<tr class="area problem ran"><th class="a" colspan="3">tools</th></tr>');
  expect(html).toContain('<tr class="area"><th class="a" colspan="3">lifecycle</th></tr>');
  expect(html).toContain(
    '<tr class="row problem ran"><th class="s" title="Calls a tool">tools-list-invalid-cursor <span class="lvl">SHOULD</span>',
  );
  expect(html).toContain('id="f-problems"');
  expect(html).toContain('#f-problems:checked~.wrap tr.row:not(.problem)');
  expect(html).toContain('<h2>By area</h2>');
  expect(html).not.toContain('<script');
});
