import { describe, expect, test } from 'vitest';
import { createSchemaCompiler, dialectOf, MAX_QUOTED_LENGTH, SchemaError } from './compiler.js';

const conjugate = {
  type: 'object',
  properties: {
    verb: { type: 'string' },
    tense: { type: 'string', enum: ['past simple', 'simple future'] },
    person: { type: 'string' },
  },
  required: ['verb', 'tense', 'person'],
  additionalProperties: false,
};

describe('compile and validate', () => {
  test('accepts valid values and explains invalid ones readably', async () => {
    const compiler = createSchemaCompiler();
    const validate = await compiler.compile(conjugate);
    expect(validate({ verb: 'eat', tense: 'past simple', person: '3sg' })).toEqual({ valid: true, errors: [] });
    const outcome = validate({ verb: 5, tense: 'yesterday', extra: true });
    expect(outcome.valid).toBe(false);
    expect(outcome.errors).toContain('/verb: must be string');
    expect(outcome.errors).toContain('/tense: must be equal to one of the allowed values: "past simple", "simple future"');
    expect(outcome.errors).toContain("(root): must have required property 'person'");
    expect(outcome.errors).toContain("(root): must NOT have additional properties: 'extra'");
  });

  test('quotes at most MAX_QUOTED_LENGTH characters of a 1 MiB property name or path', async () => {
    const validate = await createSchemaCompiler().compile(conjugate);
    const name = 'k'.repeat(1024 * 1024);
    const extra = validate({ verb: 'eat', tense: 'past simple', person: '3sg', [name]: 1 });
    expect(extra.errors).toEqual([`(root): must NOT have additional properties: '${'k'.repeat(MAX_QUOTED_LENGTH)}…'`]);
    const nested = await createSchemaCompiler().compile({ type: 'object', additionalProperties: { type: 'string' } });
    const path = nested({ [name]: 1 });
    expect(path.errors).toEqual([`/${'k'.repeat(MAX_QUOTED_LENGTH - 1)}…: must be string`]);
  });

  test('compiles once per schema object', async () => {
    const compiler = createSchemaCompiler();
    expect(compiler.cached(conjugate)).toBeUndefined();
    const first = await compiler.compile(conjugate);
    expect(compiler.cached(conjugate)).toBe(first);
    expect(await compiler.compile(conjugate)).toBe(first);
  });

  test('selects the dialect from $schema: draft-07 tuple items vs 2020-12 prefixItems', async () => {
    const compiler = createSchemaCompiler();
    const draft07 = await compiler.compile({
      $schema: 'http://json-schema.org/draft-07/schema#',
      type: 'array',
      items: [{ type: 'string' }, { type: 'number' }],
    });
    expect(draft07(['a', 1]).valid).toBe(true);
    expect(draft07([1, 'a']).valid).toBe(false);
    const modern = await compiler.compile({ type: 'array', prefixItems: [{ type: 'string' }, { type: 'number' }] });
    expect(modern(['a', 1]).valid).toBe(true);
    expect(modern([1, 'a']).valid).toBe(false);
  });

  test('validates formats unless disabled', async () => {
    const schema = { type: 'string', format: 'email' };
    expect((await createSchemaCompiler().compile(schema))('not-an-email').valid).toBe(false);
    expect((await createSchemaCompiler({ formats: false }).compile({ ...schema }))('not-an-email').valid).toBe(true);
  });

  test('two schemas with the same $id do not collide', async () => {
    const compiler = createSchemaCompiler();
    const a = await compiler.compile({ $id: 'https://example.com/shared.json', type: 'string' });
    const b = await compiler.compile({ $id: 'https://example.com/shared.json', type: 'number' });
    expect(a('s').valid).toBe(true);
    expect(b(1).valid).toBe(true);
  });

  test('local $ref and $defs work; remote refs are never fetched', async () => {
    const compiler = createSchemaCompiler();
    const local = await compiler.compile({ $defs: { n: { type: 'number' } }, type: 'object', properties: { x: { $ref: '#/$defs/n' } } });
    expect(local({ x: 1 }).valid).toBe(true);
    expect(local({ x: 'a' }).valid).toBe(false);
    await expect(compiler.compile({ $ref: 'https://example.com/schema.json' })).rejects.toBeInstanceOf(SchemaError);
  });
});

describe('refusals', () => {
  test('unknown dialects, invalid schemas and oversized schemas are refused with a SchemaError', async () => {
    const compiler = createSchemaCompiler({ maxSchemaBytes: 200 });
    await expect(compiler.compile({ $schema: 'http://json-schema.org/draft-04/schema#' })).rejects.toThrow(
      /Unsupported JSON Schema dialect/,
    );
    await expect(compiler.compile({ type: 'no-such-type' })).rejects.toThrow(/Invalid JSON Schema/);
    await expect(compiler.compile({ description: 'x'.repeat(500) })).rejects.toThrow(/exceeds the limit of 200 bytes/);
  });

  test('dialectOf defaults and detects', () => {
    expect(dialectOf({})).toBe('2020-12');
    expect(dialectOf({}, 'draft-07')).toBe('draft-07');
    expect(dialectOf({ $schema: 'https://json-schema.org/draft/2020-12/schema' })).toBe('2020-12');
    expect(() => dialectOf({ $schema: 42 })).toThrow(SchemaError);
  });
});
