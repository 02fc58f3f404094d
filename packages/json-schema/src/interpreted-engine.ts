/**
 * The interpreting engine: `@cfworker/json-schema`, which walks the schema on each validation instead of generating
 * code. ajv compiles a schema into JavaScript with `new Function`, which runtimes that forbid code generation from
 * strings refuse (Cloudflare Workers and workerd, pages under a strict Content-Security-Policy); this engine runs
 * there. It is slower per validation and does not check the schema itself against its meta-schema.
 */
import type { SchemaDialect, ValidationOutcome } from './compiler.js';

/** One validator of the interpreting engine (the subset of `@cfworker/json-schema`'s `Validator` used here). */
interface InterpretedValidator {
  validate(value: unknown): { valid: boolean; errors: Array<{ instanceLocation: string; keyword: string; error: string }> };
}

/** Keywords whose errors only say that something below failed; the error below says what. */
const SUMMARY_KEYWORDS = new Set([
  'properties',
  'items',
  'prefixItems',
  'patternProperties',
  '$ref',
  'allOf',
  'false',
  'unevaluatedProperties',
]);

/** The longest error text kept: the texts quote parts of the validated value, which came from the caller. */
const MAX_TEXT = 200;

/** True when this runtime lets code be generated from strings (what ajv needs). */
export function canGenerateCode(): boolean {
  try {
    return (new Function('return 1') as () => number)() === 1;
  } catch {
    return false;
  }
}

/** Compiles `schema` with the interpreting engine; the function validates a value. */
export async function interpretedValidator(
  schema: object,
  dialect: SchemaDialect,
  allErrors: boolean,
  quote: (text: string) => string,
): Promise<(value: unknown) => ValidationOutcome | undefined> {
  const { Validator } = (await import('@cfworker/json-schema')) as unknown as {
    Validator: new (schema: object, draft: string, shortCircuit: boolean) => InterpretedValidator;
  };
  const validator = new Validator(schema, dialect === 'draft-07' ? '7' : '2020-12', !allErrors);
  return (value) => {
    const result = validator.validate(value);
    if (result.valid) return undefined;
    const leaves = result.errors.filter((error) => !SUMMARY_KEYWORDS.has(error.keyword));
    const errors = (leaves.length > 0 ? leaves : result.errors).map((error) => {
      const path = error.instanceLocation.replace(/^#/, '');
      const text = error.error.length > MAX_TEXT ? `${error.error.slice(0, MAX_TEXT)}…` : error.error;
      return `${path === '' ? '(root)' : quote(path)}: ${text}`;
    });
    return { valid: false, errors };
  };
}
