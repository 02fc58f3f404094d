import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, test } from 'vitest';
import { judgeLeg, loadExpectedFailures } from './expected-failures.js';
import { readOutcomes, readRequirements } from './results.js';

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
    expect(server.get('tools-list')).toMatchObject({ passed: true, checks: { passed: 2, failed: 0, warnings: 1, skipped: 0 } });
    expect(server.get('ping')).toMatchObject({ passed: false, failures: [{ check: 'check-1', message: 'check 1 failed' }] });
    expect(server.get('auth/metadata-default')?.passed).toBe(false);
  });

  test('checks that ran nothing are counted apart', () => {
    const root = scratch();
    writeChecks(root, 'server-sep-2640-skills-directory-2026-11-24T13-19-22-572Z', ['SKIPPED', 'SKIPPED']);
    expect(readOutcomes(root, 'server').get('sep-2640-skills-directory')).toMatchObject({
      passed: true,
      checks: { passed: 0, failed: 0, warnings: 0, skipped: 2 },
    });
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

describe('expected failures', () => {
  const outcome = (name: string, passed: boolean) => ({
    name,
    passed,
    checks: { passed: 0, failed: passed ? 0 : 1, warnings: 0, skipped: 0 },
    failures: [],
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
