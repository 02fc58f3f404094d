import { toStandardJsonSchema } from '@valibot/to-json-schema';
import { type } from 'arktype';
import * as v from 'valibot';
import { describe, expect, expectTypeOf, test } from 'vitest';
import * as z from 'zod';
import { createSchemaCompiler, SchemaError } from './compiler.js';
import type { FromJsonSchema } from './from-json-schema.js';
import { parserOf } from './schema-parser.js';
import { isStandardSchema, MAX_ISSUES, standardJsonSchema, standardParser, type StandardSchemaV1 } from './standard-schema.js';

describe('Standard Schema validators', () => {
  test('are recognised by their ~standard properties', () => {
    expect([z.string(), v.string(), type('string')].map(isStandardSchema)).toEqual([true, true, true]);
    expect([{}, { '~standard': { version: 2, validate: () => ({}) } }, null, 'x', { type: 'object' }].map(isStandardSchema)).toEqual([
      false,
      false,
      false,
      false,
      false,
    ]);
  });

  test('parse with their own validate: the output value, or problems by path (bounded in number and length)', async () => {
    const parse = standardParser(z.object({ n: z.number().default(1), tags: z.array(z.string()) }));
    expect(parse({ tags: [] })).toEqual({ valid: true, value: { n: 1, tags: [] } });
    expect(parse({ tags: ['a', 2] })).toEqual({ valid: false, errors: [expect.stringMatching(/^\/tags\/1: /)] });
    expect(parse('nope')).toEqual({ valid: false, errors: [expect.stringMatching(/^\(root\): /)] });
    const many = standardParser(z.array(z.number()));
    const outcome = await many(Array.from({ length: 50 }, () => 'x'));
    expect(outcome.valid).toBe(false);
    const errors = outcome.valid ? [] : outcome.errors;
    expect(errors).toHaveLength(MAX_ISSUES + 1);
    expect(errors.at(-1)).toBe(`… and ${50 - MAX_ISSUES} more`);
    const long = standardParser(z.string().refine(() => false, 'x'.repeat(1000)));
    expect(long('a')).toEqual({ valid: false, errors: [`(root): ${'x'.repeat(256)}…`] });
    const asynchronous = standardParser(z.string().refine(async (s) => s === 'ok', 'not ok'));
    await expect(asynchronous('ok')).resolves.toEqual({ valid: true, value: 'ok' });
    await expect(asynchronous('ko')).resolves.toEqual({ valid: false, errors: ['(root): not ok'] });
  });

  test('a validator that throws is a failed parse, not a crash', () => {
    const throwing: StandardSchemaV1<unknown, unknown> = {
      '~standard': {
        version: 1,
        vendor: 'test',
        validate: () => {
          throw new Error('cannot handle this');
        },
      },
    };
    expect(standardParser(throwing)(1)).toEqual({ valid: false, errors: ['(root): cannot handle this'] });
  });

  test('give JSON Schema through ~standard.jsonSchema (zod, ArkType, wrapped valibot) or a converter', () => {
    expect(standardJsonSchema(z.object({ a: z.string() }), 'input')).toMatchObject({ type: 'object', required: ['a'] });
    expect(standardJsonSchema(type({ a: 'string' }), 'input')).toMatchObject({ type: 'object', required: ['a'] });
    expect(standardJsonSchema(toStandardJsonSchema(v.object({ a: v.string() })), 'input')).toMatchObject({
      type: 'object',
      required: ['a'],
    });
    expect(standardJsonSchema(v.object({ a: v.string() }), 'input', () => ({ type: 'object', from: 'converter' }))).toEqual({
      type: 'object',
      from: 'converter',
    });
    expect(() => standardJsonSchema(v.string(), 'input')).toThrow(SchemaError);
    expect(() => standardJsonSchema(v.string(), 'input', () => [] as unknown as object)).toThrow(/returned no object/);
    expect(() =>
      standardJsonSchema(
        z.string().transform((s) => s.length),
        'output',
      ),
    ).toThrow(/Cannot convert a zod schema/);
  });
});

describe('parserOf', () => {
  test('runs a Standard Schema, or compiles a JSON Schema once and gives the value back unchanged', async () => {
    const compiler = createSchemaCompiler();
    expect(await parserOf(z.coerce.number(), compiler)('4')).toEqual({ valid: true, value: 4 });
    const json = { type: 'object', properties: { a: { type: 'string' } }, required: ['a'] } as const;
    const parse = parserOf(json, compiler);
    expect(await parse({ a: 'x' })).toEqual({ valid: true, value: { a: 'x' } });
    // Compiled now: the next parse is synchronous.
    expect(parse({})).toEqual({ valid: false, errors: ["(root): must have required property 'a'"] });
    expect(await parserOf(false, compiler)(1)).toMatchObject({ valid: false });
    await expect(parserOf({ $schema: 'https://example.com/unknown' }, compiler)(1)).rejects.toBeInstanceOf(SchemaError);
  });
});

describe('FromJsonSchema', () => {
  test('types what a literal describes; what it cannot read is Opaque', () => {
    expectTypeOf<FromJsonSchema<{ type: 'string' }>>().toEqualTypeOf<string>();
    expectTypeOf<FromJsonSchema<{ type: readonly ['integer', 'null'] }>>().toEqualTypeOf<number | null>();
    expectTypeOf<FromJsonSchema<{ enum: readonly ['a', 1] }>>().toEqualTypeOf<'a' | 1>();
    expectTypeOf<FromJsonSchema<{ type: 'array'; prefixItems: readonly [{ type: 'string' }]; items: { type: 'number' } }>>().toEqualTypeOf<
      [string, ...number[]]
    >();
    expectTypeOf<
      FromJsonSchema<{
        allOf: readonly [
          { type: 'object'; properties: { a: { type: 'string' } }; required: readonly ['a'] },
          { type: 'object'; properties: { b: { type: 'number' } }; required: readonly ['b'] },
        ];
      }>
    >().toMatchTypeOf<{ a: string; b: number }>();
    expectTypeOf<
      FromJsonSchema<{
        type: 'object';
        properties: { m: { type: 'object'; additionalProperties: { type: 'number' } } };
        required: readonly ['m'];
        additionalProperties: false;
      }>
    >().toEqualTypeOf<{
      m: { [key: string]: number };
    }>();
    expectTypeOf<FromJsonSchema<{ $ref: '#/$defs/x' }>>().toEqualTypeOf<unknown>();
    expectTypeOf<FromJsonSchema<{ type: string }, never>>().toEqualTypeOf<never>();
    expectTypeOf<FromJsonSchema<true>>().toEqualTypeOf<unknown>();
    expectTypeOf<FromJsonSchema<false>>().toEqualTypeOf<never>();
  });
});
