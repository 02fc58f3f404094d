/**
 * The loaded §A13 table: its rows plus every index the domain functions need, all built once at load time
 * so that answering a tool call is a map lookup.
 */
import type { RawRow, RawVerbEntry } from './table-schema.js';
import { PERSONS, TENSES, VERBS, rowKey, type Person, type Tense, type Verb } from './vocabulary.js';

/** One row of the table: a (verb, tense, person) key, its English and Spanish forms, and the verb's flag. */
export interface TableRow {
  readonly verb: Verb;
  readonly tense: Tense;
  readonly person: Person;
  /** The English verb form without pronoun ("ate", "will eat"). */
  readonly english: string;
  /** The Spanish translation ("comió", "me gusta"). */
  readonly spanish: string;
  /** Whether the English verb is irregular (from the file's `verbs` list). */
  readonly irregular: boolean;
}

/** What the file says about one verb as a whole. */
export interface VerbEntry {
  readonly verb: Verb;
  /** English irregularity: past simple or past participle not formed with -ed. */
  readonly irregular: boolean;
  /** The Spanish infinitive chosen for this verb (equal to its infinitive rows). */
  readonly spanish: string;
  /** Why that Spanish verb, and what to watch out for; may be absent. */
  readonly note?: string;
}

/** The principal parts of a verb, precomputed for `lookupIrregularVerb`. */
export interface PrincipalParts {
  readonly verb: Verb;
  readonly irregular: boolean;
  /** Bare infinitive ("eat"). */
  readonly base: string;
  /** 3rd singular present ("eats"). */
  readonly thirdPersonSingular: string;
  /** Distinct past simple forms in person order: one for most verbs, ["was", "were"] for be. */
  readonly pastSimple: readonly string[];
  /** Past participle ("eaten"). */
  readonly pastParticiple: string;
  /** The Spanish infinitive ("comer"). */
  readonly spanishInfinitive: string;
  /** The Spanish participle ("comido"). */
  readonly spanishParticiple: string;
  /** The three parts on one line: "eat – ate – eaten", "be – was/were – been". */
  readonly summary: string;
  /** The verb's note from the file, when it has one. */
  readonly note?: string;
}

/** Every row whose English form is one string, and the row chosen as the headline answer. */
export interface EnglishFormEntry {
  /** The matching rows in table order (verb, tense, person). */
  readonly rows: readonly TableRow[];
  /** The preferred answer; see {@link preferredRow}. */
  readonly primary: TableRow;
}

/** The validated table and its indices. Built by `parseTable`/`loadTable`; treat it as immutable. */
export interface Table {
  /** The file the table came from, as it appears in error messages. */
  readonly fileName: string;
  readonly version: number;
  readonly description: string;
  readonly source: string;
  /** All 300 rows in canonical order: verbs as in `VERBS`, then tenses, then persons. */
  readonly rows: readonly TableRow[];
  /** The 20 verb entries in `VERBS` order. */
  readonly verbs: readonly VerbEntry[];
  /** Row by `rowKey(verb, tense, person)`. */
  readonly rowsByKey: ReadonlyMap<string, TableRow>;
  /** Verb entry by verb. */
  readonly verbsByName: ReadonlyMap<Verb, VerbEntry>;
  /** Principal parts by verb. */
  readonly principalParts: ReadonlyMap<Verb, PrincipalParts>;
  /** Rows by English form ("ate" → 3 rows, "will eat" → 3 rows, "eat" → 5 rows). */
  readonly rowsByEnglish: ReadonlyMap<string, EnglishFormEntry>;
  /** The verbs whose forms contain a word ("will" → all 20, "ate" → [eat]), for diagnosing unknown forms. */
  readonly verbsByWord: ReadonlyMap<string, readonly Verb[]>;
}

/** Metadata of the file, as `buildTable` receives it. */
export interface TableMetadata {
  readonly fileName: string;
  readonly version: number;
  readonly description: string;
  readonly source: string;
}

const PERSON_PREFERENCE: Readonly<Record<Person, number>> = { '3sg': 0, '1sg': 1, '2sg': 2 };

/**
 * The headline row among rows sharing an English form: 3rd singular first (the seeds' "ate" → "comió"),
 * then 1st, then 2nd; among those, the earlier tense in `TENSES` order (so "had" is the past simple
 * "tuvo" rather than the participle "tenido", and "eat" is the infinitive "comer"); then verb order.
 * Returns undefined for an empty list.
 */
