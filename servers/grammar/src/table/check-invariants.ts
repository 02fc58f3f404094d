/**
 * The table-level rules JSON Schema cannot express: every (verb, tense, person) key exactly once, every
 * verb entry exactly once, and the rules that tie a verb's rows together (the forms that do not vary by
 * person, "will" + infinitive, the Spanish infinitive matching the verb entry, regular verbs ending in -ed).
 * Each rule catches a class of typo a per-row schema cannot see.
 */
import type { DataPath, TableLocator } from './table-locator.js';
import { PERSONS, TENSES, VERBS, isPerson, isTense, isVerb, rowKey, type Tense, type Verb } from './vocabulary.js';

/** Input of {@link checkInvariants}: the parsed data and what the schema step already rejected. */
export interface InvariantInput {
  readonly fileName: string;
  /** The parsed YAML (already schema-checked; it may still contain the rejected entries). */
  readonly data: unknown;
  readonly locator: TableLocator;
  /** Indices of rows with schema problems: their keys still count, their forms are not compared. */
  readonly badRows: ReadonlySet<number>;
  /** Indices of verb entries with schema problems. */
  readonly badVerbs: ReadonlySet<number>;
}

interface KeyedRow {
  readonly index: number;
  readonly verb: Verb;
  readonly tense: Tense;
  readonly english: unknown;
  readonly spanish: unknown;
  readonly valid: boolean;
}

/** Tenses whose English form is the same for every person (only present and past simple vary). */
const ENGLISH_INVARIANT: readonly Tense[] = ['infinitive', 'past_participle', 'simple_future'];
/** Tenses whose Spanish form is the same for every person. */
const SPANISH_INVARIANT: readonly Tense[] = ['infinitive', 'past_participle'];

/** Returns one problem line per violated rule, each prefixed with its location; `[]` when all hold. */
export function checkInvariants(input: InvariantInput): string[] {
  const { fileName, data, locator } = input;
  const problems: string[] = [];
  const report = (path: DataPath, message: string): void => {
    problems.push(`${locator.at(path)}: ${message}`);
  };
  const record = isRecord(data) ? data : {};
  const rawRows = Array.isArray(record.rows) ? record.rows : [];
  const rawVerbs = Array.isArray(record.verbs) ? record.verbs : [];

  // Verb entries: each of the 20 verbs once.
  const verbIndex = new Map<Verb, number>();
  const irregular = new Map<Verb, boolean>();
  const spanishInfinitive = new Map<Verb, string>();
  rawVerbs.forEach((entry: unknown, index) => {
    if (!isRecord(entry) || !isVerb(entry.verb)) return;
    const first = verbIndex.get(entry.verb);
    if (first !== undefined) {
      problems.push(`${locator.at(['verbs', index], false)} duplicates verbs entry ${first + 1} (${entry.verb})`);
      return;
    }
    verbIndex.set(entry.verb, index);
    if (input.badVerbs.has(index)) return;
    if (typeof entry.irregular === 'boolean') irregular.set(entry.verb, entry.irregular);
    if (typeof entry.spanish === 'string') spanishInfinitive.set(entry.verb, entry.spanish);
  });
  if (Array.isArray(record.verbs)) {
    for (const verb of VERBS) if (!verbIndex.has(verb)) problems.push(`${fileName}: missing verbs entry for '${verb}'`);
  }

  // Rows: each key once.
  const byKey = new Map<string, KeyedRow>();
  rawRows.forEach((row: unknown, index) => {
    if (!isRecord(row) || !isVerb(row.verb) || !isTense(row.tense) || !isPerson(row.person)) return;
    const key = rowKey(row.verb, row.tense, row.person);
    const first = byKey.get(key);
    if (first !== undefined) {
      problems.push(`${locator.at(['rows', index], false)} duplicates row ${first.index + 1} (${key})`);
      return;
    }
    byKey.set(key, {
      index,
      verb: row.verb,
      tense: row.tense,
      english: row.english,
      spanish: row.spanish,
      valid: !input.badRows.has(index),
    });
  });
  if (Array.isArray(record.rows)) {
    for (const verb of VERBS)
      for (const tense of TENSES)
        for (const person of PERSONS) {
          const key = rowKey(verb, tense, person);
          if (!byKey.has(key)) problems.push(`${fileName}: missing row ${key}`);
        }
  }

  // Per-verb rules, only for verbs whose 15 rows are all present and schema-valid.
  for (const verb of VERBS) {
    const rows = new Map<string, KeyedRow>();
    for (const tense of TENSES)
      for (const person of PERSONS) {
        const row = byKey.get(rowKey(verb, tense, person));
        if (row?.valid) rows.set(`${tense}/${person}`, row);
      }
    if (rows.size !== TENSES.length * PERSONS.length) continue;
    const at = (tense: Tense, person: string): KeyedRow => rows.get(`${tense}/${person}`) as KeyedRow;
    const where = (row: KeyedRow, field: string): DataPath => ['rows', row.index, field];

    for (const tense of ENGLISH_INVARIANT) sameForEveryPerson(tense, 'english');
    for (const tense of SPANISH_INVARIANT) sameForEveryPerson(tense, 'spanish');
    const infinitive = at('infinitive', '1sg');
    if (infinitive.english !== verb) {
      report(where(infinitive, 'english'), `the infinitive must be the bare verb '${verb}' (got '${String(infinitive.english)}')`);
    }
    const future = at('simple_future', '1sg');
    if (future.english !== `will ${verb}`) {
      report(where(future, 'english'), `the simple future must be 'will ${verb}' (got '${String(future.english)}')`);
    }
    const chosen = spanishInfinitive.get(verb);
    if (chosen !== undefined && infinitive.spanish !== chosen) {
      report(
        where(infinitive, 'spanish'),
        `the Spanish infinitive must match the verbs entry '${chosen}' (got '${String(infinitive.spanish)}')`,
      );
    }
    if (irregular.get(verb) === false) {
      for (const tense of ['past_simple', 'past_participle'] as const) {
        for (const person of PERSONS) {
          const row = at(tense, person);
          if (!String(row.english).endsWith('ed')) {
            report(where(row, 'english'), `'${verb}' is marked regular, so its ${tense} must end in -ed (got '${String(row.english)}')`);
          }
        }
      }
    }

    function sameForEveryPerson(tense: Tense, field: 'english' | 'spanish'): void {
      const first = at(tense, '1sg');
      for (const person of ['2sg', '3sg']) {
        const row = at(tense, person);
        if (row[field] !== first[field]) {
          report(
            where(row, field),
            `'${field}' of ${tense} must be the same for every person: '${String(first[field])}' in row ${first.index + 1} (1sg), '${String(row[field])}' here`,
          );
        }
      }
    }
  }
  return problems;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
