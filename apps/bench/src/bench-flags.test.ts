import { describe, expect, test } from 'vitest';
import { parseBenchFlags } from './bench-flags.js';

describe('parseBenchFlags', () => {
  test("a command's own value flags, in both forms, beside the shared ones", () => {
    const seen: string[] = [];
    const flags = parseBenchFlags(['--against', '../before', '--quick', '--node=20,24', '--only', ' a, ,b ', '--only=c'], {
      maxRepetitions: 20,
      values: { '--against': (value) => seen.push(`against ${value}`), '--node': (value) => seen.push(`node ${value}`) },
    });
    expect(seen).toEqual(['against ../before', 'node 20,24']);
    expect(flags).toEqual({ help: false, quick: true, repetitions: undefined, only: ['a', 'b', 'c'], pin: true, out: undefined });
  });

  test('bad input is a short, readable error', () => {
    const spec = { maxRepetitions: 20, values: { '--against': () => {} } };
    expect(() => parseBenchFlags(['--repetitions', '21'], spec)).toThrow('--repetitions must be an integer from 1 to 20, got 21');
    expect(() => parseBenchFlags(['--repetitions=x'], spec)).toThrow('from 1 to 20, got x');
    expect(() => parseBenchFlags(['--against', '--quick'], spec)).toThrow('--against needs a value');
    expect(() => parseBenchFlags(['--against='], spec)).toThrow('--against needs a value');
    expect(() => parseBenchFlags(['--out'], spec)).toThrow('--out needs a value');
    expect(() => parseBenchFlags(['--node', '20'], spec)).toThrow('unknown option --node');
    expect(() => parseBenchFlags([`--${'y'.repeat(5000)}`], spec)).toThrow(/^unknown option -{2}y{58}$/);
  });

  test("a value flag's own refusal comes through", () => {
    const spec = {
      maxRepetitions: 5,
      values: {
        '--node': (value: string) => {
          throw new Error(`--node takes majors, got ${value}`);
        },
      },
    };
    expect(() => parseBenchFlags(['--node', 'abc'], spec)).toThrow('--node takes majors, got abc');
  });
});
