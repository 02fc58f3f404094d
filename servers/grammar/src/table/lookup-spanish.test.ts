import { describe, expect, it } from 'vitest';
import { FormNotFoundError, InvalidArgumentError, OutOfScopeError } from './grammar-error.js';
import { loadTable } from './load-table.js';
import { lookupSpanish } from './lookup-spanish.js';

const table = loadTable();
const keys = (english: string): string[] =>
  lookupSpanish(table, english).matches.map((r) => `${r.verb}/${r.tense}/${r.person}=${r.spanish}`);

describe('lookupSpanish', () => {
  it('answers the seed example: "ate" → "comió", and lists every person', () => {
    const result = lookupSpanish(table, 'ate');
    expect(result.spanish).toBe('comió');
    expect(result.primary).toMatchObject({ verb: 'eat', tense: 'past_simple', person: '3sg' });
    expect(keys('ate')).toEqual(['eat/past_simple/1sg=comí', 'eat/past_simple/2sg=comiste', 'eat/past_simple/3sg=comió']);
  });

  it('is case-insensitive and trims whitespace', () => {
    expect(lookupSpanish(table, '  ATE ').spanish).toBe('comió');
    expect(lookupSpanish(table, 'Will  Eat').english).toBe('will eat');
  });

  it('finds future forms with will, preferring 3rd singular', () => {
    expect(lookupSpanish(table, 'will eat').spanish).toBe('comerá');
    expect(keys('will eat')).toEqual(['eat/simple_future/1sg=comeré', 'eat/simple_future/2sg=comerás', 'eat/simple_future/3sg=comerá']);
  });

  it('prefers the earlier tense when a form is both past simple and participle, or infinitive and present', () => {
    expect(lookupSpanish(table, 'had').spanish).toBe('tuvo');
    expect(lookupSpanish(table, 'had').matches).toHaveLength(6);
    expect(lookupSpanish(table, 'eat').spanish).toBe('comer');
    expect(lookupSpanish(table, 'to eat').spanish).toBe('comer');
    expect(lookupSpanish(table, 'come').matches.map((r) => r.spanish)).toEqual([
      'venir',
      'venir',
      'venir',
      'vengo',
      'vienes',
      'venido',
      'venido',
      'venido',
    ]);
  });

  it('falls back to 1st, then 2nd singular when there is no 3rd singular match', () => {
    expect(lookupSpanish(table, 'am').spanish).toBe('soy');
    expect(lookupSpanish(table, 'were').spanish).toBe('fuiste');
    expect(lookupSpanish(table, 'was').spanish).toBe('fue');
  });

  it('explains a malformed form of a §A13 verb', () => {
    expect(() => lookupSpanish(table, 'goed')).toThrow(
      new FormNotFoundError('goed', "'goed' is not a form of 'go' in the §A13 table; its forms are: go, goes, went, gone, will go"),
    );
    expect(() => lookupSpanish(table, 'has eaten')).toThrow(/^'has eaten' is not a form of 'eat'/);
  });

  it('calls a form of another verb out of scope', () => {
    expect(() => lookupSpanish(table, 'ran')).toThrow(OutOfScopeError);
    expect(() => lookupSpanish(table, 'will run')).toThrow("verb 'run' is out of scope (§A13)");
    expect(() => lookupSpanish(table, 'bed')).toThrow("verb 'bed' is out of scope (§A13)");
  });

  it('rejects an empty form', () => {
    expect(() => lookupSpanish(table, '  ')).toThrow(InvalidArgumentError);
  });
});