export function preferredRow(rows: readonly TableRow[]): TableRow | undefined {
  let best: TableRow | undefined;
  for (const row of rows) if (best === undefined || compareRows(row, best) < 0) best = row;
  return best;
}

function compareRows(a: TableRow, b: TableRow): number {
  return (
    PERSON_PREFERENCE[a.person] - PERSON_PREFERENCE[b.person] ||
    TENSES.indexOf(a.tense) - TENSES.indexOf(b.tense) ||
    VERBS.indexOf(a.verb) - VERBS.indexOf(b.verb)
  );
}

/**
 * Builds the table and its indices from rows and verb entries that have already passed the schema and the
 * invariants (every key exactly once, every verb once). Throws a plain Error if that precondition is
 * broken, since it would be a bug in the loader rather than in the file.
 */
export function buildTable(meta: TableMetadata, rawVerbs: readonly RawVerbEntry[], rawRows: readonly RawRow[]): Table {
  const verbsByName = new Map<Verb, VerbEntry>();
  for (const v of rawVerbs) {
    verbsByName.set(v.verb, { verb: v.verb, irregular: v.irregular, spanish: v.spanish, ...(v.note ? { note: v.note } : {}) });
  }
  const rawByKey = new Map(rawRows.map((r) => [rowKey(r.verb, r.tense, r.person), r]));

  const rows: TableRow[] = [];
  const rowsByKey = new Map<string, TableRow>();
  for (const verb of VERBS) {
    const entry = required(verbsByName.get(verb), `verb entry ${verb}`);
    for (const tense of TENSES) {
      for (const person of PERSONS) {
        const key = rowKey(verb, tense, person);
        const raw = required(rawByKey.get(key), `row ${key}`);
        const row: TableRow = Object.freeze({
          verb,
          tense,
          person,
          english: raw.english,
          spanish: raw.spanish,
          irregular: entry.irregular,
        });
        rows.push(row);
        rowsByKey.set(key, row);
      }
    }
  }

  const byEnglish = new Map<string, TableRow[]>();
  const verbsByWord = new Map<string, Verb[]>();
  for (const row of rows) {
    push(byEnglish, row.english, row);
    for (const word of row.english.split(' ')) {
      const list = verbsByWord.get(word) ?? [];
      if (!list.includes(row.verb)) list.push(row.verb);
      verbsByWord.set(word, list);
    }
  }
  const rowsByEnglish = new Map<string, EnglishFormEntry>();
  for (const [form, matches] of byEnglish) {
    rowsByEnglish.set(form, { rows: matches, primary: required(preferredRow(matches), form) });
  }

  const principalParts = new Map<Verb, PrincipalParts>();
  for (const verb of VERBS) {
    const entry = required(verbsByName.get(verb), verb);
    const get = (tense: Tense, person: Person): TableRow => required(rowsByKey.get(rowKey(verb, tense, person)), verb);
    const base = get('infinitive', '1sg').english;
    const pastSimple = [...new Set(PERSONS.map((p) => get('past_simple', p).english))];
    const pastParticiple = get('past_participle', '1sg').english;
    principalParts.set(verb, {
      verb,
      irregular: entry.irregular,
      base,
      thirdPersonSingular: get('present_simple', '3sg').english,
      pastSimple,
      pastParticiple,
      spanishInfinitive: get('infinitive', '1sg').spanish,
      spanishParticiple: get('past_participle', '1sg').spanish,
      summary: `${base} – ${pastSimple.join('/')} – ${pastParticiple}`,
      ...(entry.note ? { note: entry.note } : {}),
    });
  }

  return {
    ...meta,
    rows,
    verbs: VERBS.map((v) => required(verbsByName.get(v), v)),
    rowsByKey,
    verbsByName,
    principalParts,
    rowsByEnglish,
    verbsByWord,
  };
}

function push<K, V>(map: Map<K, V[]>, key: K, value: V): void {
  const list = map.get(key);
  if (list) list.push(value);
  else map.set(key, [value]);
}

function required<T>(value: T | undefined, what: string): T {
  if (value === undefined) throw new Error(`buildTable: ${what} is missing; the table was not validated`);
  return value;
}
