// The workload every implementation serves: an `echo` tool (returns its text) and a `conjugate` lookup tool
// whose inputSchema is three enums and whose outputSchema describes its structuredContent, so that servers
// validate input and output as they would in production. One module, imported by every fixture server and
// client, so all of them answer the same bytes for the same calls.

/** The verbs of the lookup table (those of the §A13 grammar server). */
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
/** The tenses of the lookup table. */
export const TENSES = ['infinitive', 'present simple', 'past simple', 'past participle', 'simple future'] as const;
/** The persons of the lookup table (singular). */
export const PERSONS = ['1st singular', '2nd singular', '3rd singular'] as const;

export type Verb = (typeof VERBS)[number];
export type Tense = (typeof TENSES)[number];
export type Person = (typeof PERSONS)[number];

/** Arguments of `conjugate`. */
export interface ConjugateArgs {
  verb: Verb;
  tense: Tense;
  person: Person;
}

/** The structuredContent of a `conjugate` result (a type alias: assignable to the SDKs' index-signature types). */
export type Conjugation = {
  verb: Verb;
  tense: Tense;
  person: Person;
  form: string;
};

const IRREGULAR: Partial<Record<Verb, { past: string; participle: string; present?: [string, string, string] }>> = {
  be: { past: 'was', participle: 'been', present: ['am', 'are', 'is'] },
  have: { past: 'had', participle: 'had', present: ['have', 'have', 'has'] },
  do: { past: 'did', participle: 'done' },
  go: { past: 'went', participle: 'gone' },
  come: { past: 'came', participle: 'come' },
  see: { past: 'saw', participle: 'seen' },
  eat: { past: 'ate', participle: 'eaten' },
  write: { past: 'wrote', participle: 'written' },
};
const PRONOUNS: Record<Person, string> = { '1st singular': 'I', '2nd singular': 'you', '3rd singular': 'she' };

function thirdPerson(verb: string): string {
  if (/(sh|ch|s|x|o)$/.test(verb)) return `${verb}es`;
  if (/[^aeiou]y$/.test(verb)) return `${verb.slice(0, -1)}ies`;
  return `${verb}s`;
}

function regularPast(verb: string): string {
  if (verb.endsWith('e')) return `${verb}d`;
  if (/[^aeiou]y$/.test(verb)) return `${verb.slice(0, -1)}ied`;
  return `${verb}ed`;
}

function form(verb: Verb, tense: Tense, person: Person): string {
  const irregular = IRREGULAR[verb];
  const index = PERSONS.indexOf(person);
  const subject = PRONOUNS[person];
  switch (tense) {
    case 'infinitive':
      return `to ${verb}`;
    case 'present simple':
      return `${subject} ${irregular?.present?.[index] ?? (index === 2 ? thirdPerson(verb) : verb)}`;
    case 'past simple':
      return `${subject} ${verb === 'be' ? (index === 1 ? 'were' : 'was') : (irregular?.past ?? regularPast(verb))}`;
    case 'past participle':
      return irregular?.participle ?? regularPast(verb);
    case 'simple future':
      return `${subject} will ${verb}`;
  }
}

/** Every row of the table, in a fixed order (20 × 5 × 3 = 300). */
export const CONJUGATIONS: readonly Conjugation[] = VERBS.flatMap((verb) =>
  TENSES.flatMap((tense) => PERSONS.map((person) => ({ verb, tense, person, form: form(verb, tense, person) }))),
);

const BY_KEY = new Map<string, Conjugation>(CONJUGATIONS.map((row) => [`${row.verb}|${row.tense}|${row.person}`, row]));

/** The lookup every server runs: the table row of (verb, tense, person), or undefined. */
export function conjugate(verb: string, tense: string, person: string): Conjugation | undefined {
  return BY_KEY.get(`${verb}|${tense}|${person}`);
}

/** JSON Schema of `conjugate`'s arguments (what wiremcp registers and the baseline lists). */
export const CONJUGATE_INPUT_SCHEMA = {
  type: 'object',
  properties: {
    verb: { type: 'string', enum: [...VERBS] },
    tense: { type: 'string', enum: [...TENSES] },
    person: { type: 'string', enum: [...PERSONS] },
  },
  required: ['verb', 'tense', 'person'],
  additionalProperties: false,
} as const;

/** JSON Schema of `conjugate`'s structuredContent. */
export const CONJUGATE_OUTPUT_SCHEMA = {
  type: 'object',
  properties: {
    verb: { type: 'string', enum: [...VERBS] },
    tense: { type: 'string', enum: [...TENSES] },
    person: { type: 'string', enum: [...PERSONS] },
    form: { type: 'string' },
  },
  required: ['verb', 'tense', 'person', 'form'],
  additionalProperties: false,
} as const;

/** JSON Schema of `echo`'s arguments. */
export const ECHO_INPUT_SCHEMA = {
  type: 'object',
  properties: { text: { type: 'string' } },
  required: ['text'],
  additionalProperties: false,
} as const;

export const ECHO_DESCRIPTION = 'Returns its text.';
export const CONJUGATE_DESCRIPTION = 'Conjugates an English verb (lookup in a 300-row table).';

/** The two tools of the workload. */
export type ToolName = 'echo' | 'conjugate';
export const TOOLS: readonly ToolName[] = ['echo', 'conjugate'];

/** Texts the echo calls cycle through (short, with one non-ASCII character, like real tool arguments). */
export const ECHO_TEXTS: readonly string[] = [
  'hello world',
  'the quick brown fox jumps over the lazy dog',
  'comió',
  'MCP over stdio, one line per message',
];

/** Arguments of the `i`-th call of a tool (calls cycle through the texts and the table). */
export function argumentsFor(tool: ToolName, i: number): Record<string, string> {
  if (tool === 'echo') return { text: ECHO_TEXTS[i % ECHO_TEXTS.length]! };
  const row = CONJUGATIONS[i % CONJUGATIONS.length]!;
  return { verb: row.verb, tense: row.tense, person: row.person };
}

/** The text a correct answer to the `i`-th call carries in `content[0].text`. */
export function expectedText(tool: ToolName, i: number): string {
  return tool === 'echo' ? ECHO_TEXTS[i % ECHO_TEXTS.length]! : CONJUGATIONS[i % CONJUGATIONS.length]!.form;
}

/** The result a correct server returns for the `i`-th `conjugate` call (content + structuredContent). */
export function conjugateResult(row: Conjugation): { content: Array<{ type: 'text'; text: string }>; structuredContent: Conjugation } {
  return { content: [{ type: 'text', text: row.form }], structuredContent: row };
}

/**
 * Checks a tools/call result against the expected answer of call `i`; returns a problem or undefined. Cheap
 * (two property reads and a comparison), so every call of every implementation is checked.
 */
export function checkResult(tool: ToolName, i: number, result: unknown): string | undefined {
  const r = result as { content?: Array<{ text?: unknown }>; structuredContent?: { form?: unknown }; isError?: unknown } | undefined;
  if (r === undefined || r === null || typeof r !== 'object') return `${tool} #${i}: no result object`;
  if (r.isError === true) return `${tool} #${i}: isError: ${JSON.stringify(r.content)}`;
  const expected = expectedText(tool, i);
  if (r.content?.[0]?.text !== expected)
    return `${tool} #${i}: expected text ${JSON.stringify(expected)}, got ${JSON.stringify(r.content)}`;
  if (tool === 'conjugate' && r.structuredContent?.form !== expected) return `conjugate #${i}: wrong structuredContent`;
  return undefined;
}
