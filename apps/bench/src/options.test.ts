import { describe, expect, test } from 'vitest';
import { parseOptions, select } from './options.js';
import { ROWS } from './plan.js';

describe('parseOptions', () => {
  test('defaults', () => {
    expect(parseOptions([])).toEqual({ help: false, quick: false, only: [], out: undefined, repetitions: undefined, pin: true });
    expect(parseOptions(['--no-pin']).pin).toBe(false);
  });
  test('flags, values and repeated --only', () => {
    expect(parseOptions(['--quick', '--only', 'cold,wiremcp', '--only=pipe', '--out', '/tmp/x', '--repetitions=3'])).toEqual({
      help: false,
      quick: true,
      only: ['cold', 'wiremcp', 'pipe'],
      out: '/tmp/x',
      repetitions: 3,
      pin: true,
    });
  });
  test('bad input is a readable error', () => {
    expect(() => parseOptions(['--frobnicate'])).toThrow('unknown option --frobnicate');
    expect(() => parseOptions(['--only'])).toThrow('--only needs a value');
    expect(() => parseOptions(['--repetitions', '0'])).toThrow('--repetitions');
  });
});

describe('select', () => {
  test('everything by default', () => {
    const all = select(ROWS, []);
    expect(all.rows).toHaveLength(ROWS.length);
    expect(all).toMatchObject({ cold: true, load: true, micro: true });
  });
  test('implementation filters keep their baselines', () => {
    const { rows } = select(ROWS, ['sdk-v1/']);
    expect(rows.map((r) => r.id)).toEqual(['raw/baseline', 'sdk-v1/sdk-v1', 'sdk-v1/baseline']);
    expect(select(ROWS, ['raw/wiremcp@2026']).rows.map((r) => r.id)).toEqual(['raw/baseline@2026', 'raw/wiremcp@2026']);
  });
  test('metric groups choose the phases', () => {
    expect(select(ROWS, ['cold'])).toMatchObject({ cold: true, load: false, micro: false });
    expect(select(ROWS, ['pipe', 'micro'])).toMatchObject({ cold: false, load: true, micro: true });
  });
  test('a filter that matches nothing is an error', () => {
    expect(() => select(ROWS, ['nope'])).toThrow('matches no implementation');
  });
});
