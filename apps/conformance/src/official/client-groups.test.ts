// The client leg scenario by scenario: the plan is what the suite's own run would cover, never more than N run at
// once, and a scenario without a result of its own is not run (counted apart), never a pass.
import { chmodSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, test } from 'vitest';
import {
  limitClientRequirements,
  mergeScenarioRuns,
  parseClientScenarioList,
  plannedClientScenarios,
  runAtMost,
  runClientScenarios,
  selectClientScenarios,
  selectedButUnplanned,
  type ScenarioRun,
} from './client-groups.js';
import type { ScenarioOutcome } from './results.js';
import type { OfficialSuite } from './suite.js';

const outcome = (name: string, passed = true): ScenarioOutcome => ({
  name,
  passed,
  exercised: true,
  checks: { passed: passed ? 1 : 0, failed: passed ? 0 : 1, warnings: 0, skipped: 0 },
  failures: [],
});

const ran = (scenario: string, found: ScenarioOutcome[], output = ''): ScenarioRun => ({
  scenario,
  exitCode: found.length > 0 ? 0 : 1,
  output,
  outcomes: new Map(found.map((entry) => [entry.name, entry])),
});

describe('the plan', () => {
  test("reads the suite's list of client scenarios, and only the client section", () => {
    const output = [
      'Server scenarios (test against a server):',
      '  - server-initialize [2025-06-18..2025-11-25]',
      '',
      'Client scenarios (test against a client):',
      '  - initialize [2025-06-18..2025-11-25]',
      '  - auth/metadata-default',
      '  - tools_call [2025-06-18+]',
      '',
      'Authorization server scenarios (test against an authorization server):',
      '  - authorization-server-metadata',
    ].join('\n');
    expect(parseClientScenarioList(output)).toEqual(['initialize', 'auth/metadata-default', 'tools_call']);
    expect(parseClientScenarioList('Error: something else')).toEqual([]);
  });

  test("a revision's run covers its scored and not-scored client scenarios; a scored one the suite lacks stays planned", () => {
    const requirements = {
      scored: { server: ['ping'], client: ['initialize', 'auth/gone'] },
      notScored: { server: [], client: ['auth/dpop', 'auth/not-in-this-build'] },
    };
    const available = ['initialize', 'auth/dpop', 'tools_call'];
    expect(plannedClientScenarios(available, requirements)).toEqual(['initialize', 'auth/gone', 'auth/dpop']);
    // --suite all: every client scenario the suite provides.
    expect(plannedClientScenarios(available)).toEqual(available);
  });

  test('a selection keeps only its scenarios, scores them alone, and keeps a name the suite lacks so that it is not run', () => {
    const available = ['initialize', 'tools_call', 'auth/metadata-default', 'auth/metadata-var1', 'auth/dpop'];
    const requirements = {
      scored: { server: ['ping'], client: ['initialize', 'tools_call', 'auth/metadata-default', 'auth/metadata-var1'] },
      notScored: { server: ['pong'], client: ['auth/dpop'] },
    };
    const only = selectClientScenarios(available, ['tools_call', 'auth/metadata-*', 'renamed-away']);
    expect([...only]).toEqual(['tools_call', 'auth/metadata-default', 'auth/metadata-var1', 'renamed-away']);
    expect(plannedClientScenarios(available, requirements, only)).toEqual(['tools_call', 'auth/metadata-default', 'auth/metadata-var1']);
    // --suite all plans every selected name, listed or not: the one the suite lacks leaves no result, so it is not run.
    expect(plannedClientScenarios(available, undefined, only)).toEqual([...only]);
    expect(mergeScenarioRuns([...only], [ran('tools_call', [outcome('tools_call')])]).notRun).toContain('renamed-away');
    // Scored out of the selection alone; the server leg's lists are untouched.
    expect(limitClientRequirements(requirements, only)).toEqual({
      scored: { server: ['ping'], client: ['tools_call', 'auth/metadata-default', 'auth/metadata-var1'] },
      notScored: { server: ['pong'], client: [] },
    });
    // Only the scored runs: a selected scenario of --suite all alone is in no plan, so it is not run (and fails the run).
    const scoredPlans = [plannedClientScenarios(available, limitClientRequirements(requirements, only), only)];
    expect(selectedButUnplanned(only, scoredPlans)).toEqual(['renamed-away']);
    expect(selectedButUnplanned(only, [...scoredPlans, plannedClientScenarios(available, undefined, only)])).toEqual([]);
    // A selection that would run nothing is refused.
    expect(() => selectClientScenarios(available, [])).toThrow(/no client scenario/);
    expect(() => selectClientScenarios(available, ['auth/iss-*'])).toThrow(/matches none/);
    expect(() => selectClientScenarios(available, ['*'])).toThrow(/does not name/);
    expect(() => selectClientScenarios(available, [''])).toThrow(/does not name/);
  });
});

