import { describe, expect, test } from 'vitest';
import { deepEqual, match } from './matcher.js';
import { checkPattern } from './operators.js';

const ok = (pattern: unknown, actual: unknown) => match(pattern, actual).ok;

describe('plain values, objects and arrays', () => {
  test('scalars match by strict equality', () => {
    expect(ok(1, 1)).toBe(true);
    expect(ok(1, '1')).toBe(false);
    expect(ok(null, null)).toBe(true);
    expect(ok(false, 0)).toBe(false);
    expect(ok('comió', 'comió')).toBe(true);
  });

  test('objects match as subsets: extra keys in the actual value are fine', () => {
    expect(ok({ id: 1 }, { jsonrpc: '2.0', id: 1, result: {} })).toBe(true);
    expect(ok({ id: 1, result: {} }, { id: 1, result: { tools: [] } })).toBe(true);
    expect(ok({ id: 2 }, { id: 1 })).toBe(false);
    expect(ok({ id: 1 }, [1])).toBe(false);
  });

  test('a key the pattern names must exist', () => {
    const result = match({ error: { code: -32601 } }, { id: 1, result: {} });
    expect(result).toEqual({
      ok: false,
      mismatches: [{ path: '/error', expected: 'a value matching {"code":-32601}', actual: undefined }],
    });
  });

  test('arrays match by position with the same length', () => {
    expect(ok([1, 2], [1, 2])).toBe(true);
    expect(ok([1, 2], [2, 1])).toBe(false);
    expect(ok([1], [1, 2])).toBe(false);
    expect(ok([{ type: 'text' }], [{ type: 'text', text: 'ate' }])).toBe(true);
  });

  test('mismatches carry a JSON Pointer to the offending value', () => {
    const result = match({ result: { content: [{ text: 'comió' }] } }, { result: { content: [{ text: 'comio' }] } });
    expect(result.ok).toBe(false);
    expect(!result.ok && result.mismatches[0]).toEqual({ path: '/result/content/0/text', expected: '"comió"', actual: 'comio' });
  });

  test('pointer segments are escaped (~0, ~1)', () => {
    const result = match({ 'a/b': { '~c': 1 } }, { 'a/b': { '~c': 2 } });
    expect(!result.ok && result.mismatches[0]!.path).toBe('/a~1b/~0c');
  });
});

