import fc from 'fast-check';
import type { RequestId } from '@wiremcp/protocol';
import { describe, expect, test } from 'vitest';
import { RequestTable } from './request-table.js';

interface Entry {
  readonly id: RequestId;
  readonly tag: number;
}

type Op = { type: 'set'; id: RequestId; tag: number } | { type: 'delete'; id: RequestId } | { type: 'clear' };

/** Ids of every kind a table meets: sequential ones (slots), colliding ones, large, negative, fractional, strings. */
const anyId: fc.Arbitrary<RequestId> = fc.oneof(
  { weight: 6, arbitrary: fc.integer({ min: 0, max: 300 }) },
  { weight: 2, arbitrary: fc.constantFrom(0, 16, 32, 64, 128, 1024, -16, -0) },
  { weight: 1, arbitrary: fc.constantFrom(2 ** 31, 2 ** 32 + 16, 2 ** 53 - 1, -(2 ** 31), 1.5, 16.25) },
  { weight: 2, arbitrary: fc.constantFrom('a', '16', '0', '') },
);

const op: fc.Arbitrary<Op> = fc.oneof(
  { weight: 6, arbitrary: fc.record({ type: fc.constant('set' as const), id: anyId, tag: fc.nat() }) },
  { weight: 4, arbitrary: fc.record({ type: fc.constant('delete' as const), id: anyId }) },
  { weight: 1, arbitrary: fc.constant({ type: 'clear' as const }) },
);

describe('RequestTable', () => {
  test('behaves as a Map keyed by id, whatever the ids and the order of operations', () => {
    fc.assert(
      fc.property(fc.array(op, { maxLength: 300 }), (ops) => {
        const table = new RequestTable<Entry>(4);
        const model = new Map<RequestId, Entry>();
        const seen = new Set<RequestId>();
        for (const each of ops) {
          if (each.type === 'set') {
            const entry = { id: each.id, tag: each.tag };
            table.set(entry);
            model.set(each.id, entry);
            seen.add(each.id);
          } else if (each.type === 'delete') {
            expect(table.delete(each.id)).toBe(model.delete(each.id));
          } else {
            table.clear();
            model.clear();
          }
          expect(table.size).toBe(model.size);
        }
        for (const id of seen) expect(table.get(id)).toBe(model.get(id));
        const values = table.values();
        expect(values).toHaveLength(model.size);
        expect(new Set(values)).toEqual(new Set(model.values()));
      }),
      { numRuns: 300 },
    );
  });

  test('a long request overtaken by thousands of later ones stays found, and is listed first', () => {
    const table = new RequestTable<Entry>();
    const long = { id: 0, tag: -1 };
    table.set(long);
    for (let id = 1; id <= 10_000; id++) {
      table.set({ id, tag: id });
      if (id > 64) table.delete(id - 64);
      expect(table.get(0)).toBe(long);
    }
    expect(table.size).toBe(65);
    const values = table.values();
    expect(values[0]).toBe(long);
    expect(values.slice(1).map((entry) => entry.id)).toEqual(Array.from({ length: 64 }, (_, i) => 10_000 - 63 + i));
    expect(table.delete(0)).toBe(true);
    expect(table.get(0)).toBeUndefined();
  });

  test('lists sequential ids in ascending order after the slots wrap and grow', () => {
    const table = new RequestTable<Entry>(4);
    for (let id = 0; id < 40; id++) table.set({ id, tag: id });
    for (let id = 0; id < 30; id++) table.delete(id);
    for (let id = 40; id < 45; id++) table.set({ id, tag: id });
    expect(table.values().map((entry) => entry.id)).toEqual([30, 31, 32, 33, 34, 35, 36, 37, 38, 39, 40, 41, 42, 43, 44]);
  });

  test('setting an id again replaces its entry wherever it lives', () => {
    const table = new RequestTable<Entry>(4);
    table.set({ id: 1, tag: 1 });
    table.set({ id: 5, tag: 5 });
    const replaced = { id: 1, tag: 2 };
    table.set(replaced);
    expect(table.get(1)).toBe(replaced);
    expect(table.size).toBe(2);
    table.set({ id: 'x', tag: 1 });
    const again = { id: 'x', tag: 2 };
    table.set(again);
    expect(table.get('x')).toBe(again);
    expect(table.size).toBe(3);
  });
});
