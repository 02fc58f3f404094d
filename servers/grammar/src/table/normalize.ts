/**
 * Turns what a user or a model types into the table's canonical keys. Tools accept both the canonical keys
 * (`past_simple`, `3sg`, used by seed 000) and the human spellings (`past simple`, `3rd singular`, used by
 * seed 002), plus a few common variants; anything else is rejected with the list of accepted values.
 */
import { FormNotFoundError, InvalidArgumentError, OutOfScopeError } from './grammar-error.js';
import type { Table } from './table.js';
import { PERSONS, PERSON_LABELS, TENSES, TENSE_LABELS, VERBS, isVerb, type Person, type Tense, type Verb } from './vocabulary.js';

/** Trims, lowercases and collapses runs of whitespace to one space: the form every lookup compares. */
export function normalizeText(input: string): string {
  return input.trim().toLowerCase().replace(/\s+/g, ' ');
}

/**
 * Every accepted tense spelling, keyed after lowercasing and turning runs of spaces, `_` and `-` into `_`
 * (so `Past Simple`, `past-simple` and `past_simple` are one key). A trailing "tense" is ignored.
 */
export const TENSE_ALIASES: Readonly<Record<string, Tense>> = {
  infinitive: 'infinitive',
  bare_infinitive: 'infinitive',
  base_form: 'infinitive',
  present_simple: 'present_simple',
  simple_present: 'present_simple',
  present: 'present_simple',
  past_simple: 'past_simple',
  simple_past: 'past_simple',
  past: 'past_simple',
  preterite: 'past_simple',
  past_participle: 'past_participle',
  participle: 'past_participle',
  simple_future: 'simple_future',
  future_simple: 'simple_future',
  future: 'simple_future',
  will_future: 'simple_future',
};

/**
 * The canonical tense for `input`. Accepts the keys of {@link TENSE_ALIASES} in any case, with spaces,
 * hyphens or underscores, optionally followed by "tense". Throws an {@link InvalidArgumentError} listing the
 * accepted values otherwise.
 */
export function normalizeTense(input: string): Tense {
  const key = input
    .trim()
    .toLowerCase()
    .replace(/[\s_-]+/g, '_')
    .replace(/_tense$/, '');
  const tense = TENSE_ALIASES[key];
  if (tense) return tense;
  const accepted = TENSES.map((t) => (TENSE_LABELS[t] === t ? t : `${t} (${TENSE_LABELS[t]})`)).join(', ');
  throw new InvalidArgumentError('tense', input, `unknown tense '${input.trim()}'; accepted: ${accepted}`);
}

const ORDINALS: Readonly<Record<Person, readonly string[]>> = {
  '1sg': ['1', '1st', 'first'],
  '2sg': ['2', '2nd', 'second'],
  '3sg': ['3', '3rd', 'third'],
};

/** Subject pronouns accepted as persons: English, and the Spanish ones a Spanish-speaking learner may type. */
const PRONOUN_PERSONS: Readonly<Record<string, Person>> = {
  i: '1sg',
  yo: '1sg',
  you: '2sg',
  tú: '2sg',
  tu: '2sg',
  he: '3sg',
  she: '3sg',
  it: '3sg',
  'he/she/it': '3sg',
  él: '3sg',
  ella: '3sg',
};

/**
 * Every accepted person spelling, keyed after lowercasing and turning runs of spaces, `_` and `-` into one
 * space: `1sg`, `1 sg`, `1s`, `1st singular`, `1st person singular`, `first singular`, `first person
 * singular` (likewise for 2nd and 3rd), and the pronouns I / you / he / she / it (and yo / tú / él / ella).
 */
export const PERSON_ALIASES: Readonly<Record<string, Person>> = buildPersonAliases();

function buildPersonAliases(): Record<string, Person> {
  const aliases: Record<string, Person> = { ...PRONOUN_PERSONS };
  for (const person of PERSONS) {
    const n = person[0] as string;
    aliases[`${n}sg`] = person;
    aliases[`${n} sg`] = person;
    aliases[`${n}s`] = person;
    for (const ordinal of ORDINALS[person]) {
      for (const middle of ['', ' person']) {
        aliases[`${ordinal}${middle} singular`] = person;
        aliases[`${ordinal}${middle} sg`] = person;
      }
    }
  }
  return aliases;
}

const PLURAL_PERSON = /(^|\s)(\d?pl|plural|we|they|nosotros|nosotras|vosotros|vosotras|ellos|ellas|ustedes)(\s|$)/;

/**
 * The canonical person for `input` (see {@link PERSON_ALIASES}). A plural person (`1pl`, `3rd plural`, `we`,
 * `they`) and an unknown value both throw an {@link InvalidArgumentError}; the plural one says that §A13
 * covers the singular only.
 */
export function normalizePerson(input: string): Person {
  const key = input
    .trim()
    .toLowerCase()
    .replace(/[\s_-]+/g, ' ');
  const person = PERSON_ALIASES[key];
  if (person) return person;
  if (PLURAL_PERSON.test(key)) {
    throw new InvalidArgumentError('person', input, `person '${input.trim()}' is plural; §A13 covers the singular only (1sg, 2sg, 3sg)`);
  }
  const accepted = PERSONS.map((p) => `${p} (${PERSON_LABELS[p]})`).join(', ');
  throw new InvalidArgumentError(
    'person',
    input,
    `unknown person '${input.trim()}'; accepted: ${accepted}, also "first person singular" etc. and the pronouns I, you, he, she, it`,
  );
}

/**
 * The §A13 verb for `input`: trimmed, lowercased, with a leading "to " removed (`To Eat` → `eat`). An empty
 * input throws an {@link InvalidArgumentError}. A verb outside the 20 throws an {@link OutOfScopeError} whose
 * message is exactly `verb 'run' is out of scope (§A13)`, quoting the normalized input. When `table` is given
 * and the input is a conjugated form of a §A13 verb (`ate`), a {@link FormNotFoundError} says which verb to
 * pass instead, since "out of scope" would be wrong for it.
 */
export function normalizeVerb(input: string, table?: Table): Verb {
  const text = normalizeText(input).replace(/^to /, '');
  if (text === '') {
    throw new InvalidArgumentError('verb', input, `verb must be one of the 20 §A13 verbs: ${VERBS.join(', ')}`);
  }
  if (isVerb(text)) return text;
  const entry = table?.rowsByEnglish.get(text);
  if (entry) {
    const verb = entry.primary.verb;
    throw new FormNotFoundError(text, `'${text}' is a form of '${verb}', not a verb; pass the bare infinitive '${verb}'`);
  }
  throw new OutOfScopeError(text);
}
