import { describe, expect, it } from 'vitest';
import { opsComparisons, opsRows, parseOpsOptions, selectOpsRows } from './ops-plan.js';

describe('parseOpsOptions', () => {
  it('reads every option', () => {
    expect(
      parseOpsOptions(['--quick', '--repetitions', '4', '--only', 'stdio,tracing', '--against', '../before', '--no-pin', '--out', 'x']),
    ).toEqual({
      help: false,
      quick: true,
      repetitions: 4,
      only: ['stdio', 'tracing'],
      pin: false,
      out: 'x',
      against: '../before',
      againstVariants: false,
    });
    expect(parseOpsOptions(['--against', '../before', '--against-variants']).againstVariants).toBe(true);
  });

  it('refuses bad input with a readable message that does not echo it unbounded', () => {
    expect(() => parseOpsOptions(['--repetitions', '0'])).toThrow('--repetitions must be an integer from 1 to 20');
    expect(() => parseOpsOptions(['--repetitions', '2.5'])).toThrow('from 1 to 20');
    expect(() => parseOpsOptions(['--against'])).toThrow('--against needs a value');
    expect(() => parseOpsOptions(['--only', '--quick'])).toThrow('--only needs a value');
    expect(() => parseOpsOptions(['--against-variants'])).toThrow('--against-variants needs --against <checkout>');
    const long = `--${'x'.repeat(10_000)}`;
    let message = '';
    try {
      parseOpsOptions([long]);
    } catch (error) {
      message = (error as Error).message;
    }
    expect(message).toMatch(/^unknown option --x+$/);
    expect(message.length).toBeLessThan(100);
  });
});

describe('rows and comparisons', () => {
  it('has every variant over stdio and HTTP in both eras, each compared with the plain server of its transport and era', () => {
    const rows = opsRows();
    expect(rows.map((r) => r.id)).toEqual([
      'stdio/off',
      'stdio/tracing',
      'stdio/metrics',
      'stdio/rate-limit',
      'stdio@2026/off',
      'stdio@2026/tracing',
      'stdio@2026/metrics',
      'stdio@2026/rate-limit',
      'http/off',
      'http/tracing',
      'http/metrics',
      'http/rate-limit',
      'http@2026/off',
      'http@2026/tracing',
      'http@2026/metrics',
      'http@2026/rate-limit',
    ]);
    const comparisons = opsComparisons(rows);
    expect(comparisons).toHaveLength(12);
    expect(comparisons[0]).toEqual({
      label: 'stdio 2025-11-25: tracing ÷ nothing switched on',
      row: 'stdio/tracing',
      reference: 'stdio/off',
    });
    expect(comparisons.find((c) => c.row === 'http@2026/rate-limit')?.reference).toBe('http@2026/off');
  });

  it('with --against, compares this build with the other build (this build first, so 1.00 means no change)', () => {
    const rows = opsRows('commit 5231036');
    expect(rows.filter((r) => r.variant === 'before').map((r) => r.id)).toEqual([
      'stdio/before',
      'stdio@2026/before',
      'http/before',
      'http@2026/before',
    ]);
    expect(rows.find((r) => r.id === 'stdio/before')?.label).toBe('stdio 2025-11-25: nothing switched on [commit 5231036]');
    const before = opsComparisons(rows).filter((c) => c.reference.endsWith('/before'));
    expect(before[0]).toEqual({
      label: 'stdio 2025-11-25: this build (no middleware installed) ÷ before',
      row: 'stdio/off',
      reference: 'stdio/before',
    });
    expect(before).toHaveLength(4);
  });

  it('with --against-variants, each variant of the other build is compared with the same variant of this build', () => {
    const rows = opsRows('commit 644de94', true);
    expect(rows.filter((r) => r.before).map((r) => r.id)).toEqual([
      'stdio/tracing@before',
      'stdio/metrics@before',
      'stdio/rate-limit@before',
      'stdio@2026/tracing@before',
      'stdio@2026/metrics@before',
      'stdio@2026/rate-limit@before',
      'http/tracing@before',
      'http/metrics@before',
      'http/rate-limit@before',
      'http@2026/tracing@before',
      'http@2026/metrics@before',
      'http@2026/rate-limit@before',
    ]);
    expect(rows.find((r) => r.id === 'http@2026/rate-limit@before')).toMatchObject({
      variant: 'rate-limit',
      label: 'HTTP 2026-07-28: rate limiter (never refuses) [commit 644de94]',
    });
    // --only by this build's id takes the other build's row too (its id starts with it), and the plain row.
    const selected = selectOpsRows(rows, ['http@2026/rate-limit']);
    expect(selected.map((r) => r.id)).toEqual(['http@2026/off', 'http@2026/rate-limit', 'http@2026/rate-limit@before']);
    expect(opsComparisons(selected)).toEqual([
      {
        label: 'HTTP 2026-07-28: rate limiter (never refuses) ÷ nothing switched on',
        row: 'http@2026/rate-limit',
        reference: 'http@2026/off',
      },
      {
        label: 'HTTP 2026-07-28: rate limiter (never refuses), this build ÷ before',
        row: 'http@2026/rate-limit',
        reference: 'http@2026/rate-limit@before',
      },
    ]);
    // Without this build's row, the other build's has nothing to be compared with.
    expect(opsComparisons(rows.filter((r) => r.id !== 'stdio/tracing')).some((c) => c.reference === 'stdio/tracing@before')).toBe(false);
  });

  it('--only keeps the plain rows the selected ones are compared with, and refuses a filter that matches nothing', () => {
    const rows = selectOpsRows(opsRows('x'), ['stdio/tracing', 'http@2026/before']);
    expect(rows.map((r) => r.id)).toEqual(['stdio/off', 'stdio/tracing', 'http@2026/off', 'http@2026/before']);
    expect(opsComparisons(rows).map((c) => `${c.row}÷${c.reference}`)).toEqual([
      'stdio/tracing÷stdio/off',
      'http@2026/off÷http@2026/before',
    ]);
    expect(() => selectOpsRows(opsRows(), ['websocket'])).toThrow('--only websocket matches no row');
  });
});
