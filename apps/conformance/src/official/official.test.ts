import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, test } from 'vitest';
import { judgeLeg, loadExpectedFailures } from './expected-failures.js';
import { readOutcomes, readRequirements } from './results.js';
import { officialStatusOf, scoreRevision } from './run-official.js';

let dir: string;
afterEach(() => rmSync(dir, { recursive: true, force: true }));

function scratch(): string {
  dir = mkdtempSync(join(tmpdir(), 'official-test-'));
  return dir;
}

function writeChecks(root: string, entry: string, statuses: string[]): void {
  mkdirSync(join(root, entry), { recursive: true });
  const checks = statuses.map((status, index) => ({
    id: `check-${index}`,
    status,
    errorMessage: status === 'FAILURE' ? `check ${index} failed` : undefined,
  }));
  writeFileSync(join(root, entry, 'checks.json'), JSON.stringify(checks));
}

describe('official suite results', () => {
  test('a scenario passes unless a check is a FAILURE; names lose the prefix and timestamp; auth scenarios keep auth/', () => {
    const root = scratch();
    writeChecks(root, 'server-tools-list-2026-11-24T13-19-22-572Z', ['SUCCESS', 'SUCCESS', 'WARNING']);
    writeChecks(root, 'server-ping-2026-11-24T13-19-22-600Z', ['SUCCESS', 'FAILURE']);
    writeChecks(join(root, 'auth'), 'metadata-default-2026-11-24T13-40-05-271Z', ['FAILURE']);
    const server = readOutcomes(root, 'server');
    expect(server.get('tools-list')).toMatchObject({ passed: true, checks: { passed: 2, failed: 0, warnings: 1 } });
    expect(server.get('ping')).toMatchObject({ passed: false, failures: [{ check: 'check-1', message: 'check 1 failed' }] });
    expect(server.get('auth/metadata-default')?.passed).toBe(false);
  });

  test('a scenario that ran no check, or only skipped ones and the synthetic wire check, is not exercised', () => {
    const root = scratch();
    // As sep-2640-skills-* end when the server does not declare the extension: SKIPPED checks and wire-schema-valid.
    mkdirSync(join(root, 'server-sep-2640-skills-manifest-2026-11-24T13-19-22-572Z'), { recursive: true });
    writeFileSync(
      join(root, 'server-sep-2640-skills-manifest-2026-11-24T13-19-22-572Z', 'checks.json'),
      JSON.stringify([
        { id: 'sep-2640-manifest', status: 'SKIPPED', errorMessage: 'Server did not declare the io.modelcontextprotocol/skills extension' },
        { id: 'wire-schema-valid', status: 'SUCCESS' },
      ]),
    );
    writeChecks(root, 'server-tasks-status-notifications-2026-11-24T13-19-22-600Z', []);
    writeChecks(root, 'server-ping-2026-11-24T13-19-22-700Z', ['SUCCESS']);
    writeChecks(root, 'server-broken-2026-11-24T13-19-22-800Z', ['SKIPPED', 'FAILURE']);
    const server = readOutcomes(root, 'server');
    expect(server.get('sep-2640-skills-manifest')).toMatchObject({ passed: true, exercised: false, checks: { skipped: 1 } });
    expect(server.get('tasks-status-notifications')).toMatchObject({ passed: true, exercised: false });
    expect(server.get('ping')).toMatchObject({ passed: true, exercised: true });
    expect(server.get('broken')).toMatchObject({ passed: false, exercised: true });
    expect(officialStatusOf(server.get('sep-2640-skills-manifest')!, new Set())).toBe('not-exercised');
    expect(officialStatusOf(server.get('ping')!, new Set())).toBe('pass');
  });

  test('the latest result of a scenario that ran twice counts', () => {
    const root = scratch();
    writeChecks(root, 'initialize-2026-11-24T10-00-00-000Z', ['FAILURE']);
    writeChecks(root, 'initialize-2026-11-24T11-00-00-000Z', ['SUCCESS']);
    expect(readOutcomes(root, 'client').get('initialize')?.passed).toBe(true);
  });

  test('requirement sets: scored scenarios per leg and those run but not scored', () => {
    const root = scratch();
    mkdirSync(join(root, 'requirements'));
    writeFileSync(
      join(root, 'requirements', '2026-07-28.yaml'),
      'server: [server-stateless, ping]\nclient: [tools_call]\nnot_scored:\n  - scenario: tasks-lifecycle\n    leg: server\n    reason: extension\n',
    );
    expect(readRequirements(root, '2026-07-28')).toEqual({
      scored: { server: ['server-stateless', 'ping'], client: ['tools_call'] },
      notScored: { server: ['tasks-lifecycle'], client: [] },
    });
  });
});

