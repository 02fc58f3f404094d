/**
 * The four §A13 tools, as MCP tools: schemas written for a model, read-only/idempotent annotations, and
 * structured output. Domain failures (`GrammarError`) are thrown and become `isError: true` results with the
 * domain message as their text (e.g. `verb 'run' is out of scope (§A13)`).
 */
import type { McpServer, ToolAnnotations } from '@wiremcp/server';
import { CONJUGATION_TABLE_URI } from './app.js';
import {
  checkSubjectVerbAgreement,
  conjugate,
  lookupIrregularVerb,
  lookupSpanish,
  PERSON_LABELS,
  PERSON_SPELLINGS,
  TENSE_LABELS,
  TENSE_SPELLINGS,
  VERBS,
  type Table,
  type TableRow,
} from './table/index.js';

const READ_ONLY: ToolAnnotations = { readOnlyHint: true, idempotentHint: true, destructiveHint: false, openWorldHint: false };
const VERB_LIST = VERBS.join(', ');

const rowSchema = {
  type: 'object',
  properties: {
    verb: { type: 'string', description: 'The verb (bare infinitive).' },
    tense: { type: 'string', enum: Object.keys(TENSE_LABELS) },
    person: { type: 'string', enum: Object.keys(PERSON_LABELS) },
    english: { type: 'string', description: 'The English form, without pronoun.' },
    spanish: { type: 'string', description: 'The Spanish translation.' },
    irregular: { type: 'boolean', description: 'Whether the English verb is irregular.' },
  },
  required: ['verb', 'tense', 'person', 'english', 'spanish', 'irregular'],
  additionalProperties: false,
} as const;

function rowOf(row: TableRow) {
  return { verb: row.verb, tense: row.tense, person: row.person, english: row.english, spanish: row.spanish, irregular: row.irregular };
}

