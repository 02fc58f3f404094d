/**
 * The table as markdown, for the MCP resources: the whole table (one section per verb) and a single verb.
 * Each section has a tense × person grid whose cells show the English form and its Spanish translation.
 */
import { normalizeVerb } from './normalize.js';
import type { Table } from './table.js';
import { PERSONS, PERSON_LABELS, PERSON_PRONOUNS, TENSES, TENSE_LABELS, rowKey, type Verb } from './vocabulary.js';

const wholeTableCache = new WeakMap<Table, string>();

/**
 * The whole table as one markdown document: a title, the description and source, the legend, then a
 * `## verb → spanish` section per verb in table order, each with its principal parts, its note and a
 * 5 × 3 grid (`ate — comió`). Rendered once per table and cached.
 */
export function renderTableMarkdown(table: Table): string {
  const cached = wholeTableCache.get(table);
  if (cached !== undefined) return cached;
  const irregular = table.verbs.filter((v) => v.irregular).map((v) => v.verb);
  const lines = [
    '# §A13 verb table',
    '',
    table.description,
    '',
    `${table.verbs.length} verbs × ${TENSES.length} tenses × ${PERSONS.length} persons = ${table.rows.length} rows. ` +
      'Each cell shows the English form (without pronoun), then its Spanish translation (2nd singular is tú).',
    `Irregular English verbs: ${irregular.join(', ')}.`,
    '',
    `Source: ${table.source}`,
    '',
  ];
  for (const verb of table.verbs) lines.push(...verbSection(table, verb.verb, '##'), '');
  const markdown = lines.join('\n');
  wholeTableCache.set(table, markdown);
  return markdown;
}

/**
 * One verb as a markdown document (`# eat → comer`, principal parts, note, grid). `verb` is normalized like
 * a tool argument; a verb outside the table throws `OutOfScopeError` (`verb 'run' is out of scope (§A13)`).
 */
export function renderVerbMarkdown(table: Table, verb: string): string {
  return [...verbSection(table, normalizeVerb(verb, table), '#'), ''].join('\n');
}

function verbSection(table: Table, verb: Verb, heading: string): string[] {
  const parts = table.principalParts.get(verb);
  if (!parts) throw new Error(`table has no verb '${verb}'`);
  const header = PERSONS.map(
    (p) => `${PERSON_LABELS[p]} (${PERSON_PRONOUNS[p].english.join(', ')} / ${PERSON_PRONOUNS[p].spanish.join(', ')})`,
  );
  const lines = [
    `${heading} ${verb} → ${parts.spanishInfinitive}`,
    '',
    `${parts.irregular ? 'Irregular' : 'Regular'} in English. Principal parts: ${parts.summary} (${parts.spanishInfinitive}, ${parts.spanishParticiple}).`,
  ];
  if (parts.note) lines.push('', parts.note);
  lines.push('', `| Tense | ${header.join(' | ')} |`, `| --- | ${PERSONS.map(() => '---').join(' | ')} |`);
  for (const tense of TENSES) {
    const cells = PERSONS.map((person) => {
      const row = table.rowsByKey.get(rowKey(verb, tense, person));
      return row ? `${row.english} — ${row.spanish}` : '';
    });
    lines.push(`| ${TENSE_LABELS[tense]} | ${cells.join(' | ')} |`);
  }
  return lines;
}
