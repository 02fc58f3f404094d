/**
 * The §A13 table as Agent Skills (the `io.modelcontextprotocol/skills` extension): one skill per tense, each a
 * `SKILL.md` that says how the tense is formed and when to call `conjugate`, with the tense's rows for every verb
 * in `table.md`. Built from the table in memory when the server starts; served at
 * `skill://grammar/conjugate-<tense>/…`.
 */
import { SkillCatalog, serveSkills } from '@wiremcp/ext-skills/server';
import type { McpServer } from '@wiremcp/server';
import { conjugate, PERSON_LABELS, PERSONS, TENSE_LABELS, TENSES, VERBS, type Table } from './table/index.js';

/** The organisational prefix of the grammar skills: `skill://grammar/<skill>/SKILL.md`. */
export const GRAMMAR_SKILLS_PREFIX = 'grammar';

const GUIDANCE: Readonly<Record<(typeof TENSES)[number], string>> = {
  infinitive: 'The base form of the verb, used after "to" and after modal verbs. It never changes with the person.',
  present_simple:
    'Habits, facts and schedules. The base form, with -s or -es in the 3rd person singular (he works, she watches); "be" and "have" are irregular (am/are/is, has).',
  past_simple:
    'Finished actions at a stated or understood time in the past. Regular verbs add -ed; irregular verbs have their own form (went, ate, saw). The form is the same for every person, except "be" (was/were).',
  past_participle:
    'The form used in perfect tenses and the passive (have eaten, was written). Regular verbs add -ed; irregular verbs have their own third principal part.',
  simple_future: 'Decisions, predictions and promises about the future: "will" plus the base form, the same for every person.',
};

/** The skill name of a tense (`conjugate-past-simple`). */
export function skillNameOf(tense: (typeof TENSES)[number]): string {
  return `conjugate-${tense.replace(/_/g, '-')}`;
}

/** The files of every grammar skill, keyed by path (`conjugate-past-simple/SKILL.md`). */
export function grammarSkillFiles(table: Table): Record<string, string> {
  const files: Record<string, string> = {};
  for (const tense of TENSES) {
    const name = skillNameOf(tense);
    const label = TENSE_LABELS[tense];
    files[`${name}/SKILL.md`] = [
      '---',
      `name: ${name}`,
      `description: Conjugate the 20 §A13 English verbs in the ${label}, with Spanish translations, and explain how the tense is formed.`,
      'license: MIT',
      'metadata:',
      `  tense: ${label}`,
      '---',
      '',
      `# The ${label}`,
      '',
      GUIDANCE[tense],
      '',
      `To give one form, call the \`conjugate\` tool with \`tense: "${label}"\`, the verb and the person (1st, 2nd or 3rd singular).`,
      'The rows of every verb in this tense, English and Spanish, are in `table.md`. Verbs outside the table are out of scope:',
      'say so rather than guess.',
      '',
    ].join('\n');
    const rows = VERBS.map((verb) => {
      const cells = PERSONS.map((person) => {
        const row = conjugate(table, verb, tense, person);
        return `${row.english} (${row.spanish})`;
      });
      return `| ${verb} | ${cells.join(' | ')} |`;
    });
    files[`${name}/table.md`] = [
      `# ${label}: the §A13 rows`,
      '',
      `| verb | ${PERSONS.map((person) => PERSON_LABELS[person]).join(' | ')} |`,
      `| --- | ${PERSONS.map(() => '---').join(' | ')} |`,
      ...rows,
      '',
    ].join('\n');
  }
  return files;
}

/** Serves the grammar skills on `server` (the table never changes, so neither does the catalogue). */
export function registerGrammarSkills(server: McpServer, table: Table, cache: { ttlMs: number; cacheScope: 'public' | 'private' }): void {
  const catalog = SkillCatalog.fromMemory(grammarSkillFiles(table), { prefix: GRAMMAR_SKILLS_PREFIX });
  serveSkills(server, catalog, { baseUri: `skill://${GRAMMAR_SKILLS_PREFIX}/`, cache });
}
