import { describe, expect, test } from 'vitest';
import type { CellResult } from '../runner/cell-types.js';
import { applyBaseline, BaselineError, entryCovers, parseBaseline } from './baseline.js';
import { runFailed } from './summary.js';

function cell(
  scenario: string,
  status: 'pass' | 'fail' | 'skip',
  server = 'grammar',
  transport = 'stdio-ndjson',
  revision = '2025-11-25',
): CellResult {
  return { scenario, area: 'a', title: 't', spec: [], level: 'must', file: 'f', server, transport, revision, status, durationMs: 1 };
}

describe('parsing', () => {
  test('entries with optional transport and revision; an empty list is fine', () => {
    expect(parseBaseline('expectedFailures: []\n')).toEqual([]);
    expect(parseBaseline('expectedFailures:\n')).toEqual([]);
    const entries = parseBaseline(`expectedFailures:
  - scenario: resources-*
    server: official-everything
    revision: [2025-06-18, 2025-11-25]
    reason: -32603 instead of -32002 for an unknown resource
`);
    expect(entries).toEqual([
      {
        scenario: 'resources-*',
        server: 'official-everything',
        revision: ['2025-06-18', '2025-11-25'],
        reason: '-32603 instead of -32002 for an unknown resource',
      },
    ]);
  });

  test('an entry may link the defect it stands for; the link is a URL', () => {
    const text = 'expectedFailures:\n  - { scenario: x, server: y, reason: z, link: "https://github.com/o/r/issues/1" }\n';
    expect(parseBaseline(text)).toEqual([{ scenario: 'x', server: 'y', reason: 'z', link: 'https://github.com/o/r/issues/1' }]);
    expect(() => parseBaseline('expectedFailures:\n  - { scenario: x, server: y, reason: z, link: "see #1" }\n')).toThrow(BaselineError);
  });

  test('an entry without a reason, or with an unknown key, is refused with its location', () => {
    expect(() => parseBaseline('expectedFailures:\n  - scenario: x\n    server: y\n')).toThrow(BaselineError);
    expect(() => parseBaseline('expectedFailures:\n  - scenario: x\n    server: y\n    reason: z\n    revsion: a\n')).toThrow(
      /revsion.*unknown key/,
    );
  });
});

describe('matching', () => {
  test('scenario globs, exact server, optional transport and revision lists', () => {
    const entry = { scenario: 'tools-*', server: 'grammar', transport: 'stdio-ndjson', revision: ['2025-11-25'], reason: 'r' };
    expect(entryCovers(entry, cell('tools-call', 'fail'))).toBe(true);
    expect(entryCovers(entry, cell('resources-read', 'fail'))).toBe(false);
    expect(entryCovers(entry, cell('tools-call', 'fail', 'everything'))).toBe(false);
    expect(entryCovers(entry, cell('tools-call', 'fail', 'grammar', 'stdio-content-length'))).toBe(false);
    expect(entryCovers(entry, cell('tools-call', 'fail', 'grammar', 'stdio-ndjson', '2024-11-05'))).toBe(false);
    expect(entryCovers({ scenario: 'tools-call', server: 'grammar', reason: 'r' }, cell('tools-call', 'pass', 'grammar', 'x', 'y'))).toBe(
      true,
    );
  });
});

describe('applying', () => {
  test('a covered failure is expected; a covered pass is stale and fails the run; skips are untouched', () => {
    const results = [cell('a', 'fail'), cell('b', 'pass'), cell('c', 'skip'), cell('d', 'fail')];
    const entries = parseBaseline(`expectedFailures:
  - { scenario: a, server: grammar, reason: known bug A }
  - { scenario: b, server: grammar, reason: fixed meanwhile }
  - { scenario: c, server: grammar, reason: skipped here }
  - { scenario: z, server: grammar, reason: scenario gone }
`);
    const outcome = applyBaseline(results, entries);
    expect(results.map((r) => [r.scenario, r.status, r.reason])).toEqual([
      ['a', 'expected-fail', 'known bug A'],
      ['b', 'stale', 'fixed meanwhile'],
      ['c', 'skip', undefined],
      ['d', 'fail', undefined],
    ]);
    expect(outcome.used.map((e) => e.scenario)).toEqual(['a']);
    expect(outcome.stale.map((e) => e.scenario)).toEqual(['b']);
    expect(outcome.unused.map((e) => e.scenario)).toEqual(['c', 'z']);
    expect(runFailed(results)).toBe(true);
  });

  test('only expected failures: the run passes', () => {
    const results = [cell('a', 'fail'), cell('b', 'pass')];
    applyBaseline(results, [{ scenario: 'a', server: 'grammar', reason: 'r' }]);
    expect(runFailed(results)).toBe(false);
  });

  test('a broad entry covering a passing cell makes that cell stale', () => {
    const results = [cell('a', 'fail', 'grammar', 'stdio-ndjson'), cell('a', 'pass', 'grammar', 'stdio-content-length')];
    applyBaseline(results, [{ scenario: 'a', server: 'grammar', reason: 'ndjson only' }]);
    expect(results.map((r) => r.status)).toEqual(['expected-fail', 'stale']);
  });
});

describe('a target the baseline was not written for', () => {
  test('a passing cell an entry covers there is reported, not stale; a failing one is still expected', () => {
    // The entries were written for official-everything over stdio; here a server named so runs over HTTP.
    const results = [
      { ...cell('a', 'pass', 'official-everything', 'streamable-http'), knownAs: 'official-everything' },
      { ...cell('b', 'fail', 'official-everything', 'streamable-http'), knownAs: 'official-everything' },
      { ...cell('a', 'pass', 'official-everything', 'stdio-ndjson'), knownAs: 'official-everything' },
    ];
    const entries = [
      { scenario: 'a', server: 'official-everything', reason: 'drops it' },
      { scenario: 'b', server: 'official-everything', reason: 'wrong code' },
    ];
    const writtenFor = (_entry: unknown, result: { transport: string }) => result.transport === 'stdio-ndjson';
    const outcome = applyBaseline(results, entries, writtenFor);
    expect(results.map((r) => [r.transport, r.status])).toEqual([
      ['streamable-http', 'pass'],
      ['streamable-http', 'expected-fail'],
      ['stdio-ndjson', 'stale'],
    ]);
    expect(results[0]!.reason).toMatch(/baseline entry does not hold here.*drops it/);
    expect(outcome.elsewhere.map((e) => e.scenario)).toEqual(['a']);
    expect(outcome.stale.map((e) => e.scenario)).toEqual(['a']);
    expect(runFailed(results.slice(0, 2))).toBe(false);
  });
});
