/**
 * The JSON Schema of `data/a13.yaml`. The schema checks the shape of every entry (types, enums, spelling
 * patterns); what JSON Schema cannot express (each key exactly once, the rules that tie rows together) is
 * checked afterwards by `checkInvariants`. Its validator is compiled when it is generated, not at start (see
 * `validate-table-file.ts`): after changing this file or `vocabulary.ts`, run `pnpm --filter
 * @wiremcp/server-grammar generate`.
 */
import { PERSONS, TENSES, VERBS } from './vocabulary.js';

/**
 * English forms: lowercase ASCII words separated by single spaces ("ate", "will eat"). Forms are stored
 * exactly as lookups compare them, so anything else (capitals, stray spaces) would make a row unreachable.
 */
export const ENGLISH_FORM_PATTERN = '^[a-z]+( [a-z]+)*$';

/**
 * Spanish forms: lowercase words separated by single spaces ("comió", "me gusta"). The class lists only
 * precomposed accented letters, so a decomposed "ó" (o + U+0301) is rejected: lookups compare code units.
 */
export const SPANISH_FORM_PATTERN = '^[a-zñáéíóúü]+( [a-zñáéíóúü]+)*$';

/** A string with at least one non-space character. */
const NON_EMPTY_TEXT = { type: 'string', minLength: 1, pattern: '\\S' } as const;

/** The JSON Schema (draft-07, ajv's default) of the whole table file. */
export const A13_FILE_SCHEMA = {
  $id: 'https://wiremcp.dev/schemas/grammar/a13.json',
  title: '§A13 conjugation table',
  type: 'object',
  required: ['version', 'description', 'source', 'verbs', 'rows'],
  additionalProperties: false,
  properties: {
    version: { const: 1 },
    description: NON_EMPTY_TEXT,
    source: NON_EMPTY_TEXT,
    verbs: {
      type: 'array',
      items: {
        type: 'object',
        required: ['verb', 'irregular', 'spanish'],
        additionalProperties: false,
        properties: {
          verb: { type: 'string', enum: [...VERBS] },
          irregular: { type: 'boolean' },
          spanish: { type: 'string', minLength: 1, pattern: SPANISH_FORM_PATTERN },
          note: NON_EMPTY_TEXT,
        },
      },
    },
    rows: {
      type: 'array',
      items: {
        type: 'object',
        required: ['verb', 'tense', 'person', 'english', 'spanish'],
        additionalProperties: false,
        properties: {
          verb: { type: 'string', enum: [...VERBS] },
          tense: { type: 'string', enum: [...TENSES] },
          person: { type: 'string', enum: [...PERSONS] },
          english: { type: 'string', minLength: 1, pattern: ENGLISH_FORM_PATTERN },
          spanish: { type: 'string', minLength: 1, pattern: SPANISH_FORM_PATTERN },
        },
      },
    },
  },
} as const;

/** A verb entry as it appears in the file (after schema validation). */
export interface RawVerbEntry {
  verb: (typeof VERBS)[number];
  irregular: boolean;
  spanish: string;
  note?: string;
}

/** A row as it appears in the file (after schema validation). */
export interface RawRow {
  verb: (typeof VERBS)[number];
  tense: (typeof TENSES)[number];
  person: (typeof PERSONS)[number];
  english: string;
  spanish: string;
}

/** The whole file as it appears after schema validation. */
export interface RawTableFile {
  version: 1;
  description: string;
  source: string;
  verbs: RawVerbEntry[];
  rows: RawRow[];
}
