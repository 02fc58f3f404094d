import { describe, expect, it } from 'vitest';
import type { PhaseResult } from '../job.js';
import { opsComparisons, opsRows, selectOpsRows } from './ops-plan.js';
import { renderOpsMarkdown, summarizeOps, type OpsDriverResult, type OpsReport, type OpsRepetition } from './ops-report.js';

const phase = (callsPerSec: number, serverCpuUsPerCall: number, p50Us?: number): PhaseResult => ({
  calls: 1000,
  elapsedMs: 1000,
  callsPerSec,
  clientCpuUsPerCall: 1,
  serverCpuUsPerCall,
  ...(p50Us === undefined ? {} : { p50Us }),
});

/** A driver result whose loaded phase (`pipe` or `conc`) runs at `calls`/s with `cpu` µs per call. */
function result(loaded: 'pipe' | 'conc', calls: number, cpu: number): OpsDriverResult {
  return {
    phases: {
      'seq.echo': phase(1000, 50, 100),
      'seq.conjugate': phase(900, 60, 110),
      [`${loaded}.echo`]: phase(calls, cpu),
      [`${loaded}.conjugate`]: phase(calls / 2, cpu * 2),
    },
  };
}

const rows = selectOpsRows(opsRows('commit abc'), ['stdio/tracing', 'http/before']);
const comparisons = opsComparisons(rows);

const repetitions: OpsRepetition[] = [
  {
    index: 0,
    order: rows.map((r) => r.id),
    loadAverage: [1.5, 1, 1],
    results: {
      'stdio/off': result('pipe', 1000, 10),
      'stdio/tracing': result('pipe', 800, 12.5),
      'http/off': result('conc', 500, 40),
      'http/before': result('conc', 500, 40),
    },
  },
  {
    index: 1,
    order: rows.map((r) => r.id),
    loadAverage: [2.5, 1, 1],
    results: {
      'stdio/off': result('pipe', 1000, 10),
      'stdio/tracing': result('pipe', 900, 11),
      'http/off': result('conc', 600, 40),
      'http/before': { error: 'driver exited with 1\nstack' },
    },
  },
];

describe('summarizeOps', () => {
  it('takes each ratio within a repetition from the loaded phase of its transport, leaving failed rows out', () => {
    const summary = summarizeOps(rows, comparisons, repetitions);
    const tracing = comparisons.findIndex((c) => c.row === 'stdio/tracing');
    const before = comparisons.findIndex((c) => c.reference === 'http/before');
    expect(summary.ratios['echo.calls']![tracing]).toMatchObject({ min: 0.8, max: 0.9, n: 2 });
    expect(summary.ratios['echo.calls']![tracing]!.median).toBeCloseTo(0.85);
    expect(summary.ratios['echo.cpu']![tracing]!.median).toBeCloseTo(1.175);
    expect(summary.ratios['conjugate.p50']![tracing]).toEqual({ median: 1, min: 1, max: 1, n: 2 });
    // The HTTP pair: only the first repetition measured both rows.
    expect(summary.ratios['echo.calls']![before]).toEqual({ median: 1, min: 1, max: 1, n: 1 });
    expect(summary.values['echo.calls']!['http/off']).toEqual({ median: 550, min: 500, max: 600, n: 2 });
  });
});

describe('renderOpsMarkdown', () => {
  it('shows ratios with range and count, marks what was not measured, and lists failures apart', () => {
    const noneMeasured: OpsRepetition[] = [
      { index: 0, order: [], loadAverage: [3, 2, 1], results: { 'http/before': { error: 'timed out' } } },
    ];
    const report = (reps: OpsRepetition[]): OpsReport => ({
      meta: {
        date: '2026-11-29T07:00:00.000Z',
        command: 'npm run bench -- ops --quick',
        wallTimeSec: 12,
        node: '20.20.2',
        machine: 'Linux · test CPU, 2 cores',
        pinnedCpu: 1,
        loadAverage: { start: [1, 1, 1], end: [4, 2, 1] },
        gitCommit: 'abc1234',
        against: 'commit abc',
        repetitions: reps.length,
        quick: true,
      },
      rows,
      comparisons,
      summary: summarizeOps(rows, comparisons, reps),
      repetitions: reps,
    });
    const markdown = renderOpsMarkdown(report(repetitions));
    expect(markdown).toContain('| stdio 2025-11-25: tracing ÷ nothing switched on | 0.850× (0.80–0.90, n=2) |');
    expect(markdown).toContain('load average 1.00 1.00 1.00 at the start, 4.00 2.00 1.00 at the end');
    expect(markdown).toContain('Command: `npm run bench -- ops --quick`');
    expect(markdown).toContain('- repetition 2, http/before: driver exited with 1');
    expect(markdown).not.toContain('stack');
    // The zero-cost bound is about stdio only; this run compared HTTP with the other build.
    expect(markdown).not.toContain('within 2%');
    expect(markdown).toContain('at the start of each repetition: 1.5, 2.5.');
    const empty = renderOpsMarkdown(report(noneMeasured));
    expect(empty).toContain('| stdio 2025-11-25: tracing ÷ nothing switched on | not measured |');
    expect(empty).not.toMatch(/NaN/);
  });
});

describe('the zero-cost bound', () => {
  it('reads the stdio comparison with the other build: calls/s ≥ 0.98×, CPU ≤ 1.02×, and says when nothing was measured', () => {
    const stdioRows = selectOpsRows(opsRows('commit abc'), ['stdio/before']);
    const stdioComparisons = opsComparisons(stdioRows);
    const reps: OpsRepetition[] = [
      {
        index: 0,
        order: [],
        loadAverage: [1, 1, 1],
        results: { 'stdio/off': result('pipe', 990, 10.5), 'stdio/before': result('pipe', 1000, 10) },
      },
    ];
    const markdown = renderOpsMarkdown({
      meta: {
        date: 'd',
        command: 'c',
        wallTimeSec: 1,
        node: '20',
        machine: 'm',
        pinnedCpu: undefined,
        loadAverage: { start: [1, 1, 1], end: [1, 1, 1] },
        gitCommit: undefined,
        against: 'commit abc',
        repetitions: 1,
        quick: true,
      },
      rows: stdioRows,
      comparisons: stdioComparisons,
      summary: summarizeOps(stdioRows, stdioComparisons, reps),
      repetitions: reps,
    });
    const label = 'stdio 2025-11-25: this build (no middleware installed) ÷ before';
    expect(markdown).toContain(`| ${label} | echo calls/s (loaded) | ≥ 0.98× | 0.990× (0.99–0.99, n=1) | within 2% |`);
    expect(markdown).toContain(`| ${label} | echo server CPU µs/call (loaded) | ≤ 1.02× | 1.050× (1.05–1.05, n=1) | **not within 2%** |`);
  });
});
