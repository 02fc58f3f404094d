// The deterministic rule that turns a valid example into an invalid one, shared by the generator (for the
// `@ts-expect-error` copies in test/generated/examples.typecheck.ts) and the example-vector test (for the validator).
import { refTarget, requiredOf } from './spec.mjs';

const JSON_TYPES = ['object', 'array', 'string', 'number', 'integer', 'boolean', 'null'];
/** A value of each JSON type, in the order they are tried as replacements. */
const SAMPLES = [
  ['string', 'not a valid value'],
  ['number', 1.5],
  ['boolean', true],
  ['null', null],
  ['array', []],
  ['object', {}],
];

/** The JSON types a schema can accept (following `$ref`, `anyOf`, `oneOf`, `allOf`); every type when unconstrained. */
export function acceptedTypes(defs, schema, seen = new Set()) {
  const target = refTarget(schema?.$ref);
  if (target) {
    if (seen.has(target)) return new Set(JSON_TYPES);
    return acceptedTypes(defs, defs[target], new Set([...seen, target]));
  }
  let types = new Set(JSON_TYPES);
  if (schema?.type !== undefined) types = new Set([schema.type].flat());
  if (types.has('number')) types.add('integer');
  if ('const' in (schema ?? {})) types = intersect(types, new Set([jsonType(schema.const)]));
  if (schema?.enum) types = intersect(types, new Set(schema.enum.map(jsonType)));
  for (const key of ['anyOf', 'oneOf']) {
    if (schema?.[key]) {
      const union = new Set();
      for (const member of schema[key]) for (const type of acceptedTypes(defs, member, seen)) union.add(type);
      types = intersect(types, union);
    }
  }
  for (const part of schema?.allOf ?? []) types = intersect(types, acceptedTypes(defs, part, seen));
  return types;
}

function intersect(a, b) {
  return new Set([...a].filter((type) => b.has(type) || (type === 'integer' && b.has('number'))));
}

function jsonType(value) {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'array';
  if (typeof value === 'number') return Number.isInteger(value) ? 'integer' : 'number';
  return typeof value;
}

/**
 * Breaks `value` (a valid instance of `defs[name]`): removes the first property listed in the definition's
 * `required` (following `allOf`/`$ref`); when the definition requires nothing, replaces the whole value with a
 * JSON value of a type the definition cannot accept. Returns `{value, rule}`; throws when neither rule applies.
 */
export function breakExample(defs, name, value) {
  const spec = { defs };
  const required = requiredOf(spec, defs[name]);
  const first = required[0];
  if (first !== undefined && value && typeof value === 'object' && !Array.isArray(value) && first in value) {
    const { [first]: _removed, ...rest } = value;
    return { value: rest, rule: `without required property '${first}'` };
  }
  const accepted = acceptedTypes(defs, defs[name]);
  const sample = SAMPLES.find(([type]) => !accepted.has(type));
  if (!sample) throw new Error(`${name} accepts every JSON type and requires nothing: no way to break it`);
  return { value: sample[1], rule: `replaced by a ${sample[0]}` };
}