describe('operators', () => {
  test('$exact: no keys beyond the pattern', () => {
    expect(ok({ $exact: { a: 1 } }, { a: 1 })).toBe(true);
    expect(ok({ $exact: { a: 1 } }, { a: 1, b: 2 })).toBe(false);
    expect(ok({ $exact: {} }, {})).toBe(true);
    // Optional keys inside $exact: the key may be absent, nothing else may appear.
    expect(ok({ $exact: { _meta: { $optional: { $type: 'object' } } } }, {})).toBe(true);
    expect(ok({ $exact: { _meta: { $optional: { $type: 'object' } } } }, { _meta: {} })).toBe(true);
    expect(ok({ $exact: { _meta: { $optional: { $type: 'object' } } } }, { other: 1 })).toBe(false);
  });

  test('$type: JSON types, integer, and lists of types', () => {
    expect(ok({ $type: 'string' }, 'x')).toBe(true);
    expect(ok({ $type: 'number' }, 1.5)).toBe(true);
    expect(ok({ $type: 'integer' }, 1.5)).toBe(false);
    expect(ok({ $type: 'integer' }, 3)).toBe(true);
    expect(ok({ $type: 'array' }, [])).toBe(true);
    expect(ok({ $type: 'object' }, [])).toBe(false);
    expect(ok({ $type: 'null' }, null)).toBe(true);
    expect(ok({ $type: 'object' }, null)).toBe(false);
    expect(ok({ $type: ['string', 'integer'] }, 7)).toBe(true);
    expect(ok({ $type: 'boolean' }, 'true')).toBe(false);
  });

  test('$regex with optional $flags; non-strings fail', () => {
    expect(ok({ $regex: '^verb .* out of scope' }, "verb 'run' is out of scope (§A13)")).toBe(true);
    expect(ok({ $regex: 'INITIALIZE' }, 'send initialize first')).toBe(false);
    expect(ok({ $regex: 'INITIALIZE', $flags: 'i' }, 'send initialize first')).toBe(true);
    expect(ok({ $regex: '1' }, 1)).toBe(false);
  });

  test('$absent and $any are about presence', () => {
    expect(ok({ error: { $absent: true } }, { result: {} })).toBe(true);
    expect(ok({ error: { $absent: true } }, { error: null })).toBe(false);
    expect(ok({ id: { $any: true } }, { id: null })).toBe(true);
    expect(ok({ id: { $any: true } }, {})).toBe(false);
    expect(ok({ id: { $absent: false } }, { id: 0 })).toBe(true);
  });

  test('$optional: absent, or present and matching', () => {
    expect(ok({ isError: { $optional: false } }, {})).toBe(true);
    expect(ok({ isError: { $optional: false } }, { isError: false })).toBe(true);
    expect(ok({ isError: { $optional: false } }, { isError: true })).toBe(false);
  });

  test('$oneOf: at least one alternative, including presence alternatives', () => {
    const nullOrAbsent = { id: { $oneOf: [null, { $absent: true }] } };
    expect(ok(nullOrAbsent, { id: null })).toBe(true);
    expect(ok(nullOrAbsent, {})).toBe(true);
    expect(ok(nullOrAbsent, { id: 3 })).toBe(false);
    expect(ok({ $oneOf: [-32600, -32602] }, -32602)).toBe(true);
  });

  test('$not negates a pattern', () => {
    expect(ok({ protocolVersion: { $not: '2026-07-28' } }, { protocolVersion: '2025-11-25' })).toBe(true);
    expect(ok({ protocolVersion: { $not: '2026-07-28' } }, { protocolVersion: '2026-07-28' })).toBe(false);
  });

  test('$contains: every pattern matches a distinct element, in any order', () => {
    const tools = [{ name: 'conjugate' }, { name: 'lookup_spanish' }, { name: 'lookup_irregular_verb' }];
    expect(ok({ $contains: [{ name: 'lookup_spanish' }, { name: 'conjugate' }] }, tools)).toBe(true);
    expect(ok({ $contains: [{ name: 'run' }] }, tools)).toBe(false);
    // Distinct elements: two patterns cannot share one element.
    expect(ok({ $contains: [{ name: 'conjugate' }, { name: 'conjugate' }] }, tools)).toBe(false);
    // Backtracking: the loose pattern must not steal the only element the strict one can use.
    expect(ok({ $contains: [{}, { name: 'conjugate' }] }, [{ name: 'conjugate' }, { name: 'x' }])).toBe(true);
  });

  test('$contains combines with $length (all operators of an object hold)', () => {
    expect(ok({ $length: 3, $contains: [{ name: 'conjugate' }] }, [{ name: 'conjugate' }, {}, {}])).toBe(true);
    expect(ok({ $length: 2, $contains: [{ name: 'conjugate' }] }, [{ name: 'conjugate' }, {}, {}])).toBe(false);
  });

  test('$length: exact or {min, max}, for arrays and strings', () => {
    expect(ok({ $length: { min: 1 } }, [])).toBe(false);
    expect(ok({ $length: { min: 1, max: 100 } }, ['a'])).toBe(true);
    expect(ok({ $length: { max: 100 } }, Array.from({ length: 101 }))).toBe(false);
    expect(ok({ $length: 3 }, 'abc')).toBe(true);
    expect(ok({ $length: 3 }, 3)).toBe(false);
  });

  test('$entries: an object as a list of {key, value}, so keys can be counted and captured', () => {
    const inputRequests = { 'elicit-0': { method: 'elicitation/create' } };
    expect(
      match(
        { $entries: { $length: 1, $contains: [{ key: { $capture: 'key' }, value: { method: 'elicitation/create' } }] } },
        inputRequests,
      ),
    ).toEqual({ ok: true, captures: { key: 'elicit-0' } });
    expect(ok({ $entries: { $length: 2 } }, inputRequests)).toBe(false);
    expect(ok({ $entries: [] }, {})).toBe(true);
    expect(ok({ $entries: [] }, [])).toBe(false);
  });

  test('$items: every element matches', () => {
    expect(ok({ $items: { name: { $type: 'string' } } }, [{ name: 'a' }, { name: 'b' }])).toBe(true);
    expect(ok({ $items: { name: { $type: 'string' } } }, [{ name: 'a' }, { name: 1 }])).toBe(false);
    expect(ok({ $items: { name: { $type: 'string' } } }, [])).toBe(true);
  });

  test('numeric comparisons', () => {
    expect(ok({ $gte: 0 }, 0)).toBe(true);
    expect(ok({ $gt: 0 }, 0)).toBe(false);
    expect(ok({ $gte: 0, $lte: 100, $type: 'integer' }, 50)).toBe(true);
    expect(ok({ $lt: 1 }, '0')).toBe(false);
  });

  test('$literal compares exactly, without reading operators or subset semantics', () => {
    expect(ok({ $literal: { $type: 'string' } }, { $type: 'string' })).toBe(true);
    expect(ok({ $literal: { a: 1 } }, { a: 1, b: 2 })).toBe(false);
    expect(ok({ $literal: [1, { a: 1 }] }, [1, { a: 1 }])).toBe(true);
  });

  test('$json parses a string and matches its content', () => {
    expect(ok({ $json: { temperature: { $type: 'number' } } }, '{"temperature": 21}')).toBe(true);
    expect(ok({ $json: {} }, 'not json')).toBe(false);
    expect(ok({ $json: {} }, {})).toBe(false);
  });

  test('$jsonSchema validates against a schema (2020-12 by default, draft-07 when declared)', () => {
    const schema = { type: 'object', properties: { english: { type: 'string' } }, required: ['english'] };
    expect(ok({ $jsonSchema: schema }, { english: 'ate' })).toBe(true);
    const result = match({ $jsonSchema: schema }, { spanish: 'comió' });
    expect(result.ok).toBe(false);
    expect(!result.ok && result.mismatches[0]!.expected).toContain("must have required property 'english'");
    expect(ok({ $jsonSchema: { $schema: 'http://json-schema.org/draft-07/schema#', type: 'integer' } }, 3)).toBe(true);
    expect(match({ $jsonSchema: { type: 'nonsense' } }, 1).ok).toBe(false);
  });
});

