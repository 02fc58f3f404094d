// count() groups digits by hand (toLocaleString loads ICU data at start); it must still write what toLocaleString writes.
import { describe, expect, it } from 'vitest';
import { count } from '../src/tools/results.js';

describe('count', () => {
  it("writes numbers as toLocaleString('en-US') does", () => {
    const values = [
      0,
      1,
      12,
      999,
      1000,
      1234,
      99_999,
      100_000,
      1_048_576,
      123_456_789,
      Number.MAX_SAFE_INTEGER,
      -1,
      -1000,
      -987_654,
      1.5,
      1234.5678,
    ];
    for (const value of values) expect(count(value), String(value)).toBe(value.toLocaleString('en-US'));
  });
});
