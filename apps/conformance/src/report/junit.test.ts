import { expect, test } from 'vitest';
import type { CellResult } from '../runner/cell-types.js';
import { escapeXml, renderJunit } from './junit.js';
import { buildReport } from './run-report.js';

function cell(scenario: string, status: CellResult['status'], extra: Partial<CellResult> = {}): CellResult {
  const base = {
    area: 'tools',
    title: 't',
    spec: ['s'],
    level: 'must' as const,
    file: 'f.yaml',
    server: 'grammar',
    transport: 'stdio-ndjson',
  };
  return { ...base, scenario, revision: '2025-11-25', status, durationMs: 12, ...extra };
}

test('XML escaping drops what XML cannot hold', () => {
  expect(escapeXml('<a b="c">&\'\u0000\u001b')).toBe('&lt;a b=&quot;c&quot;&gt;&amp;&apos;\uFFFD\uFFFD');
});

test('one suite per server, transport and revision; each status as CI dashboards read it', () => {
  const report = buildReport({
    startedAt: '2026-11-22T00:00:00.000Z',
    durationMs: 1500,
    argv: [],
    jobs: 2,
    options: { startupTimeoutMs: 1000, timeoutScale: 1 },
    exitCode: 3,
    targets: [],
    processes: 1,
    scenarioCount: 6,
    scenarioErrors: [],
    baseline: { used: [], stale: [], unused: [] },
    cells: [
      cell('a', 'pass'),
      cell('b', 'fail', { failure: { step: 2, stepLabel: 'expect id 2', message: 'no <answer>' } }),
      cell('c', 'warn', { level: 'should', failure: { step: 1, stepLabel: 'expect', message: 'w' } }),
      cell('d', 'not-applicable', { reason: 'no tools' }),
      cell('e', 'error', { reason: 'spawn x ENOENT' }),
      cell('f', 'expected-fail', { revision: '2024-11-05', reason: 'known' }),
    ],
  });
  const xml = renderJunit(report);
  expect(xml).toContain('<testsuites name="wiremcp-conformance" tests="6" failures="1" errors="1" skipped="2" time="1.500">');
  expect(xml).toContain('<testsuite name="grammar · stdio-ndjson · 2025-11-25" tests="5" failures="1" errors="1" skipped="1"');
  expect(xml).toContain('<testcase classname="grammar.stdio-ndjson.2025-11-25.tools" name="a" time="0.012"/>');
  expect(xml).toMatch(/name="b"[^>]*><failure message="no &lt;answer&gt;" type="expect id 2">step 2 \(expect id 2\): no &lt;answer&gt;/);
  expect(xml).toMatch(/name="c"[^>]*><system-out>WARNING \(SHOULD-level scenario failed/);
  expect(xml).toContain('<skipped message="not applicable: no tools"/>');
  expect(xml).toMatch(/name="e"[^>]*><error message="spawn x ENOENT" type="could-not-run">/);
  expect(xml).toContain('<skipped message="expected failure (baseline): known"/>');
});
