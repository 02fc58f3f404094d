/**
 * The closed vocabulary of §A13: its 20 verbs, 5 tenses and 3 persons, with the canonical keys used in
 * `data/a13.yaml` and the human spellings that the seeds use on the wire ("past simple", "3rd singular").
 * These lists feed the table's JSON Schema, the tools' input-schema enums and argument completions.
 */

/** The 20 §A13 verbs (bare infinitive), in table order: the 12 regular verbs, then the 8 irregular ones. */
export const VERBS = [
  'work',
  'play',
  'walk',
  'talk',
  'listen',
  'watch',
  'study',
  'finish',
  'start',
  'look',
  'want',
  'like',
  'be',
  'have',
  'do',
  'go',
  'come',
  'see',
  'eat',
  'write',
] as const;

/** One of the 20 §A13 verbs. */
export type Verb = (typeof VERBS)[number];

/** The 5 canonical tense keys, in table order. */
export const TENSES = ['infinitive', 'present_simple', 'past_simple', 'past_participle', 'simple_future'] as const;

/** One of the 5 canonical tense keys. */
export type Tense = (typeof TENSES)[number];

/** The 3 canonical person keys (singular only), in table order. */
export const PERSONS = ['1sg', '2sg', '3sg'] as const;

/** One of the 3 canonical person keys. */
export type Person = (typeof PERSONS)[number];

/** The human label of each tense, as the seeds spell it on the wire ("past simple"). */
export const TENSE_LABELS: Readonly<Record<Tense, string>> = {
  infinitive: 'infinitive',
  present_simple: 'present simple',
  past_simple: 'past simple',
  past_participle: 'past participle',
  simple_future: 'simple future',
};

/** The human label of each person, as the seeds spell it on the wire ("3rd singular"). */
export const PERSON_LABELS: Readonly<Record<Person, string>> = {
  '1sg': '1st singular',
  '2sg': '2nd singular',
  '3sg': '3rd singular',
};

/** The English and Spanish subject pronouns of each person, for explanations and rendered tables. */
export const PERSON_PRONOUNS: Readonly<Record<Person, { readonly english: readonly string[]; readonly spanish: readonly string[] }>> = {
  '1sg': { english: ['I'], spanish: ['yo'] },
  '2sg': { english: ['you'], spanish: ['tú'] },
  '3sg': { english: ['he', 'she', 'it'], spanish: ['él', 'ella'] },
};

/**
 * Every tense spelling a tool schema should list as an enum: the canonical keys first, then the labels
 * (`infinitive` is both). `normalizeTense` accepts all of these and more.
 */
export const TENSE_SPELLINGS: readonly string[] = unique([...TENSES, ...TENSES.map((t) => TENSE_LABELS[t])]);

/**
 * Every person spelling a tool schema should list as an enum: the canonical keys, then the labels.
 * `normalizePerson` accepts all of these and more.
 */
export const PERSON_SPELLINGS: readonly string[] = unique([...PERSONS, ...PERSONS.map((p) => PERSON_LABELS[p])]);

const VERB_SET: ReadonlySet<string> = new Set(VERBS);
const TENSE_SET: ReadonlySet<string> = new Set(TENSES);
const PERSON_SET: ReadonlySet<string> = new Set(PERSONS);

/** True when `value` is exactly one of the 20 verbs (no normalization). */
export function isVerb(value: unknown): value is Verb {
  return typeof value === 'string' && VERB_SET.has(value);
}

/** True when `value` is exactly one of the canonical tense keys (no normalization). */
export function isTense(value: unknown): value is Tense {
  return typeof value === 'string' && TENSE_SET.has(value);
}

/** True when `value` is exactly one of the canonical person keys (no normalization). */
export function isPerson(value: unknown): value is Person {
  return typeof value === 'string' && PERSON_SET.has(value);
}

/** The identity of a row, `verb/tense/person` (e.g. `eat/past_simple/3sg`), used in maps and messages. */
export function rowKey(verb: Verb, tense: Tense, person: Person): string {
  return `${verb}/${tense}/${person}`;
}

function unique(values: readonly string[]): string[] {
  return [...new Set(values)];
}
