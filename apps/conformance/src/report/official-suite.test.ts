import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, expect, test } from 'vitest';
import { renderHtmlReport } from './html-report.js';
import { loadOfficialResults, OfficialResultsError, type OfficialSuiteResults } from './official-suite.js';
import { buildReport } from './run-report.js';

const dirs: string[] = [];

afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

function file(content: string): string {
  const dir = mkdtempSync(join(tmpdir(), 'wiremcp-official-'));
  dirs.push(dir);
  const path = join(dir, 'official.json');
  writeFileSync(path, content);
  return path;
}

const official: OfficialSuiteResults = {
  tool: '@modelcontextprotocol/conformance',
  version: '0.2.0-alpha.12',
  command: 'conformance server --url http://127.0.0.1:3001/mcp --suite all',
  runs: [
    {
      server: 'everything',
      transport: 'streamable-http',
      revision: '2025-11-25',
      suite: 'all',
      scenarios: [
        { name: 'tools-list', status: 'pass', checks: { passed: 3, failed: 0, warnings: 0 } },
        { name: 'server-sse-polling', status: 'fail', scored: false, failures: [{ check: 'wire-schema-valid', message: 'no <retry>' }] },
      ],
    },
  ],
};

test('official results are validated against results.schema.json and refused with the reason', () => {
  expect(loadOfficialResults(file(JSON.stringify(official)))).toEqual(official);
  expect(() => loadOfficialResults(file('{"tool": "x", "runs": []}'))).toThrow(OfficialResultsError);
  expect(() => loadOfficialResults(file('{"tool": "x", "runs": []}'))).toThrow(/must have required property 'version'/);
  expect(() => loadOfficialResults(file('not json'))).toThrow(/--official-results .*: Unexpected token/);
});

test('the HTML report shows the official suite beside the matrix, escaped', () => {
  const report = buildReport({
    startedAt: '2026-11-22T00:00:00.000Z',
    durationMs: 1,
    argv: [],
    jobs: 1,
    options: { startupTimeoutMs: 1000, timeoutScale: 1 },
    exitCode: 0,
    targets: [],
    processes: 0,
    scenarioCount: 0,
    scenarioErrors: [],
    baseline: { used: [], stale: [], unused: [] },
    cells: [],
    officialSuite: official,
  });
  const html = renderHtmlReport(report);
  expect(html).toContain('<h2>Official conformance suite</h2>');
  expect(html).toContain('<h3>everything · streamable-http · 2025-11-25 · all</h3><p>1 passed · 1 failed');
  expect(html).toContain('server-sse-polling <span class="small">(not scored)</span>');
  expect(html).toContain('wire-schema-valid: no &lt;retry&gt;');
});