describe('at most N at a time', () => {
  test('never more than the limit run at once, each item once, results in the items’ order', async () => {
    let running = 0;
    let most = 0;
    const releases: Array<() => void> = [];
    const items = Array.from({ length: 11 }, (_, index) => index);
    const all = runAtMost(items, 4, async (item) => {
      running++;
      most = Math.max(most, running);
      await new Promise<void>((release) => releases.push(release));
      running--;
      return item * 10;
    });
    // Release one waiting run at a time, as each one is started: the pool refills up to its limit and no further.
    for (let released = 0; released < items.length; released++) {
      while (releases.length <= released) await new Promise((tick) => setImmediate(tick));
      expect(running).toBeLessThanOrEqual(4);
      releases[released]!();
    }
    expect(await all).toEqual(items.map((item) => item * 10));
    expect(most).toBe(4);
  });

  test('a limit above the number of items starts them all; a limit below 1 is refused', async () => {
    expect(await runAtMost(['a', 'b'], 8, async (item, index) => `${item}${index}`)).toEqual(['a0', 'b1']);
    await expect(runAtMost(['a'], 0, async (item) => item)).rejects.toThrow(/a whole number of at least 1/);
  });
});

describe('merging the runs', () => {
  test('a planned scenario counts only with a result from its own run; none is not run, a skip is not applicable', () => {
    const merged = mergeScenarioRuns(
      ['initialize', 'tools_call', 'sse-retry', 'auth/dpop', 'auth/basic-cimd', 'never-started'],
      [
        ran('initialize', [outcome('initialize')]),
        ran('tools_call', [outcome('tools_call', false)]),
        // Its run wrote nothing (the suite's process crashed or was killed at its limit).
        ran('sse-retry', [], 'Client test error: Error: listen EADDRINUSE'),
        // A result under another name does not stand for the planned one.
        ran('auth/dpop', [outcome('auth/dpop-nonce')]),
        ran('auth/basic-cimd', [], "SKIPPED: scenario 'auth/basic-cimd' is not applicable at spec version 2026-07-28 (…)"),
      ],
    );
    expect([...merged.outcomes.keys()]).toEqual(['initialize', 'tools_call']);
    expect(merged.outcomes.get('tools_call')?.passed).toBe(false);
    expect(merged.notRun).toEqual(['sse-retry', 'auth/dpop', 'never-started']);
    expect(merged.notApplicable).toEqual(['auth/basic-cimd']);
  });
});

describe('runs of the suite, one scenario each', () => {
  let dir: string;
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  // A stand-in for the suite's CLI: for `client --scenario <name> … -o <dir>` it writes what that scenario is set to
  // do, and logs its arguments.
  const FAKE_SUITE = `
const fs = require('node:fs'), path = require('node:path');
const args = process.argv.slice(2);
const scenario = args[args.indexOf('--scenario') + 1];
const out = args[args.indexOf('-o') + 1];
fs.appendFileSync(process.env.FAKE_LOG, JSON.stringify(args) + '\\n');
const write = (checks) => {
  const at = path.join(out, scenario + '-2026-11-29T10-00-00-000Z');
  fs.mkdirSync(at, { recursive: true });
  fs.writeFileSync(path.join(at, 'checks.json'), JSON.stringify(checks));
};
if (scenario === 'passes') write([{ id: 'a', status: 'SUCCESS' }]);
else if (scenario === 'auth/fails') write([{ id: 'a', status: 'FAILURE', errorMessage: 'no token' }]);
else if (scenario === 'crashes') process.exit(1);
else if (scenario === 'hangs') setInterval(() => {}, 1000);
else if (scenario === 'garbled') { fs.mkdirSync(path.join(out, 'garbled-2026-11-29T10-00-00-000Z'), { recursive: true }); fs.writeFileSync(path.join(out, 'garbled-2026-11-29T10-00-00-000Z', 'checks.json'), '{'); }
`;

  test('each scenario is its own run on the revision’s wire; a crash, a run killed at its limit and garbage are not run', async () => {
    dir = mkdtempSync(join(tmpdir(), 'client-groups-test-'));
    const cli = join(dir, 'fake-suite.cjs');
    writeFileSync(cli, FAKE_SUITE);
    chmodSync(cli, 0o755);
    mkdirSync(join(dir, 'out'));
    const log = join(dir, 'args.log');
    writeFileSync(log, '');
    const suite: OfficialSuite = { packageDir: dir, cli, node: process.execPath, env: { ...process.env, FAKE_LOG: log }, netns: false };
    const planned = ['passes', 'auth/fails', 'crashes', 'hangs', 'garbled'];
    const runs = await runClientScenarios({
      suite,
      clientCommand: 'node client.js',
      clientTimeoutMs: 1_000,
      revision: '2026-07-28',
      scenarios: planned,
      atATime: 2,
      dir: join(dir, 'out'),
      // Room for a Node start on a busy machine: only the hanging run should meet it.
      runTimeoutMs: 15_000,
    });
    expect(runs.map((run) => run.scenario)).toEqual(planned);
    const merged = mergeScenarioRuns(planned, runs);
    expect(merged.outcomes.get('passes')?.passed).toBe(true);
    expect(merged.outcomes.get('auth/fails')).toMatchObject({ passed: false, failures: [{ check: 'a', message: 'no token' }] });
    expect(merged.notRun).toEqual(['crashes', 'hangs', 'garbled']);
    expect(runs.find((run) => run.scenario === 'garbled')!.output).toMatch(/JSON/);
    const calls = readFileSync(log, 'utf8')
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line) as string[]);
    expect(calls).toHaveLength(planned.length);
    for (const call of calls) {
      expect(call.slice(0, 5)).toEqual(['client', '--command', 'node client.js', '--timeout', '1000']);
      expect(call).toEqual(expect.arrayContaining(['--spec-version', '2026-07-28', '--force']));
    }
  }, 90_000);
});
