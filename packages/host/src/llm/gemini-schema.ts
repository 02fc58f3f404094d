/**
 * JSON Schema → the OpenAPI 3.0 subset Gemini's `functionDeclarations[].parameters` accept (its `Schema` object):
 * upper-case `type` names, `nullable` instead of `null` types, string-only `enum`, `anyOf` instead of `oneOf`, `$ref`s
 * inlined, `allOf` merged, and every keyword outside the subset dropped (`additionalProperties`, `$schema`, `const`,
 * `examples`, `patternProperties`…). What a dropped keyword said that matters to a model (a non-string enum, a
 * constant, a map's value type) is kept as text in the description.
 */
import { inlineRefs, isSchema, mergeAllOf, strings, type JsonSchema } from './schema-common.js';

const TYPES: Record<string, string> = {
  string: 'STRING',
  number: 'NUMBER',
  integer: 'INTEGER',
  boolean: 'BOOLEAN',
  array: 'ARRAY',
  object: 'OBJECT',
};

/** Formats Gemini accepts, per type; others are dropped. */
const FORMATS: Record<string, readonly string[]> = {
  STRING: ['enum', 'date-time'],
  INTEGER: ['int32', 'int64'],
  NUMBER: ['float', 'double'],
};

const NUMERIC = ['minimum', 'maximum', 'minItems', 'maxItems', 'minLength', 'maxLength', 'minProperties', 'maxProperties'] as const;

function describe(schema: JsonSchema, ...notes: string[]): string | undefined {
  const parts = [typeof schema.description === 'string' ? schema.description : undefined, ...notes].filter(Boolean);
  return parts.length === 0 ? undefined : parts.join(' ');
}

function listed(values: readonly unknown[]): string {
  return values.map((value) => JSON.stringify(value)).join(', ');
}

function convert(input: unknown): JsonSchema {
  if (!isSchema(input)) return {};
  const schema = mergeAllOf(input);
  const notes: string[] = [];
  const out: JsonSchema = {};
  // Union types: ['string', 'null'] is a nullable string; several non-null types become anyOf.
  const declared = Array.isArray(schema.type) ? strings(schema.type) : typeof schema.type === 'string' ? [schema.type] : [];
  if (declared.includes('null')) out.nullable = true;
  let types = declared.filter((type) => type !== 'null');
  let alternatives = [...(Array.isArray(schema.anyOf) ? schema.anyOf : []), ...(Array.isArray(schema.oneOf) ? schema.oneOf : [])].filter(
    isSchema,
  );
  if (alternatives.some((alt) => alt.type === 'null')) {
    out.nullable = true;
    alternatives = alternatives.filter((alt) => alt.type !== 'null');
  }
  if (alternatives.length === 1 && types.length === 0)
    return { ...convert({ ...alternatives[0], description: describe(schema) }), ...pick(out) };
  if (alternatives.length > 0) out.anyOf = alternatives.map(convert);
  if (types.length > 1) {
    out.anyOf = [
      ...((out.anyOf as JsonSchema[] | undefined) ?? []),
      ...types.map((type) => convert({ ...schema, type, description: undefined })),
    ];
    types = [];
  }
  let type = types[0] === undefined ? undefined : TYPES[types[0]];
  if ('const' in schema) {
    const value = schema.const;
    if (typeof value === 'string') {
      type ??= 'STRING';
      out.enum = [value];
    } else notes.push(`Must be ${JSON.stringify(value)}.`);
    type ??= typeof value === 'number' ? 'NUMBER' : typeof value === 'boolean' ? 'BOOLEAN' : undefined;
  }
  if (Array.isArray(schema.enum)) {
    const values = schema.enum.filter((value) => value !== null);
    if (schema.enum.includes(null)) out.nullable = true;
    if (values.every((value) => typeof value === 'string')) {
      out.enum = values;
      type ??= 'STRING';
    } else notes.push(`One of: ${listed(values)}.`);
  }
  if (type === undefined && isSchema(schema.properties)) type = 'OBJECT';
  if (type === undefined && schema.items !== undefined) type = 'ARRAY';
  if (type !== undefined && out.anyOf === undefined) out.type = type;
  if (typeof schema.format === 'string' && type !== undefined && FORMATS[type]?.includes(schema.format)) out.format = schema.format;
  else if (typeof schema.format === 'string') notes.push(`Format: ${schema.format}.`);
  if (typeof schema.title === 'string') out.title = schema.title;
  if (typeof schema.pattern === 'string') out.pattern = schema.pattern;
  for (const key of NUMERIC) if (typeof schema[key] === 'number') out[key] = schema[key];
  if (typeof schema.exclusiveMinimum === 'number') out.minimum ??= schema.exclusiveMinimum;
  if (typeof schema.exclusiveMaximum === 'number') out.maximum ??= schema.exclusiveMaximum;
  if (type === 'ARRAY') {
    const items = Array.isArray(schema.items) ? schema.items[0] : schema.items;
    if (isSchema(items)) out.items = convert(items);
  }
  if (isSchema(schema.properties)) {
    const properties = Object.fromEntries(Object.entries(schema.properties).map(([name, value]) => [name, convert(value)]));
    out.properties = properties;
    const required = strings(schema.required).filter((name) => Object.hasOwn(properties, name));
    if (required.length > 0) out.required = required;
  } else if (type === 'OBJECT' && isSchema(schema.additionalProperties)) {
    notes.push('An object whose keys are names of your choosing.');
  }
  const description = describe(schema, ...notes);
  if (description !== undefined) out.description = description;
  return out;
}

function pick(out: JsonSchema): JsonSchema {
  return out.nullable === true ? { nullable: true } : {};
}

/**
 * Converts the parameters of a tool (an object schema, see `objectRoot`) to Gemini's `Schema`. `undefined` when there
 * are no parameters: Gemini refuses an `OBJECT` without properties, so the declaration leaves `parameters` out.
 */
export function toGeminiSchema(parameters: JsonSchema): JsonSchema | undefined {
  const converted = convert(inlineRefs(parameters));
  if (!isSchema(converted.properties) || Object.keys(converted.properties).length === 0) return undefined;
  return converted;
}
