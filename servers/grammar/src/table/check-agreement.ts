/**
 * The `check_subject_verb_agreement` tool's logic: does a verb form fit a subject, and if not, which form
 * does. The verb form is looked up in the table, so only forms of the 20 §A13 verbs can be judged.
 */
import { classifySubject } from './classify-subject.js';
import { InvalidArgumentError } from './grammar-error.js';
import { normalizeText } from './normalize.js';
import type { Table, TableRow } from './table.js';
import { unknownFormError, verbBehind } from './unknown-form.js';
import { PERSON_LABELS, PERSON_PRONOUNS, PERSONS, TENSE_LABELS, rowKey, type Person, type Tense, type Verb } from './vocabulary.js';

/** A subject and verb form that could be judged. */
export interface CheckedAgreement {
  readonly status: 'checked';
  /** Whether the verb form is right for the subject. */
  readonly agrees: boolean;
  /** The subject as given (trimmed). */
  readonly subject: string;
  readonly subjectKind: 'pronoun' | 'noun_phrase';
  readonly person: Person;
  /** The verb form as normalized (lowercase, single spaces). */
  readonly verbForm: string;
  readonly verb: Verb;
  /** The tense the form was read as (for a non-finite form: infinitive or past_participle). */
  readonly tense: Tense;
  /** The right form for this subject: the form itself when it agrees. */
  readonly expected: string;
  /** The Spanish of the expected form for this person (`he ate` → `comió`). */
  readonly spanish: string;
  /** One or two sentences for the learner. */
  readonly explanation: string;
}

/** A subject §A13 cannot judge because it is plural (the table is singular only). */
export interface PluralSubjectResult {
  readonly status: 'plural_subject';
  /** Not judged: neither true nor false. */
  readonly agrees: null;
  readonly subject: string;
  readonly person: null;
  readonly verbForm: string;
  readonly explanation: string;
}

/** The answer of {@link checkSubjectVerbAgreement}. */
export type AgreementResult = CheckedAgreement | PluralSubjectResult;

const FINITE: ReadonlySet<Tense> = new Set(['present_simple', 'past_simple', 'simple_future']);

/**
 * Checks that `verbForm` agrees with `subject` (see `classifySubject` for how subjects are read: I / you /
 * he / she / it / a singular noun phrase). The verb form may repeat the subject (`he eats`). Outcomes:
 * - a finite form of the subject's person (`I am`, `he ate`, `she will eat`): agrees;
 * - a finite form of another person (`he eat`, `you was`): does not agree; `expected` is the same verb and
 *   tense for the subject's person (`eats`, `were`);
 * - a bare infinitive or past participle alone (`I be`, `he eaten`): does not agree; `expected` is the
 *   present simple or past simple for the person (`am`, `ate`);
 * - `will` with a non-bare form (`he will eats`): does not agree; `expected` is `will eat`;
 * - a plural subject (we, they, "the dogs"): `status: 'plural_subject'`, `agrees: null`, not judged.
 * Throws `OutOfScopeError` (`verb 'runs' is out of scope (§A13)`) when the form is not one of the 20 verbs,
 * `FormNotFoundError` for a malformed form of one of them (`goed`), `InvalidArgumentError` for an empty
 * subject or form or an object-pronoun subject. The verb is resolved before the subject's number is judged,
 * so an out-of-scope verb is reported even with a plural subject.
 */
