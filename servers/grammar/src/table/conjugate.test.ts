import { describe, expect, it } from 'vitest';
import { conjugate } from './conjugate.js';
import { GrammarError, InvalidArgumentError, OutOfScopeError } from './grammar-error.js';
import { loadTable } from './load-table.js';

const table = loadTable();

describe('conjugate', () => {
  it('answers the seed example: eat / past_simple / 3sg → ate, comió', () => {
    const row = conjugate(table, 'eat', 'past_simple', '3sg');
    expect(row).toEqual({ verb: 'eat', tense: 'past_simple', person: '3sg', english: 'ate', spanish: 'comió', irregular: true });
  });

  it('accepts the seed 002 spellings: "past simple", "3rd singular"', () => {
    expect(conjugate(table, 'eat', 'past simple', '3rd singular').english).toBe('ate');
    expect(conjugate(table, 'write', 'past simple', '3rd singular').english).toBe('wrote');
  });

  it('covers regular verbs, futures and gustar', () => {
    expect(conjugate(table, 'study', 'present simple', 'he')).toMatchObject({ english: 'studies', spanish: 'estudia', irregular: false });
    expect(conjugate(table, 'go', 'simple_future', '2sg')).toMatchObject({ english: 'will go', spanish: 'irás' });
    expect(conjugate(table, 'like', 'present_simple', 'I')).toMatchObject({ english: 'like', spanish: 'me gusta' });
  });

  it('rejects run with exactly "verb \'run\' is out of scope (§A13)"', () => {
    expect(() => conjugate(table, 'run', 'past_simple', '3sg')).toThrow(OutOfScopeError);
    expect(() => conjugate(table, 'run', 'past_simple', '3sg')).toThrow(/^verb 'run' is out of scope \(§A13\)$/);
  });

  it('rejects an unknown tense or a plural person as invalid arguments', () => {
    expect(() => conjugate(table, 'eat', 'pluperfect', '3sg')).toThrow(InvalidArgumentError);
    expect(() => conjugate(table, 'eat', 'past', 'they')).toThrow(/plural/);
  });

  it('reports every failure as a GrammarError, which the MCP layer maps to isError', () => {
    for (const call of [
      () => conjugate(table, 'run', 'past', '1sg'),
      () => conjugate(table, 'eat', 'x', '1sg'),
      () => conjugate(table, 'ate', 'past', '1sg'),
    ]) {
      expect(call).toThrow(GrammarError);
    }
  });
});
