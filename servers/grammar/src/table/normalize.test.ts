import { describe, expect, it } from 'vitest';
import { FormNotFoundError, InvalidArgumentError, OutOfScopeError } from './grammar-error.js';
import { loadTable } from './load-table.js';
import { normalizePerson, normalizeTense, normalizeText, normalizeVerb } from './normalize.js';
import { PERSON_SPELLINGS, TENSE_SPELLINGS } from './vocabulary.js';

const table = loadTable();

describe('normalizeTense', () => {
  it.each([
    ['past_simple', 'past_simple'],
    ['past simple', 'past_simple'],
    ['Past Simple', 'past_simple'],
    ['past-simple', 'past_simple'],
    ['  PAST   SIMPLE ', 'past_simple'],
    ['simple past', 'past_simple'],
    ['past simple tense', 'past_simple'],
    ['present simple', 'present_simple'],
    ['simple present', 'present_simple'],
    ['present', 'present_simple'],
    ['past participle', 'past_participle'],
    ['participle', 'past_participle'],
    ['simple future', 'simple_future'],
    ['future simple', 'simple_future'],
    ['future', 'simple_future'],
    ['infinitive', 'infinitive'],
    ['bare infinitive', 'infinitive'],
  ])('%j → %s', (input, expected) => {
    expect(normalizeTense(input)).toBe(expected);
  });

  it('accepts every spelling offered as an enum', () => {
    for (const spelling of TENSE_SPELLINGS) expect(() => normalizeTense(spelling)).not.toThrow();
    expect(TENSE_SPELLINGS).toEqual([
      'infinitive',
      'present_simple',
      'past_simple',
      'past_participle',
      'simple_future',
      'present simple',
      'past simple',
      'past participle',
      'simple future',
    ]);
  });

  it('rejects an unknown tense, listing the accepted values', () => {
    expect(() => normalizeTense('pluperfect')).toThrow(
      "unknown tense 'pluperfect'; accepted: infinitive, present_simple (present simple), past_simple (past simple), past_participle (past participle), simple_future (simple future)",
    );
    expect(() => normalizeTense('')).toThrow(InvalidArgumentError);
  });
});

describe('normalizePerson', () => {
  it.each([
    ['1sg', '1sg'],
    ['1st singular', '1sg'],
    ['first person singular', '1sg'],
    ['1st-person singular', '1sg'],
    ['I', '1sg'],
    ['yo', '1sg'],
    ['2sg', '2sg'],
    ['2nd singular', '2sg'],
    ['Second Person Singular', '2sg'],
    ['you', '2sg'],
    ['tú', '2sg'],
    ['3sg', '3sg'],
    ['3rd singular', '3sg'],
    ['3rd_singular', '3sg'],
    ['third person singular', '3sg'],
    ['he', '3sg'],
    ['She', '3sg'],
    ['it', '3sg'],
  ])('%j → %s', (input, expected) => {
    expect(normalizePerson(input)).toBe(expected);
  });

  it('accepts every spelling offered as an enum', () => {
    expect(PERSON_SPELLINGS).toEqual(['1sg', '2sg', '3sg', '1st singular', '2nd singular', '3rd singular']);
    for (const spelling of PERSON_SPELLINGS) expect(() => normalizePerson(spelling)).not.toThrow();
  });

  it('says that plural persons are outside §A13', () => {
    for (const plural of ['1pl', '3rd plural', 'first person plural', 'we', 'They']) {
      expect(() => normalizePerson(plural)).toThrow(/is plural; §A13 covers the singular only/);
    }
  });

  it('rejects an unknown person, listing the accepted values', () => {
    expect(() => normalizePerson('fourth')).toThrow(
      /^unknown person 'fourth'; accepted: 1sg \(1st singular\), 2sg \(2nd singular\), 3sg \(3rd singular\)/,
    );
  });
});

describe('normalizeVerb', () => {
  it('trims, lowercases and drops a leading "to"', () => {
    expect(normalizeVerb('eat')).toBe('eat');
    expect(normalizeVerb('  Eat ')).toBe('eat');
    expect(normalizeVerb('to write')).toBe('write');
  });

  it('rejects a verb outside the table with the exact §A13 message, lowercased and trimmed', () => {
    expect(() => normalizeVerb('run')).toThrow(new OutOfScopeError('run'));
    try {
      normalizeVerb('  Run ');
    } catch (error) {
      expect(error).toBeInstanceOf(OutOfScopeError);
      expect((error as OutOfScopeError).message).toBe("verb 'run' is out of scope (§A13)");
      expect((error as OutOfScopeError).code).toBe('OUT_OF_SCOPE');
      expect((error as OutOfScopeError).verb).toBe('run');
    }
  });

  it('points a conjugated form to its verb instead of calling it out of scope', () => {
    expect(() => normalizeVerb('ate', table)).toThrow(
      new FormNotFoundError('ate', "'ate' is a form of 'eat', not a verb; pass the bare infinitive 'eat'"),
    );
    expect(() => normalizeVerb('ate')).toThrow(OutOfScopeError);
  });

  it('rejects an empty verb as an invalid argument', () => {
    expect(() => normalizeVerb('   ')).toThrow(InvalidArgumentError);
  });
});

describe('normalizeText', () => {
  it('trims, lowercases and collapses whitespace', () => {
    expect(normalizeText('  Will \t EAT ')).toBe('will eat');
  });
});
