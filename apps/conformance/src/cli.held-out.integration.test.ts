/**
 * The held-out check: the app run, as a user runs it, against three servers written by others — the official
 * everything and filesystem servers from npm (SDK 1.x) and an example server on the official SDK v2 — each with
 * `held-out-baseline.yaml`, whose entries are the servers' known defects, each linked to where it is tracked.
 * A server's run must have no unexpected failure and no error, and its expected failures must be exactly the known
 * ones: a defect fixed upstream (a stale entry) or a new failure (a regression of the app or of the server) fails
 * the test. Every process a test starts is stopped by the test.
 */
import { existsSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeAll, describe, expect, test } from 'vitest';
import { PACKAGE_ROOT } from './paths.js';
import type { RunReport } from './report/run-report.js';
import { CLI, runCli, stopStarted, tempDir } from './testing/run-cli.test-util.js';

const BASELINE = join(PACKAGE_ROOT, 'held-out-baseline.yaml');
const PACKAGES = join(PACKAGE_ROOT, 'node_modules', '@modelcontextprotocol');
const EVERYTHING = join(PACKAGES, 'server-everything', 'dist', 'index.js');
const FILESYSTEM = join(PACKAGES, 'server-filesystem', 'dist', 'index.js');
const SDK_V2_EXAMPLE = join(PACKAGE_ROOT, 'src', 'testing', 'sdk-v2-example-server.mjs');

const LEGACY = ['2024-11-05', '2025-03-26', '2025-06-18', '2025-11-25'];
const ALL = [...LEGACY, '2026-07-28'];

/** Frames the SDK's stdio transport drops instead of answering (typescript-sdk#2247, PR #2488). */
const DROPPED_FRAMES = [
  'empty-batch',
  'invalid-request-jsonrpc-version',
  'invalid-request-method-not-string',
  'invalid-request-not-an-object',
  'params-not-an-object',
  'parse-error',
];

/** `scenario revision` for each scenario on each revision. */
function on(scenarios: readonly string[], revisions: readonly string[]): string[] {
  return scenarios.flatMap((scenario) => revisions.map((revision) => `${scenario} ${revision}`));
}

const TIMEOUT_MS = 420_000;

beforeAll(() => {
  if (!existsSync(CLI)) throw new Error(`${CLI} is missing: build first (npm test builds before running vitest)`);
  for (const file of [EVERYTHING, FILESYSTEM]) if (!existsSync(file)) throw new Error(`${file} is missing: pnpm install first`);
});

afterEach(() => stopStarted());

/** Runs the app against `command` named `name` with the held-out baseline, and checks the verdict against `known`. */
async function checkHeldOut(command: string, name: string, known: readonly string[]): Promise<RunReport> {
  const { code, stdout, stderr, report } = await runCli(
    ['--command', command, '--name', name, '--baseline', BASELINE],
    TIMEOUT_MS - 10_000,
  );
  expect(report, `no results.json; stderr: ${stderr.slice(-2000)}`).toBeDefined();
  const cells = report!.cells;
  const describeCell = (cell: RunReport['cells'][number]) => `${cell.scenario} ${cell.revision}: ${cell.failure?.message ?? cell.reason}`;
  // Nothing failed that the baseline does not list, and nothing broke.
  expect(cells.filter((cell) => cell.status === 'fail' || cell.status === 'error' || cell.status === 'stale').map(describeCell)).toEqual(
    [],
  );
  // The listed failures are exactly the known defects: each happened, and nothing else is excused.
  const excused = cells.filter((cell) => cell.status === 'expected-fail').map((cell) => `${cell.scenario} ${cell.revision}`);
  expect(excused.sort()).toEqual([...known].sort());
  expect(report!.baseline.stale).toEqual([]);
  expect(report!.baseline.unused.filter((entry) => entry.server === name)).toEqual([]);
  // Every entry names where the defect is tracked, or says that no report of it was found.
  for (const entry of report!.baseline.used)
    expect(entry.link ?? entry.reason, entry.scenario).toMatch(/^https:\/\/|no upstream report was found$/);
  // It was a real run: cells passed on every revision the server speaks, none was skipped for a broken start.
  expect(cells.filter((cell) => cell.status === 'pass').length).toBeGreaterThan(50);
  expect(report!.targets[0]).toMatchObject({ status: 'ready' });
  expect(stdout).toContain('0 failed');
  expect(code).toBe(0);
  return report!;
}

describe('held-out: servers written by others, with only their known defects baselined', () => {
  test(
    'the official everything server (npm, SDK 1.x stdio)',
    async () => {
      const report = await checkHeldOut(`node ${EVERYTHING} stdio`, 'held-out-everything', [
        ...on(DROPPED_FRAMES, LEGACY),
        'batch-2025-03-26 2025-03-26',
        ...on(['tools-call-unknown-tool'], LEGACY),
      ]);
      // A legacy-only server: the 2026-07-28 cells do not apply to it (they are not counted as passes).
      expect(report.cells.filter((cell) => cell.revision === '2026-07-28').every((cell) => cell.status === 'not-applicable')).toBe(true);
    },
    TIMEOUT_MS,
  );

  test(
    'the official filesystem server (npm, SDK 1.x stdio)',
    async () => {
      const root = tempDir('wiremcp-held-out-fs-');
      writeFileSync(join(root, 'notes.txt'), 'held-out\n');
      await checkHeldOut(`node ${FILESYSTEM} ${root}`, 'held-out-filesystem', [
        ...on(DROPPED_FRAMES, LEGACY),
        'batch-2025-03-26 2025-03-26',
        ...on(['tools-call-unknown-tool'], LEGACY),
      ]);
    },
    TIMEOUT_MS,
  );

  test(
    'an example server on the official SDK v2 (dual-era stdio)',
    async () => {
      const report = await checkHeldOut(`node ${SDK_V2_EXAMPLE}`, 'held-out-sdk-v2', [
        ...on(DROPPED_FRAMES, ALL),
        'batch-2025-03-26 2025-03-26',
        'no-state-from-earlier-requests 2026-07-28',
        'unsupported-protocol-version 2026-07-28',
      ]);
      const status = (scenario: string, revision: string) =>
        report.cells.find((cell) => cell.scenario === scenario && cell.revision === revision)?.status;
      // A dual-era server may read a discover without the version claim as legacy traffic (-32601): a pass.
      expect(status('missing-protocol-version-meta', '2026-07-28')).toBe('pass');
      // Serving a request before initialize is allowed (no revision requires the refusal): a warning, not a failure.
      for (const revision of LEGACY) expect(status('request-before-initialize', revision)).toBe('warn');
    },
    TIMEOUT_MS,
  );
});
