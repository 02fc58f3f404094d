/**
 * Turns ajv's errors into sentences a person editing `a13.yaml` can act on: which property, what it must
 * be, what it is. Locating the error (file, row number, line, key) is `parseTable`'s job; this module only
 * says what is wrong at a JSON path.
 */
import type { SchemaError } from './validate-table-file.js';
import { PERSONS, TENSES, VERBS } from './vocabulary.js';

/** One schema violation: where (a path into the parsed file) and what (a sentence without location). */
export interface SchemaProblem {
  /** Path into the parsed file, e.g. `['rows', 41, 'spanish']`; `[]` for the whole file. */
  readonly path: readonly (string | number)[];
  /** E.g. `'spanish' must be a non-empty string … (got '')`. */
  readonly message: string;
}

const SPANISH_TEXT = 'a non-empty string of lowercase Spanish words (a–z, ñ, á, é, í, ó, ú, ü, precomposed) separated by single spaces';

/** Appended when a string only looks right: its accents are decomposed, which lookups would not match. */
const NFC_HINT = '; it is not in Unicode NFC: write each accented letter as one precomposed character';

/** What each property must be, worded for a person. */
const EXPECTATIONS: Readonly<Record<string, string>> = {
  version: '1',
  description: 'a non-empty string',
  source: 'a non-empty string',
  note: 'a non-empty string',
  verbs: 'a list of verb entries',
  rows: 'a list of rows',
  irregular: 'true or false',
  verb: `one of the 20 §A13 verbs (${VERBS.join(', ')})`,
  tense: `one of ${TENSES.join(', ')}`,
  person: `one of ${PERSONS.join(', ')}`,
  english: 'a non-empty string of lowercase English words (a–z) separated by single spaces',
  spanish: SPANISH_TEXT,
};

/** What a whole entry must be, by the list that holds it. */
const ENTRY_EXPECTATIONS: Readonly<Record<string, string>> = {
  rows: 'a mapping with verb, tense, person, english and spanish',
  verbs: 'a mapping with verb, irregular, spanish and optionally note',
};

/**
 * Describes each ajv error as a {@link SchemaProblem}, one per distinct problem: when ajv reports several
 * keywords for one value (an empty string fails both `minLength` and `pattern`), only the first is kept.
 */
export function describeSchemaErrors(errors: readonly SchemaError[]): SchemaProblem[] {
  const seen = new Set<string>();
  const problems: SchemaProblem[] = [];
  for (const error of errors) {
    const path = parsePointer(error.instancePath);
    const extra = error.keyword === 'required' || error.keyword === 'additionalProperties' ? JSON.stringify(error.params) : '';
    const dedupeKey = `${error.instancePath}\u0000${extra}`;
    if (seen.has(dedupeKey)) continue;
    seen.add(dedupeKey);
    problems.push({ path, message: describe(error, path) });
  }
  return problems;
}

function describe(error: SchemaError, path: readonly (string | number)[]): string {
  const params = error.params as Record<string, unknown>;
  switch (error.keyword) {
    case 'required':
      return `missing property '${String(params.missingProperty)}'`;
    case 'additionalProperties':
      return `unknown property '${String(params.additionalProperty)}'`;
  }
  const last = path[path.length - 1];
  const got = `(got ${describeValue(error.data)})`;
  if (last === undefined) {
    return `the file must be a mapping with version, description, source, verbs and rows ${got}`;
  }
  if (typeof last === 'number') {
    const list = String(path[path.length - 2]);
    return `must be ${ENTRY_EXPECTATIONS[list] ?? 'a mapping'} ${got}`;
  }
  const hint = typeof error.data === 'string' && error.data.normalize('NFC') !== error.data ? NFC_HINT : '';
  return `'${last}' must be ${EXPECTATIONS[last] ?? `valid (${error.message ?? error.keyword})`} ${got}${hint}`;
}

/** A short, quoted rendering of a YAML value for error messages. */
export function describeValue(value: unknown): string {
  if (value === null || value === undefined) return 'nothing';
  if (typeof value === 'string') return `'${value.length > 40 ? `${value.slice(0, 40)}…` : value}'`;
  if (typeof value === 'number' || typeof value === 'boolean') return `${typeof value} ${String(value)}`;
  if (Array.isArray(value)) return 'a list';
  return 'a mapping';
}

/** Splits a JSON Pointer (`/rows/41/spanish`) into segments, array indices as numbers. */
function parsePointer(pointer: string): (string | number)[] {
  if (pointer === '') return [];
  return pointer
    .slice(1)
    .split('/')
    .map((s) => s.replace(/~1/g, '/').replace(/~0/g, '~'))
    .map((s) => (/^(0|[1-9]\d*)$/.test(s) ? Number(s) : s));
}
