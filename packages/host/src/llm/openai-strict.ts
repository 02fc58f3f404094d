/**
 * OpenAI's strict function calling (`strict: true`, Structured Outputs) accepts a narrower JSON Schema: every object
 * closed (`additionalProperties: false`) with every property listed in `required` — an optional property becomes
 * required and nullable — `anyOf` instead of `oneOf`, `allOf` merged, and no `default`, `not`, conditionals or
 * pattern properties. A schema that cannot be made strict without changing what it accepts (an open map, a `not`)
 * gets `undefined`: the tool is then declared non-strict.
 */
import { isSchema, mapValues, mergeAllOf, strings, type JsonSchema } from './schema-common.js';

const REFUSED = ['not', 'if', 'then', 'else', 'patternProperties', 'dependentRequired', 'dependentSchemas', 'unevaluatedProperties'];
const DROPPED = ['default', 'examples', '$schema', '$id'];

class NotStrict extends Error {}

function nullable(input: JsonSchema): JsonSchema {
  // An enum must list null too, or the null the type now allows is refused by the enum.
  const schema = Array.isArray(input.enum) && !input.enum.includes(null) ? { ...input, enum: [...input.enum, null] } : input;
  if (typeof schema.type === 'string') return schema.type === 'null' ? schema : { ...schema, type: [schema.type, 'null'] };
  if (Array.isArray(schema.type)) return schema.type.includes('null') ? schema : { ...schema, type: [...schema.type, 'null'] };
  if (Array.isArray(schema.anyOf))
    return schema.anyOf.some((b) => isSchema(b) && b.type === 'null') ? schema : { ...schema, anyOf: [...schema.anyOf, { type: 'null' }] };
  return { anyOf: [schema, { type: 'null' }] };
}

function strict(input: unknown): unknown {
  if (!isSchema(input)) return input;
  const schema = mergeAllOf(input);
  for (const key of REFUSED) if (key in schema) throw new NotStrict(key);
  const out: JsonSchema = {};
  for (const [key, value] of Object.entries(schema)) {
    if (DROPPED.includes(key)) continue;
    if (key === 'oneOf') out.anyOf = (value as unknown[]).map(strict);
    else if (key === 'anyOf' || key === 'prefixItems') out[key] = (value as unknown[]).map(strict);
    else if (key === 'items' || key === 'contains') out[key] = strict(value);
    else if ((key === '$defs' || key === 'definitions') && isSchema(value)) out[key] = mapValues(value, strict);
    else if (key !== 'properties' && key !== 'required' && key !== 'additionalProperties') out[key] = value;
  }
  const isObject =
    schema.type === 'object' || (Array.isArray(schema.type) && schema.type.includes('object')) || isSchema(schema.properties);
  if (isObject) {
    if (schema.additionalProperties !== undefined && schema.additionalProperties !== false && !isSchema(schema.properties))
      throw new NotStrict('additionalProperties');
    if (isSchema(schema.additionalProperties) || schema.additionalProperties === true) throw new NotStrict('additionalProperties');
    const required = new Set(strings(schema.required));
    const properties = isSchema(schema.properties) ? schema.properties : {};
    out.properties = mapValues(properties, (value, name) => {
      const converted = strict(value) as JsonSchema;
      return required.has(name) ? converted : nullable(converted);
    });
    out.required = Object.keys(properties);
    out.additionalProperties = false;
  }
  return out;
}

/** The strict form of a tool's parameters, or `undefined` when it has none. */
export function toStrictSchema(parameters: JsonSchema): JsonSchema | undefined {
  try {
    return strict(parameters) as JsonSchema;
  } catch (error) {
    if (error instanceof NotStrict) return undefined;
    throw error;
  }
}
