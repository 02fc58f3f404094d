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
    ...extra,
  };
}

function report(cells: CellResult[]) {
  return buildReport({
    startedAt: '2026-11-22T00:00:00.000Z',
    durationMs: 1234,
    argv: ['wiremcp-conformance', '--scenario', evil],
    jobs: 2,
    exitCode: 1,
    targets: [{ id: 'grammar', title: evil, origin: 'registry', transports: ['stdio-ndjson'] }],
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
  expect(text).toMatch(/grammar\s+stdio-ndjson\s+1\/1\/0\s+0\/0\/1\s+1\/1\/1/);
  expect(text).toContain('3 cells in 2.0 s: 1 passed, 1 failed, 1 skipped');
  expect(text).toContain('✗ tools-call · grammar · stdio-ndjson · 2025-11-25');
});
