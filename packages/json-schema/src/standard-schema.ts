/**
 * Standard Schema validators (https://standardschema.dev: zod ≥ 3.24, valibot ≥ 1.0, ArkType ≥ 2.0 and others)
 * where MCP needs JSON Schema: the JSON Schema a client sees comes from the library's own converter — the
 * `~standard.jsonSchema` extension (zod ≥ 4.2, ArkType ≥ 2.1.28; valibot through `toStandardJsonSchema` of
 * `@valibot/to-json-schema`) or a converter the caller gives — and values are checked by the library's own
 * `~standard.validate`, which also returns the value the inferred type describes (defaults, transforms).
 */
import type { StandardJSONSchemaV1, StandardSchemaV1 } from '@standard-schema/spec';
import { MAX_QUOTED_LENGTH, SchemaError } from './compiler.js';
import type { FromJsonSchema, JsonSchemaLiteral } from './from-json-schema.js';

export type { StandardJSONSchemaV1, StandardSchemaV1 };

/** A schema whose type can be inferred: a JSON Schema literal (`as const`) or a Standard Schema validator. */
export type TypedSchema = JsonSchemaLiteral | StandardSchemaV1;

/** The type of a value a schema accepts (a Standard Schema's input type; a JSON Schema's type). */
export type SchemaInput<S> = S extends StandardSchemaV1 ? StandardSchemaV1.InferInput<S> : FromJsonSchema<S>;

/** The type of a value once a schema accepted it (a Standard Schema's output type: transforms and defaults applied). */
export type SchemaOutput<S> = S extends StandardSchemaV1 ? StandardSchemaV1.InferOutput<S> : FromJsonSchema<S>;

/** Which side of a Standard Schema to describe: what it accepts (`input`) or what it gives (`output`). */
export type SchemaSide = 'input' | 'output';

/**
 * Converts a Standard Schema to JSON Schema, for libraries without the `~standard.jsonSchema` extension, e.g.
 * `(schema) => toJsonSchema(schema)` with valibot's `@valibot/to-json-schema`.
 */
export type JsonSchemaConverter = (schema: StandardSchemaV1, side: SchemaSide) => object;

/** The outcome of parsing a value: the value the schema gives, or readable problems. */
export type ParseOutcome<T = unknown> =
  { readonly valid: true; readonly value: T } | { readonly valid: false; readonly errors: readonly string[] };

/** Checks a value against a schema and gives back the parsed value. */
export type SchemaParser<T = unknown> = (value: unknown) => ParseOutcome<T> | Promise<ParseOutcome<T>>;

/** The most problems one failed parse reports (the messages go back to whoever sent the value). */
export const MAX_ISSUES = 20;
const MAX_MESSAGE_LENGTH = 256;

/** True for a Standard Schema validator (version 1, with `validate`). */
export function isStandardSchema(value: unknown): value is StandardSchemaV1 {
  if ((typeof value !== 'object' && typeof value !== 'function') || value === null) return false;
  const props = (value as { '~standard'?: unknown })['~standard'];
  return (
    typeof props === 'object' &&
    props !== null &&
    (props as { version?: unknown }).version === 1 &&
    typeof (props as { validate?: unknown }).validate === 'function'
  );
}

function bounded(text: string, limit: number): string {
  return text.length <= limit ? text : `${text.slice(0, limit)}…`;
}

function describeIssue(issue: StandardSchemaV1.Issue): string {
  const path = (issue.path ?? []).map((segment) => String(typeof segment === 'object' && segment !== null ? segment.key : segment));
  const where = path.length === 0 ? '(root)' : bounded(`/${path.join('/')}`, MAX_QUOTED_LENGTH);
  return `${where}: ${bounded(String(issue.message), MAX_MESSAGE_LENGTH)}`;
}

function outcomeOf<T>(result: StandardSchemaV1.Result<T>): ParseOutcome<T> {
  if (!result.issues) return { valid: true, value: result.value };
  const errors = result.issues.slice(0, MAX_ISSUES).map(describeIssue);
  if (result.issues.length > MAX_ISSUES) errors.push(`… and ${result.issues.length - MAX_ISSUES} more`);
  return { valid: false, errors: errors.length > 0 ? errors : ['(root): invalid'] };
}

/**
 * The parser of a Standard Schema: its own `validate`, synchronous when the library's is. A validator that throws
 * is a failed parse with its message (it met a value it could not handle), never a crash of the caller.
 */
export function standardParser<S extends StandardSchemaV1>(schema: S): SchemaParser<StandardSchemaV1.InferOutput<S>> {
  const validate = schema['~standard'].validate;
  const failed = (error: unknown): ParseOutcome<never> => ({
    valid: false,
    errors: [`(root): ${bounded(error instanceof Error ? error.message : String(error), MAX_MESSAGE_LENGTH)}`],
  });
  return (value) => {
    let result: ReturnType<typeof validate>;
    try {
      result = validate(value);
    } catch (error) {
      return failed(error);
    }
    return result instanceof Promise ? result.then(outcomeOf, failed) : outcomeOf(result);
  };
}

/**
 * The JSON Schema of one side of a Standard Schema (2020-12): from the `~standard.jsonSchema` extension, else from
 * `converter`. Throws a SchemaError saying how to get one when neither is there, or with the library's reason when
 * it cannot convert (a transform has no JSON Schema).
 */
export function standardJsonSchema(schema: StandardSchemaV1, side: SchemaSide, converter?: JsonSchemaConverter): Record<string, unknown> {
  const props = schema['~standard'] as StandardSchemaV1.Props & Partial<StandardJSONSchemaV1.Props>;
  let converted: unknown;
  try {
    if (props.jsonSchema && typeof props.jsonSchema[side] === 'function') converted = props.jsonSchema[side]({ target: 'draft-2020-12' });
    else if (converter) converted = converter(schema, side);
    else {
      throw new SchemaError(
        `A ${props.vendor} schema has no JSON Schema of its own (no ~standard.jsonSchema): wrap it (valibot: toStandardJsonSchema ` +
          'of @valibot/to-json-schema) or give the server a JSON Schema converter (the toJsonSchema option)',
      );
    }
  } catch (error) {
    if (error instanceof SchemaError) throw error;
    throw new SchemaError(`Cannot convert a ${props.vendor} schema to JSON Schema: ${(error as Error).message ?? String(error)}`, {
      cause: error,
    });
  }
  if (typeof converted !== 'object' || converted === null || Array.isArray(converted)) {
    throw new SchemaError(`The JSON Schema converter of a ${props.vendor} schema returned no object`);
  }
  return converted as Record<string, unknown>;
}
