import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, expect, test } from 'vitest';
import type { OfficialScenario, OfficialSuiteResults } from './official-suite.js';
import { formatRuntimeRows, runtimeRows } from './runtimes.js';

let out: string;
beforeEach(() => {
  out = mkdtempSync(join(tmpdir(), 'wiremcp-runtimes-'));
});
afterEach(() => rmSync(out, { recursive: true, force: true }));

const scenarios = (pass: number, other: OfficialScenario['status'][] = []): OfficialScenario[] => [
  ...Array.from({ length: pass }, (_, index) => ({ name: `s${index}`, status: 'pass' as const })),
  ...other.map((status, index) => ({ name: `o${index}`, status })),
];

const official: OfficialSuiteResults = {
  tool: '@modelcontextprotocol/conformance',
  version: '0.2.0-alpha.12',
  startedAt: '2026-11-29T02:17:33.975Z',
  runs: [
    { server: 'server leg: wiremcp servers/everything', revision: '2025-11-25', scenarios: scenarios(30) },
    { server: 'server leg: wiremcp servers/everything', revision: '2026-07-28', scenarios: scenarios(36, ['skip']) },
    { server: 'server leg: wiremcp servers/everything on Deno 2.9.6', revision: '2025-11-25', scenarios: scenarios(30) },
    { server: 'server leg: wiremcp servers/everything on workerd 1.20261117.1', scenarios: scenarios(60, ['expected-fail', 'fail']) },
    { server: 'client leg: wiremcp client (apps/conformance)', scenarios: scenarios(25, ['fail']) },
  ],
};

test('official server-leg runs become runtime rows; a runtime without runs is "not run" with its command, never passed', () => {
  const [node, deno, bun, workerd, chromium] = runtimeRows(official, out);
  expect(node).toMatchObject({ runtime: 'Node', status: 'ran', passed: 66, failed: 0, notExercised: 1 });
  expect(deno).toMatchObject({ runtime: 'Deno', version: '2.9.6', status: 'ran', passed: 30, failed: 0 });
  expect(bun).toMatchObject({ runtime: 'Bun', status: 'not-run', passed: 0, command: expect.stringContaining('--runtimes') });
  expect(workerd).toMatchObject({ runtime: 'workerd', passed: 60, failed: 1, expectedFailed: 1 });
  expect(chromium).toMatchObject({ runtime: 'Chromium', status: 'not-run', command: expect.stringContaining('tests/browser') });
  expect(runtimeRows(undefined, out).every((row) => row.status === 'not-run' && row.passed === 0)).toBe(true);
  const text = formatRuntimeRows(runtimeRows(official, out));
  expect(text).toMatch(/Bun\s+not run/);
  expect(text).toMatch(/workerd 1\.20261117\.1\s+60 passed, 1 failed, 1 expected failures, 0 not exercised/);
});

test("the browser tests' files make the Chromium row: failures, skipped tests and a failed set-up all count against it", () => {
  const dir = join(out, 'runtimes');
  mkdirSync(dir);
  const write = (name: string, content: unknown): void => writeFileSync(join(dir, name), JSON.stringify(content));
  write('chromium.client-page.json', {
    runtime: 'chromium',
    version: '156.0.7000.1',
    file: 'tests/browser/test/client-page.test.ts',
    finishedAt: '2026-11-29T07:30:00.000Z',
    tests: [
      { name: 'legacy › connects', state: 'pass' },
      { name: 'modern › connects', state: 'fail' },
    ],
  });
  write('chromium.worker-page.json', {
    runtime: 'chromium',
    file: 'tests/browser/test/worker-page.test.ts',
    finishedAt: '2026-11-29T07:20:00.000Z',
    tests: [{ name: 'worker', state: 'skip' }],
    errors: ['Chromium could not be started'],
  });
  writeFileSync(join(dir, 'chromium.oauth-page.json'), '{ truncated');
  const chromium = runtimeRows(undefined, out)[4]!;
  expect(chromium).toMatchObject({
    status: 'ran',
    version: '156.0.7000.1',
    passed: 1,
    failed: 2,
    notExercised: 1,
    at: '2026-11-29T07:20:00.000Z',
  });
  expect(chromium.problems).toEqual([
    expect.stringMatching(/^chromium\.oauth-page\.json: /),
    'tests/browser/test/worker-page.test.ts: Chromium could not be started',
  ]);
});
