import { describe, expect, test } from 'vitest';
import { finite, median, medianRatio, percentile, percentileSorted, ratiosPerRepetition, rotate, summarize } from './stats.js';

describe('median', () => {
  test('odd and even counts', () => {
    expect(median([3, 1, 2])).toBe(2);
    expect(median([4, 1, 3, 2])).toBe(2.5);
    expect(median([7])).toBe(7);
  });
  test('no values is NaN', () => {
    expect(median([])).toBeNaN();
  });
  test('does not modify its input', () => {
    const values = [3, 1, 2];
    median(values);
    expect(values).toEqual([3, 1, 2]);
  });
});

describe('percentile', () => {
  test('interpolates linearly between ranks (type 7)', () => {
    const values = [10, 20, 30, 40, 50];
    expect(percentile(values, 0)).toBe(10);
    expect(percentile(values, 100)).toBe(50);
    expect(percentile(values, 50)).toBe(30);
    expect(percentile(values, 25)).toBe(20);
    expect(percentile(values, 90)).toBeCloseTo(46, 10);
    expect(percentile([1, 2], 99)).toBeCloseTo(1.99, 10);
  });
  test('p99 of 1..100', () => {
    const values = Array.from({ length: 100 }, (_, i) => i + 1);
    expect(percentile(values, 99)).toBeCloseTo(99.01, 10);
    expect(percentile(values, 50)).toBe(50.5);
  });
  test('sorted variant agrees; out-of-range p throws', () => {
    expect(percentileSorted([1, 2, 3, 4], 50)).toBe(2.5);
    expect(() => percentileSorted([1], 101)).toThrow(RangeError);
    expect(() => percentileSorted([1], -1)).toThrow(RangeError);
  });
});

describe('summarize', () => {
  test('ignores undefined and non-finite values', () => {
    expect(finite([1, undefined, Number.NaN, Infinity, 2])).toEqual([1, 2]);
    expect(summarize([5, undefined, 1, 3])).toEqual({ median: 3, min: 1, max: 5, n: 3 });
    const empty = summarize([undefined]);
    expect(empty.n).toBe(0);
    expect(empty.median).toBeNaN();
  });
});

describe('ratios per repetition', () => {
  test('divides within each repetition, then takes the median of the ratios', () => {
    // The machine got twice as slow in repetition 2: the raw values move, the ratio does not.
    const repetitions = [
      { baseline: 100, impl: 80 },
      { baseline: 50, impl: 40 },
      { baseline: 110, impl: 77 },
    ];
    expect(ratiosPerRepetition(repetitions, 'impl', 'baseline')).toEqual([0.8, 0.8, 0.7]);
    expect(medianRatio(repetitions, 'impl', 'baseline')).toEqual({ median: 0.8, min: 0.7, max: 0.8, n: 3 });
  });
  test('is not the ratio of the medians', () => {
    const repetitions = [
      { a: 1, b: 10 },
      { a: 2, b: 1 },
      { a: 3, b: 2 },
    ];
    // medians: a = 2, b = 2 → 1; per repetition: 0.1, 2, 1.5 → median 1.5
    expect(medianRatio(repetitions, 'a', 'b').median).toBe(1.5);
  });
  test('skips repetitions where either side is missing, non-finite or a zero reference', () => {
    const repetitions = [
      { baseline: 10, impl: 20 },
      { baseline: 10 },
      { baseline: 0, impl: 5 },
      { baseline: Number.NaN, impl: 5 },
      { impl: 5 },
    ];
    expect(ratiosPerRepetition(repetitions, 'impl', 'baseline')).toEqual([2]);
    expect(medianRatio([], 'impl', 'baseline').n).toBe(0);
  });
});

describe('rotate', () => {
  test('shifts by one place per repetition and wraps', () => {
    expect(rotate(['a', 'b', 'c'], 0)).toEqual(['a', 'b', 'c']);
    expect(rotate(['a', 'b', 'c'], 1)).toEqual(['b', 'c', 'a']);
    expect(rotate(['a', 'b', 'c'], 4)).toEqual(['b', 'c', 'a']);
    expect(rotate([], 3)).toEqual([]);
  });
});