export function checkSubjectVerbAgreement(table: Table, subject: string, verbForm: string): AgreementResult {
  const reading = classifySubject(subject);
  let form = normalizeText(verbForm);
  const lowerSubject = reading.subject.toLowerCase();
  if (form.startsWith(`${lowerSubject} `)) form = form.slice(lowerSubject.length + 1);
  if (form === '') throw new InvalidArgumentError('verb_form', verbForm, 'verb_form must be a non-empty English verb form, e.g. "eats"');

  const rows = table.rowsByEnglish.get(form)?.rows;
  const willVerb = rows ? undefined : willWithWrongForm(table, form);
  if (!rows && !willVerb) throw unknownFormError(table, form);

  if (reading.kind === 'plural') {
    return {
      status: 'plural_subject',
      agrees: null,
      subject: reading.subject,
      person: null,
      verbForm: form,
      explanation: `${reading.reason}; §A13 covers singular subjects only (I, you, he, she, it, a singular noun phrase), so agreement with it is not checked.`,
    };
  }
  const person = reading.person;
  const who = reading.kind === 'pronoun' ? `'${reading.subject}'` : `'${reading.subject}' (a singular noun phrase)`;
  const result = (verb: Verb, tense: Tense, agrees: boolean, expectedTense: Tense, explanation: string): CheckedAgreement => {
    const expectedRow = row(table, verb, expectedTense, person);
    return {
      status: 'checked',
      agrees,
      subject: reading.subject,
      subjectKind: reading.kind,
      person,
      verbForm: form,
      verb,
      tense,
      expected: expectedRow.english,
      spanish: expectedRow.spanish,
      explanation,
    };
  };

  if (willVerb) {
    const expected = row(table, willVerb, 'simple_future', person).english;
    return result(
      willVerb,
      'simple_future',
      false,
      'simple_future',
      `After 'will' English uses the bare infinitive: '${expected}', for every person.`,
    );
  }
  const matches = rows as readonly TableRow[];
  const finite = matches.filter((r) => FINITE.has(r.tense));
  const own = finite.find((r) => r.person === person);
  if (own) {
    const same = PERSONS.every((p) => row(table, own.verb, own.tense, p).english === own.english);
    const why = same
      ? `'${form}' is the ${TENSE_LABELS[own.tense]} of '${own.verb}', the same for every person.`
      : `${who} is ${PERSON_LABELS[person]}, and '${form}' is the ${PERSON_LABELS[person]} ${TENSE_LABELS[own.tense]} of '${own.verb}'.`;
    return result(own.verb, own.tense, true, own.tense, why);
  }
  const other = finite[0];
  if (other) {
    const expected = row(table, other.verb, other.tense, person).english;
    const owners = finite.filter((r) => r.tense === other.tense && r.verb === other.verb).flatMap((r) => PERSON_PRONOUNS[r.person].english);
    return result(
      other.verb,
      other.tense,
      false,
      other.tense,
      `${who} is ${PERSON_LABELS[person]}, so the ${TENSE_LABELS[other.tense]} of '${other.verb}' is '${expected}'; '${form}' is the form for ${listWords(owners)}.`,
    );
  }
  // Only non-finite rows match: a bare infinitive or a past participle cannot be the verb of a clause alone.
  const nonFinite = matches[0] as TableRow;
  if (nonFinite.tense === 'past_participle') {
    const expected = row(table, nonFinite.verb, 'past_simple', person).english;
    const perfect = `${row(table, 'have', 'present_simple', person).english} ${form}`;
    return result(
      nonFinite.verb,
      'past_participle',
      false,
      'past_simple',
      `'${form}' is the past participle of '${nonFinite.verb}' and needs an auxiliary ('${perfect}', a compound tense outside §A13); the past simple for ${who} is '${expected}'.`,
    );
  }
  const expected = row(table, nonFinite.verb, 'present_simple', person).english;
  return result(
    nonFinite.verb,
    'infinitive',
    false,
    'present_simple',
    `'${form}' is the bare infinitive; the present simple of '${nonFinite.verb}' for ${who} is '${expected}'.`,
  );
}

/** "I", "I and you", "I, he, she and it". */
function listWords(words: readonly string[]): string {
  return words.length <= 1 ? (words[0] ?? '') : `${words.slice(0, -1).join(', ')} and ${words[words.length - 1]}`;
}

/** For `will eats` / `will ate`: the verb, when the form is "will" plus some other form of a §A13 verb. */
function willWithWrongForm(table: Table, form: string): Verb | undefined {
  if (!form.startsWith('will ') || form.split(' ').length !== 2) return undefined;
  return verbBehind(table, form);
}

function row(table: Table, verb: Verb, tense: Tense, person: Person): TableRow {
  const found = table.rowsByKey.get(rowKey(verb, tense, person));
  if (!found) throw new Error(`table has no row ${rowKey(verb, tense, person)}`);
  return found;
}
