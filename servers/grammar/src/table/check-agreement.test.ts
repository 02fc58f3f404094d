import { describe, expect, it } from 'vitest';
import { checkSubjectVerbAgreement, type AgreementResult } from './check-agreement.js';
import { FormNotFoundError, InvalidArgumentError, OutOfScopeError } from './grammar-error.js';
import { loadTable } from './load-table.js';

const table = loadTable();
const check = (subject: string, verbForm: string): AgreementResult => checkSubjectVerbAgreement(table, subject, verbForm);

describe('checkSubjectVerbAgreement', () => {
  it.each([
    ['I', 'am', 'be', 'present_simple', 'soy'],
    ['you', 'are', 'be', 'present_simple', 'eres'],
    ['he', 'eats', 'eat', 'present_simple', 'come'],
    ['she', 'will eat', 'eat', 'simple_future', 'comerá'],
    ['it', 'was', 'be', 'past_simple', 'fue'],
    ['you', 'were', 'be', 'past_simple', 'fuiste'],
    ['I', 'had', 'have', 'past_simple', 'tuve'],
    ['the dog', 'eats', 'eat', 'present_simple', 'come'],
    ['Ana', 'studies', 'study', 'present_simple', 'estudia'],
    ['James', 'likes', 'like', 'present_simple', 'le gusta'],
    ['everyone', 'goes', 'go', 'present_simple', 'va'],
    ['the boss', 'was', 'be', 'past_simple', 'fue'],
  ])('%s %s agrees (%s, %s → %s)', (subject, form, verb, tense, spanish) => {
    const result = check(subject, form);
    expect(result).toMatchObject({ status: 'checked', agrees: true, verb, tense, expected: form, spanish });
  });

  it.each([
    ['he', 'eat', 'eats', "'he' is 3rd singular, so the present simple of 'eat' is 'eats'; 'eat' is the form for I and you."],
    ['you', 'was', 'were', "'you' is 2nd singular, so the past simple of 'be' is 'were'; 'was' is the form for I, he, she and it."],
    ['I', 'is', 'am', "'I' is 1st singular, so the present simple of 'be' is 'am'; 'is' is the form for he, she and it."],
    [
      'the dog',
      'have',
      'has',
      "'the dog' (a singular noun phrase) is 3rd singular, so the present simple of 'have' is 'has'; 'have' is the form for I and you.",
    ],
    ['she', 'do', 'does', "'she' is 3rd singular, so the present simple of 'do' is 'does'; 'do' is the form for I and you."],
  ])('%s %s does not agree: expected %s', (subject, form, expected, explanation) => {
    expect(check(subject, form)).toMatchObject({ status: 'checked', agrees: false, expected, explanation });
  });

  it('reads a bare infinitive or a participle alone as not agreeing, with the finite form expected', () => {
    expect(check('I', 'be')).toMatchObject({ agrees: false, tense: 'infinitive', expected: 'am', spanish: 'soy' });
    const eaten = check('he', 'eaten');
    expect(eaten).toMatchObject({ agrees: false, tense: 'past_participle', expected: 'ate', spanish: 'comió' });
    expect(eaten.explanation).toContain("'has eaten'");
    expect(check('I', 'gone').explanation).toContain("'have gone'");
  });

  it('wants the bare infinitive after will', () => {
    expect(check('he', 'will eats')).toMatchObject({ agrees: false, tense: 'simple_future', expected: 'will eat' });
    expect(check('I', 'will went')).toMatchObject({ agrees: false, verb: 'go', expected: 'will go' });
  });

  it('accepts a verb form that repeats the subject', () => {
    expect(check('He', 'he eats')).toMatchObject({ agrees: true, expected: 'eats' });
    expect(check('I', 'I was')).toMatchObject({ agrees: true, expected: 'was' });
  });

  it('does not judge plural subjects, saying that §A13 is singular only', () => {
    for (const subject of ['we', 'they', 'the dogs', 'Ana and Luis', 'these books', 'two cats', 'people']) {
      const result = check(subject, 'eat');
      expect(result.status).toBe('plural_subject');
      expect(result.agrees).toBeNull();
      expect(result.person).toBeNull();
      expect(result.explanation).toContain('§A13 covers singular subjects only');
    }
  });

  it('rejects a verb outside the table with the exact §A13 message, even with a plural subject', () => {
    expect(() => check('he', 'runs')).toThrow(new OutOfScopeError('runs'));
    expect(() => check('she', 'will run')).toThrow("verb 'run' is out of scope (§A13)");
    expect(() => check('they', 'run')).toThrow("verb 'run' is out of scope (§A13)");
  });

  it('explains a malformed form of a §A13 verb', () => {
    expect(() => check('it', 'goed')).toThrow(FormNotFoundError);
  });

  it('rejects empty arguments and object pronouns as subjects', () => {
    expect(() => check('', 'eats')).toThrow(InvalidArgumentError);
    expect(() => check('he', ' ')).toThrow(InvalidArgumentError);
    expect(() => check('him', 'eats')).toThrow("'him' is an object pronoun and cannot be a subject; use 'he'");
  });
});
