import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, test } from 'vitest';
import { SCENARIOS_DIR } from '../paths.js';
import { loadScenarioFile, loadScenarios } from './load-scenarios.js';
import { expandRevisions, expandTransports, revisionMatches } from './selectors.js';

let root: string;

beforeEach(() => {
  root = mkdtempSync(join(tmpdir(), 'wiremcp-scenarios-'));
});

afterEach(() => {
  rmSync(root, { recursive: true, force: true });
});

function write(relative: string, text: string): string {
  const file = join(root, relative);
  mkdirSync(join(file, '..'), { recursive: true });
  writeFileSync(file, text);
  return file;
}

const VALID = `id: ping-basic
title: ping answers an empty result
area: lifecycle
spec: 2025-11-25/basic/utilities/ping
revisions: legacy
steps:
  - handshake: {}
  - send: { jsonrpc: "2.0", id: 2, method: ping }
  - expect: { id: 2, result: { $type: object } }
`;

describe('the shipped scenarios', () => {
  test('every file under scenarios/ loads without a problem', () => {
    const { scenarios, errors } = loadScenarios(SCENARIOS_DIR);
    expect(errors).toEqual([]);
    expect(scenarios.length).toBeGreaterThan(0);
  });
});

describe('a valid scenario', () => {
  test('is normalised: revisions and transports expanded, defaults filled in', () => {
    const scenario = loadScenarioFile(write('lifecycle/ping-basic.yaml', VALID), root);
    expect('problems' in scenario).toBe(false);
    if ('problems' in scenario) return;
    expect(scenario).toMatchObject({
      id: 'ping-basic',
      area: 'lifecycle',
      spec: ['2025-11-25/basic/utilities/ping'],
      level: 'must',
      revisions: ['2024-11-05', '2025-03-26', '2025-06-18', '2025-11-25'],
      servers: { kind: 'any' },
      transports: ['stdio-ndjson', 'stdio-content-length', 'streamable-http', 'streamable-http-stateless', 'http-sse', 'websocket'],
      timeoutMs: 5000,
      file: 'lifecycle/ping-basic.yaml',
    });
    expect(scenario.steps).toHaveLength(3);
  });
});

