import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import { UriTemplate, UriTemplateError, type TemplateValues } from './uri-template.js';

// Characters that matter to URIs (every reserved character, `%`, space), mixed with any Unicode code point.
const unit = fc.oneof(
  fc.constantFrom(':', '/', '?', '#', '[', ']', '@', '!', '$', '&', "'", '(', ')', '*', '+', ',', ';', '=', '%', ' ', '.', '-', '~'),
  fc.string({ unit: 'binary', minLength: 1, maxLength: 1 }),
);
const text = (options: { minLength?: number; without?: RegExp } = {}) =>
  fc.string({ unit, maxLength: 12, minLength: options.minLength ?? 0 }).filter((value) => !options.without?.test(value));
/** Reserved expansion passes `%XX` through as it is (RFC 6570 §3.2.3), so such a value reads back decoded. */
const PERCENT_TRIPLET = /%[0-9A-Fa-f]{2}/;

type Value = string | string[];
type Shape = 'string' | 'list' | 'exploded';

interface Case {
  readonly template: string;
  readonly values: Record<string, Value>;
}

/** What a value reads back as: a one-item list is expanded like a string, and so comes back as one. */
function expected(value: Value, explode: boolean): Value {
  return Array.isArray(value) && value.length === 1 && !explode ? value[0]! : value;
}

/**
 * One expression with one to three variables, each a string, a list or an exploded list, restricted to what can be
 * read back unambiguously: values that do not contain the expression's raw separator where two values sit side by
 * side, and list values only where a string's commas are percent-encoded (every operator but `+` and `#`).
 */
function expressionCase(operator: string): fc.Arbitrary<Case> {
  const reserved = operator === '+' || operator === '#';
  const named = operator === '?' || operator === '&' || operator === ';';
  return fc.integer({ min: 1, max: 3 }).chain((count) => {
    const single = count === 1;
    const shapes: Shape[] = reserved ? ['string'] : single || named ? ['string', 'list', 'exploded'] : ['string'];
    // Where values sit side by side, a value must not hold the raw separator between them.
    const without = reserved ? (single ? PERCENT_TRIPLET : /%[0-9A-Fa-f]{2}|,/) : operator === '.' && !single ? /\./ : undefined;
    const variable = fc.constantFrom(...shapes).chain((shape): fc.Arbitrary<{ shape: Shape; value: Value }> => {
      if (shape === 'string') return text({ without }).map((value) => ({ shape, value }));
      // Exploded items sit side by side too; `.` separates them with a raw dot. Empty items are tested separately.
      const item = text({ minLength: 1, without: shape === 'exploded' && operator === '.' ? /\./ : undefined });
      return fc.array(item, { minLength: 1, maxLength: 4 }).map((value) => ({ shape, value }));
    });
    return fc.array(variable, { minLength: count, maxLength: count }).map((variables) => {
      const specs = variables.map((v, i) => `v${i}${v.shape === 'exploded' ? '*' : ''}`);
      const values = Object.fromEntries(variables.map((v, i) => [`v${i}`, v.value]));
      return { template: `t:x{${operator}${specs.join(',')}}`, values };
    });
  });
}

const OPERATORS = ['', '+', '#', '.', '/', ';', '?', '&'];

