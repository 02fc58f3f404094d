/**
 * The §A13 table as resources (the whole table, and one resource per verb through a template with completion
 * of the verb name) and the server's prompts.
 */
import { invalidParams } from '@wiremcp/protocol';
import { ResourceNotFoundError, type CompletionProvider, type McpServer } from '@wiremcp/server';
import {
  lookupIrregularVerb,
  normalizeTense,
  PERSON_LABELS,
  PERSONS,
  renderTableMarkdown,
  renderVerbMarkdown,
  TENSE_LABELS,
  TENSE_SPELLINGS,
  TENSES,
  VERBS,
  conjugate,
  GrammarError,
  normalizeVerb,
  type Table,
} from './table/index.js';

/** Runs `build`, turning a domain error (unknown verb or tense) into the `-32602` a bad prompt argument gets. */
function withArguments<T>(build: () => T): T {
  try {
    return build();
  } catch (error) {
    if (error instanceof GrammarError) throw invalidParams(error.message);
    throw error;
  }
}

/** The URI of the whole table. */
export const TABLE_URI = 'grammar://a13';
/** The template of the per-verb resources. */
export const VERB_TEMPLATE = 'grammar://a13/{verb}';

const completeVerb: CompletionProvider = (value) => VERBS.filter((verb) => verb.startsWith(value.trim().toLowerCase()));
const completeTense: CompletionProvider = (value) => {
  const prefix = value.trim().toLowerCase();
  return TENSE_SPELLINGS.filter((tense) => tense.startsWith(prefix));
};

/** Registers `grammar://a13` and `grammar://a13/{verb}`. */
export function registerGrammarResources(server: McpServer, table: Table): void {
  const whole = renderTableMarkdown(table);
  server.registerResource(
    {
      uri: TABLE_URI,
      name: 'a13',
      title: '§A13 conjugation table',
      description: 'The whole §A13 table: 20 verbs × 5 tenses × 3 singular persons, English and Spanish, as markdown.',
      mimeType: 'text/markdown',
      size: new TextEncoder().encode(whole).length,
      annotations: { audience: ['user', 'assistant'], priority: 0.8 },
    },
    (uri) => ({ contents: [{ uri, mimeType: 'text/markdown', text: whole }] }),
  );
  const perVerb = new Map<string, string>(VERBS.map((verb) => [verb, renderVerbMarkdown(table, verb)]));
  server.registerResourceTemplate(
    {
      uriTemplate: VERB_TEMPLATE,
      name: 'a13-verb',
      title: '§A13 table of one verb',
      description: 'The §A13 rows of one verb (5 tenses × 3 persons, English and Spanish), as markdown.',
      mimeType: 'text/markdown',
    },
    (uri, variables) => {
      const verb = typeof variables.verb === 'string' ? variables.verb.toLowerCase() : '';
      const text = perVerb.get(verb);
      if (text === undefined) throw new ResourceNotFoundError(uri);
      return { contents: [{ uri, mimeType: 'text/markdown', text }] };
    },
    {
      complete: { verb: completeVerb },
      list: () =>
        VERBS.map((verb) => ({
          uri: `grammar://a13/${verb}`,
          name: `a13-${verb}`,
          title: `§A13: ${verb}`,
          mimeType: 'text/markdown',
        })),
    },
  );
}

/** Registers the prompts `explain_tense` and `conjugation_drill`. */
export function registerGrammarPrompts(server: McpServer, table: Table): void {
  server.registerPrompt(
    {
      name: 'explain_tense',
      title: 'Explain a tense of a verb',
      description: 'Ask the model to explain how a §A13 verb is formed in one tense, in English and Spanish, with the table rows attached.',
      arguments: [
        { name: 'verb', description: `One of: ${VERBS.join(', ')}.`, required: true },
        { name: 'tense', description: 'A tense, e.g. "past simple".', required: true },
      ],
    },
    (args) =>
      withArguments(() => {
        const tense = normalizeTense(args.tense!);
        const rows = PERSONS.map((person) => conjugate(table, args.verb!, tense, person));
        const verb = rows[0]!.verb;
        const lines = rows.map((row) => `- ${PERSON_LABELS[row.person]}: ${row.english} — ${row.spanish}`).join('\n');
        const parts = lookupIrregularVerb(table, verb);
        return {
          description: `Explain the ${TENSE_LABELS[tense]} of '${verb}'`,
          messages: [
            {
              role: 'user',
              content: {
                type: 'text',
                text:
                  `Explain to a Spanish-speaking learner how the ${TENSE_LABELS[tense]} of the English verb '${verb}' ` +
                  `(${parts.irregular ? 'irregular' : 'regular'}: ${parts.summary}) is formed, and how it maps to Spanish. ` +
                  `These are the §A13 forms:\n${lines}`,
              },
            },
            {
              role: 'user',
              content: {
                type: 'resource',
                resource: { uri: `grammar://a13/${verb}`, mimeType: 'text/markdown', text: renderVerbMarkdown(table, verb) },
              },
            },
          ],
        };
      }),
    { complete: { verb: completeVerb, tense: completeTense } },
  );

  server.registerPrompt(
    {
      name: 'conjugation_drill',
      title: 'Conjugation drill',
      description:
        'A short quiz: the model asks the learner for forms of a §A13 verb (or of random verbs) and checks the answers against the table.',
      arguments: [
        { name: 'verb', description: `Optional: one of ${VERBS.join(', ')}. Without it, the drill mixes verbs.` },
        { name: 'questions', description: 'Optional: how many questions (1-10, default 5).' },
      ],
    },
    (args) =>
      withArguments(() => {
        const count = Math.min(10, Math.max(1, Number.parseInt(args.questions ?? '5', 10) || 5));
        // An unknown verb is refused (out of scope) rather than silently replaced by random ones.
        const verbs: string[] = args.verb === undefined ? [...VERBS] : [normalizeVerb(args.verb, table)];
        // A deterministic selection: the drill of the same arguments is the same drill.
        const items = Array.from({ length: count }, (_, i) => {
          const verb = verbs[(i * 7) % verbs.length]!;
          const tense = TENSES[(i * 3 + 1) % TENSES.length]!;
          const person = PERSONS[i % PERSONS.length]!;
          const row = conjugate(table, verb, tense, person);
          return `${i + 1}. ${verb} — ${TENSE_LABELS[tense]}, ${PERSON_LABELS[person]} (answer: ${row.english} / ${row.spanish})`;
        });
        return {
          description: `A ${count}-question conjugation drill`,
          messages: [
            {
              role: 'user',
              content: {
                type: 'text',
                text:
                  `Run a conjugation drill with me. Ask one question at a time, wait for my answer, then tell me whether it is right ` +
                  `and give the Spanish translation. Do not reveal the answers in advance. Questions (answers for you only):\n${items.join('\n')}`,
              },
            },
          ],
        };
      }),
    { complete: { verb: completeVerb, questions: () => ['3', '5', '10'] } },
  );
}
