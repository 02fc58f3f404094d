import { describe, expect, it } from 'vitest';
import { OutOfScopeError } from './grammar-error.js';
import { loadTable } from './load-table.js';
import { renderTableMarkdown, renderVerbMarkdown } from './render-markdown.js';

const table = loadTable();

describe('renderVerbMarkdown', () => {
  it('renders one verb with its principal parts and a tense × person grid', () => {
    expect(renderVerbMarkdown(table, 'be')).toBe(
      [
        '# be → ser',
        '',
        'Irregular in English. Principal parts: be – was/were – been (ser, sido).',
        '',
        'Ser (identity, characteristics); estar (states, location) is the other half of "be" and is not in this table. The preterite of ser is shared with ir (fui, fue).',
        '',
        '| Tense | 1st singular (I / yo) | 2nd singular (you / tú) | 3rd singular (he, she, it / él, ella) |',
        '| --- | --- | --- | --- |',
        '| infinitive | be — ser | be — ser | be — ser |',
        '| present simple | am — soy | are — eres | is — es |',
        '| past simple | was — fui | were — fuiste | was — fue |',
        '| past participle | been — sido | been — sido | been — sido |',
        '| simple future | will be — seré | will be — serás | will be — será |',
        '',
      ].join('\n'),
    );
  });

  it('normalizes the verb and rejects one outside the table', () => {
    expect(renderVerbMarkdown(table, ' Like ')).toContain('| present simple | like — me gusta | like — te gusta | likes — le gusta |');
    expect(() => renderVerbMarkdown(table, 'run')).toThrow(OutOfScopeError);
  });
});

describe('renderTableMarkdown', () => {
  it('renders the whole table: one section per verb, 300 cells', () => {
    const markdown = renderTableMarkdown(table);
    expect(markdown.startsWith('# §A13 verb table\n')).toBe(true);
    expect(markdown.match(/^## /gm)).toHaveLength(20);
    expect(markdown).toContain('## eat → comer');
    expect(markdown).toContain('| past simple | ate — comí | ate — comiste | ate — comió |');
    expect(markdown).toContain('Irregular English verbs: be, have, do, go, come, see, eat, write.');
    const cells = markdown
      .split('\n')
      .filter((l) => /^\| (infinitive|present simple|past simple|past participle|simple future) \|/.test(l));
    expect(cells).toHaveLength(100);
  });

  it('renders each table once', () => {
    expect(renderTableMarkdown(table)).toBe(renderTableMarkdown(table));
  });
});
