/**
 * JSON Schema work shared by the API converters: copying, resolving local `$ref`s, merging `allOf`, and making the
 * root an object schema without combinators (no API accepts `anyOf`/`oneOf`/`allOf` at the top of a function's
 * parameters).
 */

/** A JSON Schema as data. */
export type JsonSchema = Record<string, unknown>;

/** How many `$ref`s deep a chain of references is followed. */
export const MAX_REF_DEPTH = 8;
/** How many times one reference is unrolled inside itself before a recursive schema is cut (with a description). */
export const MAX_RECURSION = 2;

/** True for a plain object. */
export function isSchema(value: unknown): value is JsonSchema {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** A deep copy of JSON data (schemas from servers are never modified in place). */
export function copyJson<T>(value: T): T {
  return value === undefined ? value : (JSON.parse(JSON.stringify(value)) as T);
}

/** The `$defs`/`definitions` a local `$ref` may point into. */
export function definitionsOf(root: JsonSchema): Record<string, JsonSchema> {
  const out: Record<string, JsonSchema> = {};
  for (const key of ['definitions', '$defs']) {
    const defs = root[key];
    if (isSchema(defs)) for (const [name, schema] of Object.entries(defs)) if (isSchema(schema)) out[`#/${key}/${name}`] = schema;
  }
  return out;
}

/**
 * Replaces every local `$ref` (`#/$defs/…`, `#/definitions/…`) by a copy of its target; a recursive reference is
 * unrolled {@link MAX_RECURSION} times, then becomes `{ description }`; a reference elsewhere is dropped.
 * `$defs`/`definitions` are removed.
 */
export function inlineRefs(root: JsonSchema): JsonSchema {
  const defs = definitionsOf(root);
  const walk = (value: unknown, path: readonly string[]): unknown => {
    if (Array.isArray(value)) return value.map((item) => walk(item, path));
    if (!isSchema(value)) return value;
    if (typeof value.$ref === 'string') {
      const { $ref, ...siblings } = value;
      const target = defs[$ref as string];
      if (target === undefined) return walk(siblings, path);
      // A recursive schema is unrolled once (a node and its children), then cut.
      if (path.filter((seen) => seen === $ref).length >= MAX_RECURSION || path.length >= MAX_REF_DEPTH)
        return { description: 'A nested value of the same shape (recursive schema, cut here).' };
      return walk({ ...target, ...siblings }, [...path, $ref as string]);
    }
    const out: JsonSchema = {};
    for (const [key, child] of Object.entries(value)) {
      if (key === '$defs' || key === 'definitions') continue;
      // Keys of `properties` are names, not keywords: walk their values only.
      out[key] = key === 'properties' && isSchema(child) ? mapValues(child, (c) => walk(c, path)) : walk(child, path);
    }
    return out;
  };
  return walk(root, []) as JsonSchema;
}

/** `object` with each value mapped. */
export function mapValues(object: JsonSchema, map: (value: unknown, key: string) => unknown): JsonSchema {
  return Object.fromEntries(Object.entries(object).map(([key, value]) => [key, map(value, key)]));
}

/** Merges `allOf` members into the schema (properties and `required` united; other keywords: the first wins). */
export function mergeAllOf(schema: JsonSchema): JsonSchema {
  const members = Array.isArray(schema.allOf) ? schema.allOf.filter(isSchema) : [];
  if (members.length === 0) return schema;
  const { allOf: _allOf, ...rest } = schema;
  let out: JsonSchema = rest;
  for (const member of members.map(mergeAllOf)) {
    const properties = { ...(isSchema(member.properties) ? member.properties : {}), ...(isSchema(out.properties) ? out.properties : {}) };
    const required = [...new Set([...strings(out.required), ...strings(member.required)])];
    out = { ...member, ...out };
    if (Object.keys(properties).length > 0) out.properties = properties;
    if (required.length > 0) out.required = required;
  }
  return out;
}

/** The strings of an array (anything else: none). */
export function strings(value: unknown): string[] {
  return Array.isArray(value) ? value.filter((item): item is string => typeof item === 'string') : [];
}

/**
 * The parameters of a function: an object schema with no combinator at its root. `allOf` is merged; `anyOf`/`oneOf`
 * alternatives become one object with every alternative's properties and only the properties all of them require
 * (the description lists the alternatives); a root that is not an object becomes `{ type: 'object' }`.
 */
export function objectRoot(schema: unknown): JsonSchema {
  let root: JsonSchema = isSchema(schema) ? mergeAllOf(copyJson(schema)) : {};
  for (const key of ['anyOf', 'oneOf'] as const) {
    const branches = Array.isArray(root[key]) ? (root[key] as unknown[]).filter(isSchema).map(mergeAllOf) : [];
    if (branches.length === 0) continue;
    const { [key]: _branches, ...rest } = root;
    const properties: JsonSchema = { ...(isSchema(rest.properties) ? rest.properties : {}) };
    for (const branch of branches) if (isSchema(branch.properties)) Object.assign(properties, { ...branch.properties, ...properties });
    const common = branches.map((b) => new Set(strings(b.required))).reduce((a, b) => new Set([...a].filter((name) => b.has(name))));
    const required = [...new Set([...strings(rest.required), ...common])];
    const alternatives = branches.map((b) => strings(b.required).join(' + ') || '(none)').join('; or ');
    const note = `Give one of these sets of parameters: ${alternatives}.`;
    root = { ...rest, properties, ...(required.length ? { required } : { required: undefined }) };
    root.description = typeof rest.description === 'string' ? `${rest.description} ${note}` : note;
    if (root.required === undefined) delete root.required;
  }
  delete root.$schema;
  delete root.$id;
  if (root.type !== 'object') root.type = 'object';
  if (!isSchema(root.properties)) root.properties = {};
  return root;
}
