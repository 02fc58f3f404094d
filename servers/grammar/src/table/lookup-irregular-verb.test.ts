import { describe, expect, it } from 'vitest';
import { OutOfScopeError } from './grammar-error.js';
import { loadTable } from './load-table.js';
import { listIrregularVerbs, lookupIrregularVerb } from './lookup-irregular-verb.js';

const table = loadTable();

describe('lookupIrregularVerb', () => {
  it('gives the principal parts of eat, with Spanish', () => {
    expect(lookupIrregularVerb(table, 'eat')).toMatchObject({
      verb: 'eat',
      irregular: true,
      base: 'eat',
      thirdPersonSingular: 'eats',
      pastSimple: ['ate'],
      pastParticiple: 'eaten',
      spanishInfinitive: 'comer',
      spanishParticiple: 'comido',
      summary: 'eat – ate – eaten',
    });
  });

  it('gives both past forms of be', () => {
    const be = lookupIrregularVerb(table, 'To Be');
    expect(be.pastSimple).toEqual(['was', 'were']);
    expect(be.summary).toBe('be – was/were – been');
    expect(be.spanishInfinitive).toBe('ser');
  });

  it('answers regular verbs too, flagged as regular', () => {
    expect(lookupIrregularVerb(table, 'study')).toMatchObject({
      irregular: false,
      summary: 'study – studied – studied',
      spanishInfinitive: 'estudiar',
    });
  });

  it('rejects a verb outside the table with the exact §A13 message', () => {
    expect(() => lookupIrregularVerb(table, 'run')).toThrow(OutOfScopeError);
    expect(() => lookupIrregularVerb(table, 'run')).toThrow("verb 'run' is out of scope (§A13)");
  });
});

describe('listIrregularVerbs', () => {
  it('lists the eight irregular verbs with their principal parts, in table order', () => {
    expect(listIrregularVerbs(table).map((p) => p.summary)).toEqual([
      'be – was/were – been',
      'have – had – had',
      'do – did – done',
      'go – went – gone',
      'come – came – come',
      'see – saw – seen',
      'eat – ate – eaten',
      'write – wrote – written',
    ]);
  });
});