describe('scores', () => {
  const outcome = (name: string, passed: boolean, exercised = true) => ({
    name,
    passed,
    exercised,
    checks: { passed: exercised && passed ? 1 : 0, failed: passed ? 0 : 1, warnings: 0, skipped: 0 },
    failures: [],
  });

  test('a scored scenario without a result is not run, never passed nor failing; a skipped one is not applicable', () => {
    const req = {
      scored: { server: [], client: ['initialize', 'tools_call', 'sse-retry', 'auth/metadata-default', 'auth/basic-cimd'] },
      notScored: { server: [], client: ['auth/dpop', 'auth/dpop-nonce'] },
    };
    const found = new Map([
      ['initialize', outcome('initialize', true)],
      ['tools_call', outcome('tools_call', false)],
      ['sse-retry', outcome('sse-retry', true, false)],
      ['auth/dpop', outcome('auth/dpop', false)],
    ]);
    const score = scoreRevision('client', '2025-11-25', req, found, ['auth/metadata-default', 'auth/dpop-nonce'], ['auth/basic-cimd']);
    expect(score).toEqual({
      leg: 'client',
      revision: '2025-11-25',
      passed: 1,
      total: 5,
      failing: ['tools_call'],
      notExercised: ['sse-retry'],
      notRun: ['auth/metadata-default'],
      notApplicable: ['auth/basic-cimd'],
      notScoredRun: 1,
      notScoredFailing: ['auth/dpop'],
      notScoredNotExercised: [],
      notScoredNotRun: ['auth/dpop-nonce'],
    });
    // A scored scenario missing from a run that was not planned one by one (the server leg) is not run all the same.
    expect(scoreRevision('client', '2025-11-25', req, found, [], []).notRun).toEqual(['auth/metadata-default', 'auth/basic-cimd']);
  });
});

describe('expected failures', () => {
  const outcome = (name: string, passed: boolean, exercised = true) => ({
    name,
    passed,
    exercised,
    checks: { passed: exercised && passed ? 1 : 0, failed: passed ? 0 : 1, warnings: 0, skipped: 0 },
    failures: [],
  });

  test('a listed scenario that was not exercised is not stale: it proved nothing', () => {
    const runs = [new Map([['tasks-status-notifications', outcome('tasks-status-notifications', true, false)]])];
    expect(judgeLeg(new Set(['tasks-status-notifications']), runs)).toEqual({ unexpected: [], stale: [] });
  });

  test('a failure not listed is unexpected; a listed scenario that passed wherever it ran is stale; one that did not run is neither', () => {
    const expected = new Set(['tasks-lifecycle', 'auth/dpop', 'never-ran']);
    const runs = [
      new Map([
        ['tasks-lifecycle', outcome('tasks-lifecycle', false)],
        ['ping', outcome('ping', false)],
      ]),
      new Map([['auth/dpop', outcome('auth/dpop', true)]]),
    ];
    expect(judgeLeg(expected, runs)).toEqual({ unexpected: ['ping'], stale: ['auth/dpop'] });
  });

  test('a listed scenario that fails in one run and passes in another is not stale', () => {
    const runs = [new Map([['x', outcome('x', true)]]), new Map([['x', outcome('x', false)]])];
    expect(judgeLeg(new Set(['x']), runs)).toEqual({ unexpected: [], stale: [] });
  });

  test('the file holds server: and client: lists of names; anything else is a clear error', () => {
    const root = scratch();
    const file = join(root, 'expected.yaml');
    writeFileSync(file, 'server:\n  - tasks-lifecycle\nclient:\n  - auth/dpop\n');
    expect(loadExpectedFailures(file)).toEqual({ server: new Set(['tasks-lifecycle']), client: new Set(['auth/dpop']) });
    writeFileSync(file, 'server: tasks-lifecycle\n');
    expect(() => loadExpectedFailures(file)).toThrow(/'server' must be a list of scenario names/);
  });

  test('the committed file lists only the tasks extension on the server leg and auth/* on the client leg', () => {
    const committed = loadExpectedFailures(join(import.meta.dirname, '..', '..', 'official-expected-failures.yaml'));
    expect([...committed.server].every((name) => name.startsWith('tasks-'))).toBe(true);
    expect([...committed.client].every((name) => name.startsWith('auth/'))).toBe(true);
  });
});
