import { describe, expect, it } from 'vitest';
import { classifySubject } from './classify-subject.js';

describe('classifySubject', () => {
  it.each([
    ['I', '1sg'],
    ['you', '2sg'],
    ['He', '3sg'],
    ['she', '3sg'],
    ['it', '3sg'],
  ])('reads the pronoun %s as %s', (subject, person) => {
    expect(classifySubject(subject)).toEqual({ kind: 'pronoun', person, subject });
  });

  it.each(['the dog', 'a bus', 'the boss', 'this news', 'James', 'my teacher', 'the dog of my neighbours', 'everyone', 'physics'])(
    'reads %j as a singular noun phrase',
    (subject) => {
      expect(classifySubject(subject)).toEqual({ kind: 'noun_phrase', person: '3sg', subject });
    },
  );

  it.each([
    ['we', "'we' is a plural pronoun"],
    ['they', "'they' is a plural pronoun"],
    ['you all', "'you all' is a plural pronoun"],
    ['the dogs', "'dogs' looks like a plural noun"],
    ['dogs', "'dogs' looks like a plural noun"],
    ['the children', "'children' is a plural noun"],
    ['Ana and Luis', "'Ana and Luis' joins two subjects with 'and'"],
    ['those books', "'those' makes 'those books' plural"],
    ['3 cats', "'3' makes '3 cats' plural"],
  ])('reads %j as plural', (subject, reason) => {
    expect(classifySubject(subject)).toEqual({ kind: 'plural', subject, reason });
  });

  it('rejects object pronouns and empty subjects', () => {
    expect(() => classifySubject('them')).toThrow("'them' is an object pronoun and cannot be a subject; use 'they'");
    expect(() => classifySubject('  ')).toThrow(/subject must be a non-empty/);
  });
});