describe('broken scenarios are reported with file, path and line', () => {
  function problemsOf(relative: string, text: string) {
    const result = loadScenarioFile(write(relative, text), root);
    if (!('problems' in result)) throw new Error('expected problems');
    expect(result.file).toBe(relative);
    return result.problems;
  }

  test('YAML syntax errors', () => {
    const problems = problemsOf('lifecycle/ping-basic.yaml', 'id: ping-basic\ntitle: [unclosed\n');
    expect(problems[0]).toMatchObject({ path: '', line: expect.any(Number) });
    expect(problems[0]!.message).toMatch(/^YAML:/);
  });

  test('unknown keys, with the line of the key', () => {
    const problems = problemsOf('lifecycle/ping-basic.yaml', VALID.replace('revisions: legacy', 'revisions: legacy\nrevisons: all'));
    expect(problems).toContainEqual({ path: '/revisons', message: 'is not allowed here (unknown key)', line: 6, column: 1 });
  });

  test('a missing required field and a bad enum value', () => {
    const problems = problemsOf(
      'lifecycle/ping-basic.yaml',
      VALID.replace('title: ping answers an empty result\n', '').replace('revisions: legacy', 'revisions: 2024'),
    );
    expect(problems.map((p) => p.path)).toEqual(expect.arrayContaining(['', '/revisions']));
    expect(problems.find((p) => p.path === '')!.message).toMatch(/title/);
  });

  test('a step with two actions, or none, or a modifier of another action', () => {
    const two = problemsOf('lifecycle/ping-basic.yaml', VALID.replace('  - handshake: {}', '  - handshake: {}\n    sleep: 10'));
    expect(two).toContainEqual(
      expect.objectContaining({ path: '/steps/0', message: 'a step has exactly one action, found handshake and sleep', line: 7 }),
    );
    const none = problemsOf('lifecycle/ping-basic.yaml', VALID.replace('  - handshake: {}', '  - name: nothing'));
    expect(none[0]!.message).toMatch(/needs one action/);
    const modifier = problemsOf('lifecycle/ping-basic.yaml', VALID.replace('  - handshake: {}', '  - handshake: {}\n    timeoutMs: 10'));
    expect(modifier[0]).toMatchObject({
      path: '/steps/0/timeoutMs',
      message: expect.stringContaining('does not apply to a handshake step'),
    });
  });

  test('patterns with unknown operators, located in the file', () => {
    const problems = problemsOf('lifecycle/ping-basic.yaml', VALID.replace('{ $type: object }', '{ $typ: object }'));
    expect(problems).toEqual([expect.objectContaining({ path: '/steps/2/expect/result/$typ', line: 9 })]);
  });

  test('stdio-only steps need a stdio-only scenario', () => {
    const problems = problemsOf('lifecycle/ping-basic.yaml', `${VALID}  - closeStdin: true\n`);
    expect(problems[0]).toMatchObject({ path: '/steps/3/closeStdin', message: expect.stringContaining('transports: [stdio]') });
    const fine = loadScenarioFile(
      write(
        'lifecycle/ping-basic.yaml',
        `${VALID.replace('revisions: legacy', 'revisions: legacy\ntransports: [stdio]')}  - closeStdin: true\n`,
      ),
      root,
    );
    expect('problems' in fine).toBe(false);
  });

  test('id and area must match the file name and directory', () => {
    expect(problemsOf('lifecycle/other.yaml', VALID)).toContainEqual(
      expect.objectContaining({ path: '/id', message: 'must equal the file name (other)' }),
    );
    expect(problemsOf('tools/ping-basic.yaml', VALID)).toContainEqual(
      expect.objectContaining({ path: '/area', message: 'must equal its directory (tools)' }),
    );
  });

  test('sendPayload needs exactly one source; reply exactly one of result and error', () => {
    const payload = problemsOf(
      'lifecycle/ping-basic.yaml',
      VALID.replace('  - handshake: {}', '  - sendPayload: { text: "{", base64: "ew==" }'),
    );
    expect(payload[0]!.message).toMatch(/exactly one of text, base64 or json/);
    const reply = problemsOf('lifecycle/ping-basic.yaml', VALID.replace('  - handshake: {}', '  - reply: { to: 1 }'));
    expect(reply[0]!.message).toMatch(/either a result or an error/);
  });

  test('loadScenarios never skips a broken file, and rejects duplicate ids', () => {
    write('lifecycle/ping-basic.yaml', VALID);
    write('tools/ping-basic.yaml', VALID.replace('area: lifecycle', 'area: tools'));
    write('tools/broken.yaml', 'id: broken\n');
    write('top-level.yaml', VALID.replace('ping-basic', 'top-level'));
    const { scenarios, errors } = loadScenarios(root);
    expect(scenarios.map((s) => s.file)).toEqual(['lifecycle/ping-basic.yaml']);
    expect(errors.map((e) => e.file).sort()).toEqual(['tools/broken.yaml', 'tools/ping-basic.yaml', 'top-level.yaml']);
    expect(errors.find((e) => e.file === 'tools/ping-basic.yaml')!.problems[0]!.message).toMatch(/duplicate id/);
  });
});

describe('selectors', () => {
  test('revisions: all, eras, ranges and lists', () => {
    expect(expandRevisions('modern')).toEqual(['2026-07-28']);
    expect(expandRevisions(['>=2025-06-18'])).toEqual(['2025-06-18', '2025-11-25', '2026-07-28']);
    expect(expandRevisions(['<2025-03-26', 'modern'])).toEqual(['2024-11-05', '2026-07-28']);
    expect(revisionMatches('<=2025-06-18', '2025-06-18')).toBe(true);
    expect(revisionMatches('>2025-06-18', '2025-06-18')).toBe(false);
  });

  test('transports: families and single transports, in matrix order', () => {
    expect(expandTransports(['stdio'])).toEqual(['stdio-ndjson', 'stdio-content-length']);
    expect(expandTransports(['http-sse', 'stdio-ndjson'])).toEqual(['stdio-ndjson', 'http-sse']);
    expect(expandTransports(['nope'])).toEqual([]);
  });
});
