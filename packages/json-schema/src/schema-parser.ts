/**
 * One way to check a value whatever the schema is: a Standard Schema runs its own `validate`; a JSON Schema is
 * compiled once (lazily, by the given compiler) and the value, unchanged, is what it gives back.
 */
import type { SchemaCompiler, ValidationOutcome } from './compiler.js';
import {
  isStandardSchema,
  standardParser,
  type ParseOutcome,
  type SchemaOutput,
  type SchemaParser,
  type TypedSchema,
} from './standard-schema.js';

function outcome<T>(checked: ValidationOutcome, value: unknown): ParseOutcome<T> {
  return checked.valid ? { valid: true, value: value as T } : { valid: false, errors: checked.errors };
}

/**
 * The parser of `schema`. A JSON Schema that cannot be compiled rejects (with a SchemaError) on the first value,
 * not when the parser is made, so that making one stays synchronous and cheap.
 */
export function parserOf<S extends TypedSchema>(schema: S, compiler: SchemaCompiler): SchemaParser<SchemaOutput<S>> {
  if (isStandardSchema(schema)) return standardParser(schema) as SchemaParser<SchemaOutput<S>>;
  const json: object = typeof schema === 'boolean' ? (schema ? {} : { not: {} }) : (schema as object);
  return (value) => {
    const cached = compiler.cached(json);
    if (cached) return outcome(cached(value), value);
    return compiler.compile(json).then((validator) => outcome(validator(value), value));
  };
}
