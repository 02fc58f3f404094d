/**
 * `--events`: one JSON object per line, to a file or to standard output, and the counts by status with every
 * status present (a status nothing had is 0, not missing).
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, test } from 'vitest';
import type { CellResult } from '../runner/cell-types.js';
import { countByStatus, openEventSink } from './run-events.js';

const cell = (status: CellResult['status']): CellResult =>
  ({
    scenario: 's',
    area: 'a',
    title: 't',
    spec: [],
    level: 'must',
    file: 'f',
    server: 'x',
    transport: 'stdio-ndjson',
    revision: '2025-11-25',
    status,
    durationMs: 1,
  }) as CellResult;

describe('run events', () => {
  test('a file gets one line per event; writes after close are dropped', () => {
    const dir = mkdtempSync(join(tmpdir(), 'run-events-'));
    try {
      const sink = openEventSink(join(dir, 'events.ndjson'));
      sink.write({ type: 'start', cells: 1, runnable: 1, targets: ['x'] });
      sink.write({ type: 'cell', result: cell('fail'), expected: false });
      sink.close();
      sink.write({ type: 'end', exitCode: 1, counts: countByStatus([]), aborted: false });
      const lines = readFileSync(join(dir, 'events.ndjson'), 'utf8').trimEnd().split('\n');
      expect(lines.map((line) => (JSON.parse(line) as { type: string }).type)).toEqual(['start', 'cell']);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  test('- writes to the given standard output, each event whole on its line', () => {
    const written: string[] = [];
    openEventSink('-', { write: (text: string) => written.push(text) }).write({ type: 'start', cells: 0, runnable: 0, targets: [] });
    expect(written).toEqual(['{"type":"start","cells":0,"runnable":0,"targets":[]}\n']);
  });

  test('counts: every status present, not-exercised and not-applicable apart from pass', () => {
    const counts = countByStatus([cell('pass'), cell('not-exercised'), cell('not-applicable'), cell('not-applicable')]);
    expect(counts).toMatchObject({ pass: 1, 'not-exercised': 1, 'not-applicable': 2, fail: 0, error: 0, skip: 0, warn: 0 });
    expect(Object.keys(counts)).toHaveLength(9);
  });
});
