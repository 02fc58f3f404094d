import { describe, expect, test } from 'vitest';
import { decodeHeaderValue, encodeHeaderValue, headerMatches, mirroredParams, scanToolHeaders, valueAt } from '../src/index.js';

describe('decodeHeaderValue (the spec’s encoding table, decoded)', () => {
  test.each([
    ['us-west1', 'us-west1'],
    ['=?base64?SGVsbG8sIOS4lueVjA==?=', 'Hello, 世界'],
    ['=?base64?IHBhZGRlZCA=?=', ' padded '],
    ['=?base64?bGluZTEKbGluZTI=?=', 'line1\nline2'],
    ['=?base64?PT9iYXNlNjQ/bGl0ZXJhbD89?=', '=?base64?literal?='],
    ['  spaced  ', 'spaced'],
    ['SGVsbG8=', 'SGVsbG8='],
    ['=?base64?SGVsbG8=', '=?base64?SGVsbG8='],
    ['=?BASE64?SGVsbG8=?=', '=?BASE64?SGVsbG8=?='],
    ['=?base64??=', ''],
  ])('%j → %j', (raw, decoded) => {
    expect(decodeHeaderValue(raw)).toBe(decoded);
  });

  test.each([
    ['=?base64?SGVsbG8?=', 'missing padding'],
    ['=?base64?SGVs!!!bG8=?=', 'characters outside the alphabet'],
    ['=?base64?SGVsbG8=\n?=', 'a line break'],
    ['=?base64?/w==?=', 'bytes that are not UTF-8'],
    ['caf\u00e9', 'a non-ASCII plain value'],
    ['a\u0001b', 'a control character'],
  ])('%j is refused (%s)', (raw) => {
    expect(decodeHeaderValue(raw)).toBeUndefined();
  });
});

describe('encodeHeaderValue and decodeHeaderValue are inverse', () => {
  test.each(['us-west1', 'Hello, 世界', ' padded ', 'line1\nline2', '=?base64?literal?=', '', 'café', 'tab\there', 'file:///tmp/ü.txt'])(
    '%j round-trips',
    (value) => {
      const encoded = encodeHeaderValue(value);
      expect(encoded).toMatch(/^[\x20-\x7e]*$/);
      expect(decodeHeaderValue(encoded)).toBe(value);
    },
  );
});

describe('x-mcp-header annotations', () => {
  test('reached through properties chains only; string, integer and boolean (nullable too) only', () => {
    const schema = {
      type: 'object',
      properties: {
        region: { type: 'string', 'x-mcp-header': 'Region' },
        deep: { type: 'object', properties: { id: { type: ['integer', 'null'], 'x-mcp-header': 'Id' } } },
      },
    };
    expect(mirroredParams(schema)).toEqual([
      { header: 'mcp-param-region', name: 'Region', path: ['region'], type: 'string' },
      { header: 'mcp-param-id', name: 'Id', path: ['deep', 'id'], type: 'integer' },
    ]);
    expect(mirroredParams(schema)).toBe(mirroredParams(schema)); // cached per schema object
  });

  test.each([
    ['a number', { n: { type: 'number', 'x-mcp-header': 'N' } }],
    ['inside items', { list: { type: 'array', items: { type: 'string', 'x-mcp-header': 'Item' } } }],
    ['inside oneOf', { choice: { oneOf: [{ type: 'string', 'x-mcp-header': 'Choice' }] } }],
    ['not a token', { bad: { type: 'string', 'x-mcp-header': 'Has Space' } }],
  ])('one invalid annotation (%s) makes the tool one a client drops: no header is expected for it', (_why, properties) => {
    const schema = { type: 'object', properties: { region: { type: 'string', 'x-mcp-header': 'Region' }, ...properties } };
    expect(scanToolHeaders(schema).valid).toBe(false);
    expect(mirroredParams(schema)).toEqual([]);
  });

  test('names that collide case-insensitively make the tool invalid', () => {
    const schema = {
      type: 'object',
      properties: { a: { type: 'string', 'x-mcp-header': 'X' }, b: { type: 'string', 'x-mcp-header': 'x' } },
    };
    expect(mirroredParams(schema)).toEqual([]);
    expect(mirroredParams(undefined)).toEqual([]);
  });

  test('values are read at the path; integers compare numerically, booleans as true/false', () => {
    expect(valueAt({ deep: { id: 4 } }, ['deep', 'id'])).toBe(4);
    expect(valueAt({ deep: 1 }, ['deep', 'id'])).toBeUndefined();
    expect(headerMatches('42.0', 42, 'integer')).toBe(true);
    expect(headerMatches('42', 43, 'integer')).toBe(false);
    expect(headerMatches('4e1', 40, 'integer')).toBe(false);
    expect(headerMatches('true', true, 'boolean')).toBe(true);
    expect(headerMatches('TRUE', true, 'boolean')).toBe(false);
    expect(headerMatches('abc', 'abc', 'string')).toBe(true);
  });
});