/** Registers `conjugate`, `lookup_irregular_verb`, `lookup_spanish` and `check_subject_verb_agreement`. */
export function registerGrammarTools(server: McpServer, table: Table): void {
  server.registerTool(
    {
      name: 'conjugate',
      title: 'Conjugate an English verb',
      description:
        `Return the English form of one of the 20 §A13 verbs for a tense and a singular person, with its Spanish translation. ` +
        `Verbs: ${VERB_LIST}. Any other verb is out of scope and returns an error. ` +
        `The text result is the bare English form (e.g. "ate"); structured output adds the Spanish ("comió").`,
      inputSchema: {
        type: 'object',
        properties: {
          verb: { type: 'string', description: `One of: ${VERB_LIST}.` },
          tense: {
            type: 'string',
            enum: [...TENSE_SPELLINGS],
            description: 'The tense; both "past simple" and "past_simple" spellings are accepted.',
          },
          person: {
            type: 'string',
            enum: [...PERSON_SPELLINGS],
            description: 'Singular person: "1st singular" (I), "2nd singular" (you), "3rd singular" (he/she/it), or 1sg/2sg/3sg.',
          },
        },
        required: ['verb', 'tense', 'person'],
        additionalProperties: false,
      },
      outputSchema: rowSchema,
      annotations: { title: 'Conjugate an English verb', ...READ_ONLY },
      // MCP Apps: hosts that render apps show the conjugation table beside the answer; its view calls this tool.
      _meta: { ui: { resourceUri: CONJUGATION_TABLE_URI, visibility: ['model', 'app'] } },
    },
    (args: { verb: string; tense: string; person: string }) => {
      const row = conjugate(table, args.verb, args.tense, args.person);
      return { content: [{ type: 'text', text: row.english }], structuredContent: rowOf(row), isError: false };
    },
  );

  server.registerTool(
    {
      name: 'lookup_irregular_verb',
      title: 'Principal parts of a verb',
      description:
        `Return the principal parts (base, past simple, past participle) of one of the 20 §A13 verbs, whether it is ` +
        `irregular in English, and its Spanish infinitive and participle. Regular verbs are answered too (irregular: false).`,
      inputSchema: {
        type: 'object',
        properties: { verb: { type: 'string', description: `One of: ${VERB_LIST}.` } },
        required: ['verb'],
        additionalProperties: false,
      },
      outputSchema: {
        type: 'object',
        properties: {
          verb: { type: 'string' },
          irregular: { type: 'boolean' },
          base: { type: 'string' },
          thirdPersonSingular: { type: 'string' },
          pastSimple: { type: 'array', items: { type: 'string' } },
          pastParticiple: { type: 'string' },
          spanishInfinitive: { type: 'string' },
          spanishParticiple: { type: 'string' },
          summary: { type: 'string' },
        },
        required: ['verb', 'irregular', 'base', 'pastSimple', 'pastParticiple', 'spanishInfinitive', 'summary'],
      },
      annotations: { title: 'Principal parts of a verb', ...READ_ONLY },
    },
    (args: { verb: string }) => {
      const parts = lookupIrregularVerb(table, args.verb);
      const kind = parts.irregular ? 'irregular' : 'regular';
      const text = `${parts.summary} (${kind}; Spanish: ${parts.spanishInfinitive}, ${parts.spanishParticiple})`;
      const { note: _note, ...structured } = parts;
      return { content: [{ type: 'text', text }], structuredContent: { ...structured, pastSimple: [...parts.pastSimple] }, isError: false };
    },
  );

  server.registerTool(
    {
      name: 'lookup_spanish',
      title: 'Spanish translation of an English verb form',
      description:
        `Translate an English verb form from the §A13 table (e.g. "ate", "will eat", "is") into Spanish. The text result is ` +
        `the headline translation (3rd singular preferred: "ate" → "comió"); structured output lists every matching row.`,
      inputSchema: {
        type: 'object',
        properties: { english_form: { type: 'string', description: 'An English verb form without pronoun, e.g. "ate".' } },
        required: ['english_form'],
        additionalProperties: false,
      },
      outputSchema: {
        type: 'object',
        properties: { english: { type: 'string' }, spanish: { type: 'string' }, matches: { type: 'array', items: rowSchema } },
        required: ['english', 'spanish', 'matches'],
      },
      annotations: { title: 'Spanish translation of an English verb form', ...READ_ONLY },
    },
    (args: { english_form: string }) => {
      const found = lookupSpanish(table, args.english_form);
      return {
        content: [{ type: 'text', text: found.spanish }],
        structuredContent: { english: found.english, spanish: found.spanish, matches: found.matches.map(rowOf) },
        isError: false,
      };
    },
  );

  server.registerTool(
    {
      name: 'check_subject_verb_agreement',
      title: 'Check subject–verb agreement',
      description:
        `Check whether an English verb form agrees with a singular subject (I, you, he, she, it, or a singular noun phrase), ` +
        `e.g. subject "he", verb_form "eat" → does not agree, expected "eats". Only forms of the 20 §A13 verbs can be judged; ` +
        `plural subjects are outside §A13 and are reported as not checked.`,
      inputSchema: {
        type: 'object',
        properties: {
          subject: { type: 'string', description: 'The subject: I, you, he, she, it, or a singular noun phrase such as "the dog".' },
          verb_form: { type: 'string', description: 'The verb form to check, e.g. "eats", "was", "will eat".' },
        },
        required: ['subject', 'verb_form'],
        additionalProperties: false,
      },
      outputSchema: {
        type: 'object',
        properties: {
          status: { type: 'string', enum: ['checked', 'plural_subject'] },
          agrees: { type: ['boolean', 'null'] },
          subject: { type: 'string' },
          verbForm: { type: 'string' },
          expected: { type: 'string' },
          spanish: { type: 'string' },
          explanation: { type: 'string' },
        },
        required: ['status', 'agrees', 'subject', 'verbForm', 'explanation'],
      },
      annotations: { title: 'Check subject–verb agreement', ...READ_ONLY },
    },
    (args: { subject: string; verb_form: string }) => {
      const result = checkSubjectVerbAgreement(table, args.subject, args.verb_form);
      return { content: [{ type: 'text', text: result.explanation }], structuredContent: { ...result }, isError: false };
    },
  );
}
