// The fast reader against the `yaml` library, the parser of record: on the real table file and on variations of it,
// it either returns exactly what `yaml` returns or declines (undefined) — it never returns something different.
import { readFileSync } from 'node:fs';
import fc from 'fast-check';
import { parse } from 'yaml';
import { describe, expect, it } from 'vitest';
import { DEFAULT_TABLE_URL } from './load-table.js';
import { parseSimpleYaml } from './simple-yaml.js';

const ORIGINAL = readFileSync(DEFAULT_TABLE_URL, 'utf8');
const LINES = ORIGINAL.split('\n');

/** `yaml`'s reading of `text` as the table loader reads it, or undefined when `yaml` reports an error. */
function reference(text: string): unknown {
  try {
    return parse(text, { uniqueKeys: true, prettyErrors: false });
  } catch {
    return undefined;
  }
}

/** Asserts the fast reader agrees with `yaml` or declines; returns whether it read the text. */
function agrees(text: string): boolean {
  const fast = parseSimpleYaml(text);
  if (fast === undefined) return false;
  expect(fast, text).toEqual(reference(text));
  return true;
}

/** Fragments that stress the subset's edges: scalars YAML types, quotes, comments, indentation, flow syntax. */
const FRAGMENTS = [
  ' ',
  '  ',
  '\t',
  '#',
  ' #',
  ':',
  ': ',
  ',',
  '{',
  '}',
  '[',
  ']',
  '-',
  '- ',
  '>-',
  '|',
  "'",
  '"',
  '&a',
  '*a',
  '!',
  '?',
  'true',
  'True',
  'false',
  'null',
  '~',
  '1',
  '07',
  '0x1F',
  '0o7',
  '1e5',
  '12345678',
  '.5',
  '-1',
  'yes',
  'on',
  '1sg',
  'comió',
  'me gusta',
  '\n',
  '\n\n',
  '\n  ',
  '\n    ',
  '\n      ',
  '\n# c\n',
  '---',
  'verb',
  'note: >-\n      x',
];

describe('parseSimpleYaml', () => {
  it('reads the real table exactly as the yaml library does', () => {
    expect(agrees(ORIGINAL)).toBe(true);
  });

  it('reads the subset and declines the rest', () => {
    expect(parseSimpleYaml('a: 1\nb: true\nc: will eat\nd: >-\n  one\n  two\n')).toEqual({ a: 1, b: true, c: 'will eat', d: 'one two' });
    expect(parseSimpleYaml('rows:\n  - { verb: eat, person: 1sg }\n  # c\n  - verb: go\n    note: >-\n      x y\n')).toEqual({
      rows: [
        { verb: 'eat', person: '1sg' },
        { verb: 'go', note: 'x y' },
      ],
    });
    for (const text of [
      'a: 1\na: 2\n',
      'a: "x"\n',
      'a: 0x1F\n',
      'a: null\n',
      'a: >-\n  one\n\n  two\n',
      'a: >-\n  one\n    two\n',
      'rows:\nb: 1\n',
      'a: x # c\n',
      'a:\t1\n',
    ]) {
      expect(parseSimpleYaml(text), text).toBeUndefined();
    }
  });

  it('agrees with yaml on every one-line edit of the real table', () => {
    let read = 0;
    fc.assert(
      fc.property(fc.nat(LINES.length - 1), fc.nat(200), fc.constantFrom(...FRAGMENTS), fc.boolean(), (line, column, fragment, replace) => {
        const lines = [...LINES];
        const text = lines[line]!;
        const at = Math.min(column, text.length);
        lines[line] = replace
          ? text.slice(0, at) + fragment + text.slice(at + fragment.length)
          : text.slice(0, at) + fragment + text.slice(at);
        if (agrees(lines.join('\n'))) read++;
      }),
      { numRuns: 150, seed: 1613 },
    );
    expect(read).toBeGreaterThan(0);
  });

  it('agrees with yaml on small documents built from the subset and its neighbours', () => {
    const word = fc.constantFrom('eat', 'will eat', '1sg', 'true', 'false', '1', '10', 'comió', 'x_y', '0x1', 'null', 'a  b', "'q'", 'a:b');
    const key = fc.constantFrom('verb', 'note', 'a', 'rows', '__proto__', 'True');
    const pair = fc.tuple(key, word).map(([k, v]) => `${k}: ${v}`);
    const item = fc.oneof(
      fc.array(pair, { minLength: 1, maxLength: 3 }).map((pairs) => `  - { ${pairs.join(', ')} }`),
      fc.array(pair, { minLength: 1, maxLength: 3 }).map((pairs) => pairs.map((p, i) => (i === 0 ? `  - ${p}` : `    ${p}`)).join('\n')),
      fc.constantFrom('  # comment', '', '  - note: >-\n      a b\n      c', '    stray: 1'),
    );
    const top = fc.oneof(
      pair,
      fc.array(item, { maxLength: 4 }).map((items) => ['rows:', ...items].join('\n')),
      fc.constantFrom('d: >-\n  one\n  two', '# comment', '', 'd: >-\n  one\n\n  two', 'd: >-\n  one\n   two'),
    );
    let read = 0;
    fc.assert(
      fc.property(fc.array(top, { minLength: 1, maxLength: 5 }), (parts) => {
        if (agrees(`${parts.join('\n')}\n`)) read++;
      }),
      { numRuns: 500, seed: 1613 },
    );
    expect(read).toBeGreaterThan(20);
  });
});
