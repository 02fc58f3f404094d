import { describe, expect, test } from 'vitest';
import { createSchemaCompiler } from './compiler.js';
import { canGenerateCode } from './interpreted-engine.js';

const SCHEMA = {
  type: 'object',
  properties: { verb: { type: 'string' }, count: { enum: [1, 2] }, email: { type: 'string', format: 'email' } },
  required: ['verb'],
  additionalProperties: false,
};

describe('the interpreting engine (runtimes without code generation)', () => {
  test('validates as ajv does: valid values pass, each problem is named by its path', async () => {
    const validate = await createSchemaCompiler({ engine: 'interpreter' }).compile(SCHEMA);
    expect(validate({ verb: 'eat', count: 1, email: 'a@example.com' })).toEqual({ valid: true, errors: [] });
    const outcome = validate({ verb: 1, count: 3, email: 'nope', extra: true });
    expect(outcome.valid).toBe(false);
    expect(outcome.errors).toEqual([
      expect.stringMatching(/^\/verb: .*string/),
      expect.stringMatching(/^\/count: /),
      expect.stringMatching(/^\/email: .*email/),
      expect.stringMatching(/^\(root\): .*"extra"/),
    ]);
  });

  test('draft-07 schemas too, and a missing required property at the root', async () => {
    const validate = await createSchemaCompiler({ engine: 'interpreter' }).compile({
      $schema: 'http://json-schema.org/draft-07/schema#',
      type: 'object',
      required: ['name'],
    });
    expect(validate({}).errors).toEqual([expect.stringMatching(/^\(root\): .*name/)]);
  });

  test('errors quoting the value are bounded', async () => {
    const validate = await createSchemaCompiler({ engine: 'interpreter' }).compile({ type: 'object', additionalProperties: false });
    const [error] = validate({ ['k'.repeat(10_000)]: 1 }).errors;
    expect(error!.length).toBeLessThan(400);
  });

  test("'auto' picks ajv where code generation works (here), the interpreter where it is refused", async () => {
    expect(canGenerateCode()).toBe(true);
    const original = globalThis.Function;
    // As in workerd: constructing a function from a string throws an EvalError.
    const refusing = function () {
      throw new EvalError('Code generation from strings disallowed for this context');
    } as unknown as FunctionConstructor;
    globalThis.Function = refusing;
    try {
      expect(canGenerateCode()).toBe(false);
      const validate = await createSchemaCompiler().compile({ type: 'string' });
      expect(validate(1).valid).toBe(false);
      expect(validate('x').valid).toBe(true);
    } finally {
      globalThis.Function = original;
    }
  });
});
