import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { DEFAULT_TABLE_URL } from './load-table.js';
import { parseTable } from './parse-table.js';
import { TableError } from './table-error.js';

const ORIGINAL = readFileSync(DEFAULT_TABLE_URL, 'utf8');
const LINES = ORIGINAL.split('\n');
const ROW_LINE = /^ {2}- \{ verb: /;

/** Where a row is in the real file: its 1-based line and its 1-based row number. */
function locate(verb: string, tense: string, person: string): { line: number; row: number; text: string } {
  const pattern = new RegExp(`verb: ${verb}, +tense: ${tense}, +person: ${person},`);
  const index = LINES.findIndex((l) => ROW_LINE.test(l) && pattern.test(l));
  if (index < 0) throw new Error(`fixture: no line for ${verb}/${tense}/${person}`);
  const row = LINES.slice(0, index + 1).filter((l) => ROW_LINE.test(l)).length;
  return { line: index + 1, row, text: LINES[index] as string };
}

/** The real file with one line replaced (or removed, with `null`). */
function withLine(line: number, replacement: string | null): string {
  const lines = [...LINES];
  if (replacement === null) lines.splice(line - 1, 1);
  else lines[line - 1] = replacement;
  return lines.join('\n');
}

/** The problems parseTable reports for a text; fails the test if it does not throw a TableError. */
function problemsOf(text: string, fileName = 'a13.yaml'): readonly string[] {
  try {
    parseTable(text, fileName);
  } catch (error) {
    expect(error).toBeInstanceOf(TableError);
    const tableError = error as TableError;
    expect(tableError.fileName).toBe(fileName);
    for (const problem of tableError.problems) expect(tableError.message).toContain(problem);
    return tableError.problems;
  }
  throw new Error('expected parseTable to throw');
}

describe('parseTable on the real file', () => {
  it('accepts it and builds all 300 rows', () => {
    const table = parseTable(ORIGINAL, 'a13.yaml');
    expect(table.rows).toHaveLength(300);
    expect(table.verbs).toHaveLength(20);
    expect(table.version).toBe(1);
    expect(table.fileName).toBe('a13.yaml');
  });
});

describe('parseTable rejects a broken table, naming the file and the row', () => {
  it('reports a missing row by its key', () => {
    const { line } = locate('go', 'simple_future', '2sg');
    expect(problemsOf(withLine(line, null))).toEqual(['a13.yaml: missing row go/simple_future/2sg']);
  });

  it('reports a duplicated row with both row numbers and the key', () => {
    const first = locate('be', 'present_simple', '1sg');
    const dup = locate('be', 'present_simple', '3sg');
    const text = withLine(dup.line, dup.text.replace('person: 3sg', 'person: 1sg'));
    expect(problemsOf(text)).toEqual([
      `a13.yaml:${dup.line}: row ${dup.row} duplicates row ${first.row} (be/present_simple/1sg)`,
      'a13.yaml: missing row be/present_simple/3sg',
    ]);
  });

  it('reports an empty Spanish form', () => {
    const { line, row, text } = locate('eat', 'past_simple', '3sg');
    const [problem, ...rest] = problemsOf(withLine(line, text.replace('spanish: comió', 'spanish: ""')));
    expect(rest).toEqual([]);
    expect(problem).toMatch(new RegExp(`^a13\\.yaml:${line}: row ${row} \\(eat/past_simple/3sg\\): 'spanish' must be a non-empty string`));
    expect(problem).toContain("(got '')");
  });

  it('reports a value of the wrong type', () => {
    const { line, row, text } = locate('write', 'past_participle', '1sg');
    const problems = problemsOf(withLine(line, text.replace(/english: written,/, 'english: 42,')));
    expect(problems).toEqual([
      `a13.yaml:${line}: row ${row} (write/past_participle/1sg): 'english' must be a non-empty string of lowercase English words (a–z) separated by single spaces (got number 42)`,
    ]);
  });

  it('reports an unknown tense, and the key it leaves missing', () => {
    const { line, row, text } = locate('see', 'past_simple', '2sg');
    const problems = problemsOf(withLine(line, text.replace('tense: past_simple,', 'tense: pluperfect,')));
    expect(problems).toHaveLength(2);
    expect(problems[0]).toBe(
      `a13.yaml:${line}: row ${row} (see/pluperfect/2sg): 'tense' must be one of infinitive, present_simple, past_simple, past_participle, simple_future (got 'pluperfect')`,
    );
    expect(problems[1]).toBe('a13.yaml: missing row see/past_simple/2sg');
  });

  it('reports a missing and an unknown property', () => {
    const missing = locate('do', 'infinitive', '2sg');
    const extra = locate('do', 'infinitive', '3sg');
    let text = withLine(missing.line, missing.text.replace(/spanish: hacer/, 'note: x'));
    text = text
      .split('\n')
      .map((l, i) => (i === extra.line - 1 ? l.replace(' }', ', colour: red }') : l))
      .join('\n');
    expect(problemsOf(text)).toEqual([
      `a13.yaml:${missing.line}: row ${missing.row} (do/infinitive/2sg): missing property 'spanish'`,
      `a13.yaml:${missing.line}: row ${missing.row} (do/infinitive/2sg): unknown property 'note'`,
      `a13.yaml:${extra.line}: row ${extra.row} (do/infinitive/3sg): unknown property 'colour'`,
    ]);
  });

  it('reports a row that is not a mapping by its number alone', () => {
    const { line, row } = locate('go', 'infinitive', '1sg');
    const problems = problemsOf(withLine(line, '  - go'));
    expect(problems[0]).toBe(`a13.yaml:${line}: row ${row}: must be a mapping with verb, tense, person, english and spanish (got 'go')`);
    expect(problems[1]).toBe('a13.yaml: missing row go/infinitive/1sg');
  });

  it('reports a decomposed accent, which would otherwise look correct', () => {
    const { line, text } = locate('eat', 'past_simple', '3sg');
    const [problem] = problemsOf(withLine(line, text.replace('comió', 'comio\u0301')));
    expect(problem).toContain('(eat/past_simple/3sg)');
    expect(problem).toContain('not in Unicode NFC');
  });

  it('reports invalid YAML with line, column and the row it is in', () => {
    const { line, row, text } = locate('eat', 'past_simple', '3sg');
    const [problem] = problemsOf(withLine(line, text.replace(/ \}$/, '')));
    expect(problem).toMatch(new RegExp(`^a13\\.yaml:${line + 1}:3: row ${row} \\(eat/past_simple/3sg\\): invalid YAML: `));
  });

  it('reports a duplicated key inside one row as invalid YAML', () => {
    const { line, row, text } = locate('come', 'present_simple', '3sg');
    const [problem] = problemsOf(withLine(line, text.replace(' }', ', tense: present_simple }')));
    expect(problem).toMatch(
      new RegExp(`^a13\\.yaml:${line}:\\d+: row ${row} \\(come/present_simple/3sg\\): invalid YAML: Map keys must be unique`),
    );
  });

  it('caps the message at 20 problems but keeps them all in `problems`', () => {
    const start = LINES.findIndex((l) => l === 'rows:');
    const error = (() => {
      try {
        parseTable(LINES.slice(0, start + 1).join('\n') + ' []\n', 'a13.yaml');
      } catch (e) {
        return e as TableError;
      }
      throw new Error('expected a TableError');
    })();
    expect(error.problems).toHaveLength(300);
    expect(error.problems[0]).toBe('a13.yaml: missing row work/infinitive/1sg');
    expect(error.message.split('\n')[0]).toBe('a13.yaml: invalid §A13 table (300 problems):');
    expect(error.message).toContain('… and 280 more');
    expect(error.message).not.toContain('missing row write/simple_future/3sg');
  });

  it('reports a file that is not a mapping', () => {
    expect(problemsOf('- just\n- a list\n', 'broken.yaml')).toEqual([
      'broken.yaml:1: the file must be a mapping with version, description, source, verbs and rows (got a list)',
    ]);
  });

  it('reports a wrong version and a missing top-level list', () => {
    const text = ORIGINAL.replace(/^version: 1$/m, 'version: 2').replace(/^rows:[\s\S]*$/m, '');
    // The top-level mapping starts at its first key, `version`, after the header comments.
    const root = LINES.indexOf('version: 1') + 1;
    expect(problemsOf(text)).toEqual([`a13.yaml:${root}: missing property 'rows'`, `a13.yaml:${root}: 'version' must be 1 (got number 2)`]);
  });
});

