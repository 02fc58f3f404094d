// TypeScript types from a revision's schema.json, one `export` per definition, via json-schema-to-typescript.
//
// The schema is rewritten before compiling, so the output is clean:
// - every local `$ref` becomes a `tsType` naming the definition: json-schema-to-typescript would otherwise
//   dereference `{"$ref": …, "description": …}` into a copy and emit duplicates (`Annotations1`, `Result2`);
// - `additionalProperties` defaults to false (excess-property checks for authors), except where extra keys are
//   allowed on purpose: an explicit `additionalProperties`, a free-form object (no declared property), and the
//   `*MetaObject` definitions (`_meta` takes any key by the spec's own rules);
// - a schema with no type keyword at all (`{"description": …}`: any JSON value) becomes `unknown`;
// - `{@link CallToolRequesttools/call}` (how the upstream generator flattened `{@link X | label}`) is repaired.
import { compile } from 'json-schema-to-typescript';
import { header, namespaceName, refTarget } from './spec.mjs';

const TYPE_KEYWORDS = [
  'type',
  'properties',
  '$ref',
  'tsType',
  'anyOf',
  'oneOf',
  'allOf',
  'enum',
  'const',
  'items',
  'additionalProperties',
  'not',
];
const ANNOTATIONS_BESIDE_REF = new Set(['$ref', 'description', 'title', 'deprecated']);
const STYLE = { printWidth: 120, singleQuote: true, trailingComma: 'all', bracketSpacing: true, semi: true, tabWidth: 2, useTabs: false };

function repairLinks(text, names) {
  return text.replace(/\{@link ([^}|]+)\}/g, (whole, body) => {
    if (names.has(body) || names.has(body.split('.')[0])) return whole;
    const name = [...names].filter((n) => body.startsWith(n)).sort((a, b) => b.length - a.length)[0];
    return name ? `{@link ${name} | ${body.slice(name.length)}}` : whole;
  });
}

function prepare(node, context) {
  if (Array.isArray(node)) return node.map((item) => prepare(item, context));
  if (!node || typeof node !== 'object') return node;
  const out = {};
  for (const [key, value] of Object.entries(node)) {
    if (key === '$schema' || key === '$id') continue;
    if (key === 'properties') {
      out.properties = Object.fromEntries(Object.entries(value).map(([name, schema]) => [name, prepare(schema, context)]));
    } else if (key === 'description' && typeof value === 'string') {
      out.description = repairLinks(value, context.names);
    } else {
      out[key] = prepare(value, context);
    }
  }
  if (out.$ref !== undefined) {
    const target = refTarget(out.$ref);
    if (!target) throw new Error(`${context.revision}: unsupported $ref ${out.$ref}`);
    const extra = Object.keys(out).filter((key) => !ANNOTATIONS_BESIDE_REF.has(key));
    if (extra.length) throw new Error(`${context.revision}: $ref to ${target} has constraints beside it (${extra})`);
    delete out.$ref;
    out.tsType = target;
  }
  if (!TYPE_KEYWORDS.some((key) => key in out)) out.tsType = 'unknown';
  const isObject = out.type === 'object';
  const declaresNothing = out.properties === undefined || Object.keys(out.properties).length === 0;
  if (isObject && declaresNothing && out.additionalProperties === undefined) out.additionalProperties = true;
  return out;
}

/** The type module of one revision: every definition under its spec name, in schema order. */
export async function generateTypes(spec) {
  const names = new Set(Object.keys(spec.defs));
  const chunks = [];
  for (const name of names) {
    const schema = prepare(spec.defs[name], { revision: spec.revision, names });
    if (/MetaObject$/.test(name) && schema.type === 'object' && schema.additionalProperties === undefined) {
      schema.additionalProperties = true;
    }
    const code = await compile(schema, name, {
      additionalProperties: false,
      bannerComment: '',
      format: true,
      style: STYLE,
      unknownAny: true,
      strictIndexSignatures: false,
      unreachableDefinitions: false,
    });
    const exported = [...code.matchAll(/^export (?:interface|type) (\w+)/gm)].map((match) => match[1]);
    if (exported.length !== 1 || exported[0] !== name) {
      throw new Error(`${spec.revision}: ${name} compiled to ${exported.join(', ') || 'nothing'}`);
    }
    chunks.push(code.trim());
  }
  const source = `schemas/${spec.revision}/schema.json`;
  return (
    `${header(source)}// Every definition of MCP ${spec.revision} as a TypeScript type, under its spec name. Type-only: no runtime code.\n` +
    `\n${chunks.join('\n\n')}\n`
  );
}

/**
 * The curated public type surface: one namespace per revision, and every definition name unqualified, taken from
 * the newest revision that defines it (2026-07-28 first, then legacy-only names from the newest legacy revision).
 */
export function generateTypesIndex(specs) {
  const lines = [header('schemas/*/schema.json').trimEnd()];
  lines.push('// The public type surface of @wiremcp/protocol: namespaces per revision and unqualified spec names.');
  lines.push('// Rule: an unqualified name is the definition of the newest revision that has one (2026-07-28 where it');
  lines.push('// exists; otherwise the newest legacy revision). Older shapes are reachable through the namespaces, e.g.');
  lines.push('// `Spec2025_11_25.ClientCapabilities`.', '');
  for (const spec of specs) {
    lines.push(`/** Every definition of MCP ${spec.revision}, under its spec name. */`);
    lines.push(`export type * as ${namespaceName(spec.revision)} from './${spec.revision}.js';`);
  }
  const taken = new Set();
  for (const spec of [...specs].reverse()) {
    const names = Object.keys(spec.defs).filter((name) => !taken.has(name));
    if (!names.length) continue;
    names.forEach((name) => taken.add(name));
    const newest = spec === specs[specs.length - 1];
    lines.push('');
    lines.push(newest ? `// Every ${spec.revision} definition.` : `// Names whose newest definition is in ${spec.revision}.`);
    lines.push(`export type {\n${names.map((name) => `  ${name},`).join('\n')}\n} from './${spec.revision}.js';`);
  }
  return `${lines.join('\n')}\n`;
}