describe('expand then match round-trips (RFC 6570 levels 1–4)', () => {
  test.each(OPERATORS.map((operator) => [operator === '' ? '{var}' : `{${operator}var}`, operator]))(
    '%s: strings, lists and exploded lists, with reserved characters',
    (_name, operator) => {
      fc.assert(
        fc.property(expressionCase(operator!), ({ template, values }) => {
          const parsed = new UriTemplate(template);
          const uri = parsed.expand(values);
          const wanted = Object.fromEntries(
            Object.entries(values).map(([name, value]) => [name, expected(value, template.includes(`${name}*`))]),
          );
          expect(parsed.match(uri)).toEqual(wanted);
        }),
        { numRuns: 300 },
      );
    },
  );

  test('templates combining operators: path segments or a reserved path, then query, continuation and fragment', () => {
    const segments = new UriTemplate('demo://{kind}{/segments*}{?q,limit}{&tags*}{#fragment}');
    const reserved = new UriTemplate('demo://{kind}/{+rest}{?q}{#fragment}');
    const values = fc.record({
      kind: text({ minLength: 1 }),
      segments: fc.array(text(), { minLength: 1, maxLength: 3 }),
      // Reserved expansion is read up to the query or fragment that follows it.
      rest: text({ without: /[?#]|%[0-9A-Fa-f]{2}/ }),
      q: text(),
      limit: fc.array(text({ minLength: 1 }), { minLength: 2, maxLength: 3 }),
      tags: fc.array(text(), { minLength: 1, maxLength: 3 }),
      fragment: text({ without: PERCENT_TRIPLET }),
    });
    fc.assert(
      fc.property(values, ({ kind, segments: path, rest, q, limit, tags, fragment }) => {
        const first = { kind, segments: path, q, limit, tags, fragment };
        expect(segments.match(segments.expand(first))).toEqual(first);
        const second = { kind, rest, q, fragment };
        expect(reserved.match(reserved.expand(second))).toEqual(second);
      }),
      { numRuns: 300 },
    );
  });

  test('prefix modifiers keep the first characters, never half of a surrogate pair', () => {
    fc.assert(
      fc.property(text(), fc.integer({ min: 1, max: 20 }), (value, length) => {
        const template = new UriTemplate(`t:{v:${length}}`);
        expect(template.match(template.expand({ v: value }))).toEqual({ v: [...value].slice(0, length).join('') });
      }),
    );
  });
});

describe('lists and separators', () => {
  test('a percent-encoded comma is data; only literal commas separate list items', () => {
    const template = new UriTemplate('search://items{?q,tags}');
    expect(template.expand({ q: 'a,b' })).toBe('search://items?q=a%2Cb');
    expect(template.match('search://items?q=a%2Cb')).toEqual({ q: 'a,b' });
    expect(template.match('search://items?q=a,b&tags=x%2Cy,z')).toEqual({ q: ['a', 'b'], tags: ['x,y', 'z'] });
    expect(new UriTemplate('x:{;list}').match('x:;list=a%2C,b')).toEqual({ list: ['a,', 'b'] });
    expect(new UriTemplate('x:{/list}').match('x:/a,b%2Cc')).toEqual({ list: ['a', 'b,c'] });
  });

  test('reserved expansion keeps commas as data', () => {
    expect(new UriTemplate('x:{+path}').match('x:/a,b/c')).toEqual({ path: '/a,b/c' });
    expect(new UriTemplate('x:{#frag}').match('x:#a,b')).toEqual({ frag: 'a,b' });
  });

  test('empty list items survive; an absent exploded variable is an empty list', () => {
    const segments = new UriTemplate('x:/blob{/path*}');
    expect(segments.match(segments.expand({ path: ['a', '', 'b'] }))).toEqual({ path: ['a', '', 'b'] });
    expect(segments.match('x:/blob')).toEqual({ path: [] });
    const query = new UriTemplate('x:{?list}');
    expect(query.match(query.expand({ list: ['', 'a'] }))).toEqual({ list: ['', 'a'] });
  });

  test('query parameters of several expressions are found wherever they are', () => {
    const template = new UriTemplate('x:{?a}{&b}{;c}');
    expect(template.match('x:?b=2&a=1')).toEqual({ a: '1', b: '2' });
    expect(new UriTemplate('x:{;a}{;b}').match('x:;b=2;a=1')).toEqual({ a: '1', b: '2' });
  });

  test('a value that cannot be put in a URI is refused clearly', () => {
    expect(() => new UriTemplate('x:{v}').expand({ v: 'a\uD800b' })).toThrow(UriTemplateError);
    expect(() => new UriTemplate('x:{+v}').expand({ v: '\uDC00' } as TemplateValues)).toThrow(/lone UTF-16 surrogate/);
  });
});