describe('parseTable checks the rules that tie rows together', () => {
  it('rejects a regular verb whose past does not end in -ed', () => {
    const { line, row, text } = locate('work', 'past_simple', '1sg');
    expect(problemsOf(withLine(line, text.replace('english: worked,', 'english: wrought,')))).toEqual([
      `a13.yaml:${line}: row ${row} (work/past_simple/1sg): 'work' is marked regular, so its past_simple must end in -ed (got 'wrought')`,
    ]);
  });

  it('rejects a form that varies by person where it must not', () => {
    const first = locate('eat', 'past_participle', '1sg');
    const { line, row, text } = locate('eat', 'past_participle', '2sg');
    expect(problemsOf(withLine(line, text.replace('english: eaten,', 'english: ate,')))).toEqual([
      `a13.yaml:${line}: row ${row} (eat/past_participle/2sg): 'english' of past_participle must be the same for every person: 'eaten' in row ${first.row} (1sg), 'ate' here`,
    ]);
  });

  it('rejects a simple future that is not will + infinitive', () => {
    const rows = ['1sg', '2sg', '3sg'].map((p) => locate('go', 'simple_future', p));
    const lines = [...LINES];
    for (const r of rows) lines[r.line - 1] = r.text.replace('english: will go,', 'english: shall go,');
    const problems = problemsOf(lines.join('\n'));
    expect(problems).toEqual([
      `a13.yaml:${rows[0]?.line}: row ${rows[0]?.row} (go/simple_future/1sg): the simple future must be 'will go' (got 'shall go')`,
    ]);
  });

  it('rejects an infinitive row that disagrees with the verbs entry', () => {
    const rows = ['1sg', '2sg', '3sg'].map((p) => locate('walk', 'infinitive', p));
    const lines = [...LINES];
    for (const r of rows) lines[r.line - 1] = r.text.replace('spanish: caminar', 'spanish: andar');
    expect(problemsOf(lines.join('\n'))).toEqual([
      `a13.yaml:${rows[0]?.line}: row ${rows[0]?.row} (walk/infinitive/1sg): the Spanish infinitive must match the verbs entry 'caminar' (got 'andar')`,
    ]);
  });

  it('rejects a duplicated and a missing verbs entry', () => {
    const index = LINES.indexOf('  - verb: play');
    const problems = problemsOf(withLine(index + 1, '  - verb: work'));
    expect(problems).toEqual([
      `a13.yaml:${index + 1}: verbs entry 2 duplicates verbs entry 1 (work)`,
      "a13.yaml: missing verbs entry for 'play'",
    ]);
  });
});