describe('captures', () => {
  test('$capture records the matched value; with other operators it needs them to hold', () => {
    expect(match({ result: { nextCursor: { $capture: 'cursor' } } }, { result: { nextCursor: 'abc' } })).toEqual({
      ok: true,
      captures: { cursor: 'abc' },
    });
    expect(match({ id: { $capture: 'id', $type: 'integer' } }, { id: 'x' }).ok).toBe(false);
    expect(match({ id: { $capture: 'id', $match: { $gte: 5 } } }, { id: 7 })).toEqual({ ok: true, captures: { id: 7 } });
  });

  test('captures of a failed match are not reported', () => {
    const result = match({ a: { $capture: 'a' }, b: 2 }, { a: 1, b: 3 });
    expect(result.ok).toBe(false);
    expect('captures' in result).toBe(false);
  });

  test('a failed $oneOf alternative leaks no capture; the matching one keeps its own', () => {
    const pattern = {
      $oneOf: [
        { kind: 'a', value: { $capture: 'first' } },
        { kind: 'b', value: { $capture: 'second' } },
      ],
    };
    expect(match(pattern, { kind: 'b', value: 2 })).toEqual({ ok: true, captures: { second: 2 } });
  });

  test('$contains captures from the element that was chosen', () => {
    const pattern = { $contains: [{ name: 'lookup_spanish', inputSchema: { $capture: 'schema' } }] };
    const tools = [
      { name: 'conjugate', inputSchema: { a: 1 } },
      { name: 'lookup_spanish', inputSchema: { b: 2 } },
    ];
    expect(match(pattern, tools)).toEqual({ ok: true, captures: { schema: { b: 2 } } });
  });
});

describe('checkPattern (static checks at load time)', () => {
  test('accepts valid patterns and template operators', () => {
    expect(checkPattern({ id: 1, result: { tools: { $contains: [{ name: { $regex: '^a' } }], $length: { min: 1 } } } })).toEqual([]);
    expect(checkPattern({ error: { code: { $byRevision: { legacy: -32002, modern: -32602 } } } })).toEqual([]);
    expect(checkPattern({ id: '{{capture.id}}' })).toEqual([]);
  });

  test('reports unknown operators, bad operands and mixed objects with their path', () => {
    expect(checkPattern({ result: { $regexp: 'x' } })).toEqual([
      { path: '/result/$regexp', message: expect.stringContaining('unknown operator $regexp') },
    ]);
    expect(checkPattern({ a: { $type: 'str' } })[0]!.path).toBe('/a/$type');
    expect(checkPattern({ a: { $regex: '(' } })[0]!.message).toMatch(/invalid regular expression/);
    expect(checkPattern({ a: { $capture: 'no spaces' } })[0]!.path).toBe('/a/$capture');
    expect(checkPattern({ a: { $type: 'string', name: 'x' } })[0]!.message).toMatch(/cannot mix operators/);
    expect(checkPattern({ a: { $oneOf: [] } })[0]!.message).toMatch(/non-empty list/);
    expect(checkPattern({ a: { $length: -1 } })[0]!.path).toBe('/a/$length');
    expect(checkPattern({ a: { $omit: true } })[0]!.message).toMatch(/only makes sense in messages/);
    expect(checkPattern({ $byRevision: { legacy: { $nope: 1 } } })[0]!.path).toBe('/$byRevision/legacy/$nope');
  });
});

test('deepEqual ignores key order and distinguishes arrays from objects', () => {
  expect(deepEqual({ a: 1, b: [1, { c: 2 }] }, { b: [1, { c: 2 }], a: 1 })).toBe(true);
  expect(deepEqual([], {})).toBe(false);
  expect(deepEqual({ a: undefined }, {})).toBe(false);
});
