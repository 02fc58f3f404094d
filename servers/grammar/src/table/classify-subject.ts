/**
 * Decides the grammatical person of a subject for the agreement check. Pronouns are certain; for a noun
 * phrase the person is always 3rd, and the number comes from a few dependable signals (determiners,
 * coordination, the head noun's ending). §A13 covers the singular only, so a subject that reads as plural is
 * classified as such instead of being forced into a singular person.
 */
import { InvalidArgumentError } from './grammar-error.js';
import type { Person } from './vocabulary.js';

/** How a subject was read. */
export type SubjectClass =
  | { readonly kind: 'pronoun'; readonly person: Person; readonly subject: string }
  | { readonly kind: 'noun_phrase'; readonly person: '3sg'; readonly subject: string }
  | { readonly kind: 'plural'; readonly subject: string; readonly reason: string };

const SUBJECT_PRONOUNS: Readonly<Record<string, Person>> = { i: '1sg', you: '2sg', he: '3sg', she: '3sg', it: '3sg' };
const PLURAL_PRONOUNS: ReadonlySet<string> = new Set(['we', 'they', 'you all', 'you guys', "y'all", 'you both', 'you two']);
const OBJECT_PRONOUNS: Readonly<Record<string, string>> = { me: 'I', him: 'he', her: 'she', us: 'we', them: 'they' };

/** Determiners that make the noun phrase singular whatever the noun looks like ("this news", "each of us"). */
const SINGULAR_DETERMINERS: ReadonlySet<string> = new Set([
  'a',
  'an',
  'this',
  'that',
  'each',
  'every',
  'one',
  'another',
  'either',
  'neither',
]);
/** Determiners and quantifiers that make it plural. */
const PLURAL_DETERMINERS: ReadonlySet<string> = new Set([
  'these',
  'those',
  'both',
  'several',
  'many',
  'few',
  'all',
  'various',
  'two',
  'three',
  'four',
  'five',
  'six',
  'seven',
  'eight',
  'nine',
  'ten',
  'eleven',
  'twelve',
  'dozens',
  'hundreds',
  'thousands',
]);
/** Common plurals without -s. */
const IRREGULAR_PLURALS: ReadonlySet<string> = new Set([
  'people',
  'children',
  'men',
  'women',
  'mice',
  'feet',
  'teeth',
  'geese',
  'cattle',
  'police',
]);
/** Singular nouns that end in -s like a plural: -ss (boss), -us (bus), -is (analysis), -ics (physics), -ness. */
const SINGULAR_S_ENDING = /(ss|us|is|ics|ness|ous|news)$/;
/** Prepositions that start a post-modifier: the head noun comes before them ("the dog of the neighbours"). */
const PREPOSITIONS: ReadonlySet<string> = new Set([
  'of',
  'with',
  'in',
  'on',
  'from',
  'at',
  'for',
  'near',
  'by',
  'under',
  'behind',
  'without',
]);

/**
 * Reads a subject: I → 1sg, you → 2sg, he / she / it → 3sg (any case); we, they, "you all" → plural; any
 * other text is a noun phrase, 3rd person, plural if it has a plural determiner (these, both, two, …), a
 * coordination ("Ana and Luis"), an irregular plural head (people, children) or a head ending in -s without a
 * singular determiner ("the dogs", "dogs"; but "a bus", "the boss", "James"), singular otherwise ("the dog",
 * "Ana", "everyone"). Throws `InvalidArgumentError` for an empty subject or an object pronoun (him, them).
 */
export function classifySubject(input: string): SubjectClass {
  const subject = input.trim().replace(/\s+/g, ' ');
  const lower = subject.toLowerCase();
  if (lower === '')
    throw new InvalidArgumentError('subject', input, 'subject must be a non-empty pronoun or noun phrase, e.g. "he" or "the dog"');

  const pronoun = SUBJECT_PRONOUNS[lower];
  if (pronoun) return { kind: 'pronoun', person: pronoun, subject };
  if (PLURAL_PRONOUNS.has(lower)) return { kind: 'plural', subject, reason: `'${subject}' is a plural pronoun` };
  const object = OBJECT_PRONOUNS[lower];
  if (object) {
    throw new InvalidArgumentError('subject', input, `'${subject}' is an object pronoun and cannot be a subject; use '${object}'`);
  }

  const words = subject.split(' ').map((w) => w.replace(/[.,;:!?"]+$/g, ''));
  const lowerWords = words.map((w) => w.toLowerCase());
  if (lowerWords.includes('and')) return { kind: 'plural', subject, reason: `'${subject}' joins two subjects with 'and'` };
  const first = lowerWords[0] ?? '';
  if (PLURAL_DETERMINERS.has(first) || /^([2-9]|\d{2,})$/.test(first)) {
    return { kind: 'plural', subject, reason: `'${first}' makes '${subject}' plural` };
  }
  if (SINGULAR_DETERMINERS.has(first)) return { kind: 'noun_phrase', person: '3sg', subject };

  const headIndex = headNounIndex(lowerWords);
  const head = lowerWords[headIndex] ?? '';
  if (IRREGULAR_PLURALS.has(head)) return { kind: 'plural', subject, reason: `'${head}' is a plural noun` };
  // A capitalized word with no determiner before it is read as a name (James, Paris), not a plural.
  const isName = headIndex === 0 && /^\p{Lu}/u.test(words[0] ?? '');
  if (head.length > 2 && head.endsWith('s') && !SINGULAR_S_ENDING.test(head) && !isName) {
    return { kind: 'plural', subject, reason: `'${head}' looks like a plural noun` };
  }
  return { kind: 'noun_phrase', person: '3sg', subject };
}

/** The index of the head noun: the last word before the first preposition (or the last word). */
function headNounIndex(words: readonly string[]): number {
  const preposition = words.findIndex((w, i) => i > 0 && PREPOSITIONS.has(w));
  return (preposition > 0 ? preposition : words.length) - 1;
}
