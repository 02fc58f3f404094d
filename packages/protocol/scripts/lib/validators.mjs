// Standalone validators of one revision, compiled by Ajv at generation time so that the runtime needs no Ajv.
//
// Each definition becomes its own schema (`$id` = <base>/<Name>, local `$ref`s rewritten to `Name`), so Ajv
// compiles every definition exactly once into one function that every reference shares; compiling the
// definitions as fragments of one document would duplicate each referenced function per exported entry point.
import AjvDraft07 from 'ajv';
import Ajv2020 from 'ajv/dist/2020.js';
import standaloneCode from 'ajv/dist/standalone/index.js';
import { header, key, literal, quote, refTarget } from './spec.mjs';

const { _ } = AjvDraft07;

// Keywords whose code relies on options we switch off (see `createAjv`) or on Ajv runtime helpers we do not ship.
// A future schema using one of them must fail generation loudly rather than be compiled wrongly.
// (`minLength`/`maxLength` would need Ajv's ucs2length and `uniqueItems` its deep equal; `const`/`enum` with object
// values need deep equal too, which the check for `require(` in the output catches.)
const UNSUPPORTED_KEYWORDS = [
  'unevaluatedProperties',
  'unevaluatedItems',
  '$dynamicRef',
  '$dynamicAnchor',
  '$recursiveRef',
  '$recursiveAnchor',
  'minLength',
  'maxLength',
  'uniqueItems',
];
/** Formats the schemas use; their checks live in src/validators/formats.ts. */
export const FORMATS = ['byte', 'uri', 'uri-template'];
const ANNOTATIONS = new Set(['description', 'title', '$comment', 'examples', 'deprecated', 'default']);

function forEachSchema(node, visit) {
  if (Array.isArray(node)) return node.forEach((item) => forEachSchema(item, visit));
  if (!node || typeof node !== 'object') return;
  visit(node);
  for (const [key, value] of Object.entries(node)) {
    if (key === 'properties' || key === '$defs' || key === 'definitions') {
      for (const schema of Object.values(value)) forEachSchema(schema, visit);
    } else if (key !== 'const' && key !== 'enum') {
      forEachSchema(value, visit);
    }
  }
}

// Drops annotation keywords (they only cost bytes: Ajv embeds the schema objects it refers to) and rewrites local
// refs to sibling-schema refs.
function prepare(node, revision) {
  if (Array.isArray(node)) return node.map((item) => prepare(item, revision));
  if (!node || typeof node !== 'object') return node;
  const out = {};
  for (const [key, value] of Object.entries(node)) {
    if (ANNOTATIONS.has(key) || key === '$schema') continue;
    if (key === 'properties') {
      out.properties = Object.fromEntries(Object.entries(value).map(([name, schema]) => [name, prepare(schema, revision)]));
    } else if (key === 'const' || key === 'enum') {
      out[key] = value;
    } else if (key === '$ref') {
      const target = refTarget(value);
      if (!target) throw new Error(`${revision}: unsupported $ref ${value}`);
      out.$ref = target;
    } else {
      out[key] = prepare(value, revision);
    }
  }
  return out;
}

function createAjv(draft) {
  const options = {
    code: { source: true, esm: true, lines: false, optimize: true, formats: _`formats` },
    strict: true,
    strictTypes: false, // the schemas put `properties` beside `anyOf` without `type`; that is valid JSON Schema
    allErrors: false, // stop at the first failure of each branch: smaller, faster, errors stay readable
    inlineRefs: false, // one function per definition, shared by every reference: keeps the module small
    messages: true,
    validateFormats: true,
  };
  const ajv = draft === '2020-12' ? new Ajv2020(options) : new AjvDraft07(options);
  // Ajv2020 forces `unevaluated` and `dynamicRef` on, which makes every function track evaluated properties
  // (~25% more code). No MCP schema uses those keywords (checked in `generateValidators`), so switch them off.
  ajv.opts.unevaluated = false;
  ajv.opts.dynamicRef = false;
  // Placeholders: at generation time Ajv only needs to know the format exists and applies to strings; the
  // generated code calls `formats[name].validate` from src/validators/formats.ts.
  for (const name of FORMATS) ajv.addFormat(name, { type: 'string', validate: () => true });
  return ajv;
}

// Removes `const schemaN = {…};` declarations nothing refers to (Ajv emits one per compiled schema).
function dropUnusedSchemaConstants(code) {
  let out = code;
  for (const match of [...code.matchAll(/const (schema\d+) = /g)]) {
    const name = match[1];
    const uses = out.match(new RegExp(`\\b${name}\\b`, 'g'))?.length ?? 0;
    if (uses !== 1) continue;
    const start = out.indexOf(`const ${name} = `);
    const end = endOfJson(out, start + `const ${name} = `.length);
    if (out[end] !== ';') throw new Error(`unexpected code after ${name}`);
    out = out.slice(0, start) + out.slice(end + 1);
  }
  return out;
}

// Index just past the JSON value starting at `start` (Ajv writes embedded schemas with JSON.stringify).
function endOfJson(text, start) {
  let depth = 0;
  let inString = false;
  for (let i = start; i < text.length; i++) {
    const c = text[i];
    if (inString) {
      if (c === '\\') i++;
      else if (c === '"') inString = false;
    } else if (c === '"') inString = true;
    else if (c === '{' || c === '[') depth++;
    else if (c === '}' || c === ']') {
      depth--;
      if (depth === 0) return i + 1;
    }
  }
  throw new Error('unterminated JSON in generated code');
}

/**
 * Definitions that pin one error code, by code: `error` when the definition is the error object (2026 `ParseError`),
 * `response` when it is the whole error response (2026 `UnsupportedProtocolVersionError`).
 */
export function errorCodeDefinitions(spec) {
  const out = {};
  for (const [name, def] of Object.entries(spec.defs)) {
    const direct = def.properties?.code?.const;
    const error = def.properties?.error;
    const nested =
      error?.properties?.code?.const ?? (error?.allOf ?? []).map((part) => part.properties?.code?.const).find((code) => code !== undefined);
    if (typeof direct === 'number') out[direct] = { definition: name, shape: 'error' };
    else if (typeof nested === 'number') out[nested] = { definition: name, shape: 'response' };
  }
  return Object.fromEntries(Object.entries(out).sort(([a], [b]) => Number(b) - Number(a)));
}

/** The standalone validator module of one revision (TypeScript with `@ts-nocheck`: the body is Ajv's JavaScript). */
export function generateValidators(spec) {
  const names = Object.keys(spec.defs);
  forEachSchema(spec.defs, (node) => {
    for (const keyword of UNSUPPORTED_KEYWORDS) {
      if (keyword in node) throw new Error(`${spec.revision}: keyword ${keyword} is not supported by the generator`);
    }
    if (typeof node.format === 'string' && !FORMATS.includes(node.format)) {
      throw new Error(`${spec.revision}: format ${node.format} has no implementation in src/validators/formats.ts`);
    }
  });
  const base = `https://wiremcp.invalid/schemas/${spec.revision}/`;
  const ajv = createAjv(spec.draft);
  for (const name of names) ajv.addSchema({ ...prepare(spec.defs[name], spec.revision), $id: base + name });
  const exportsMap = Object.fromEntries(names.map((name) => [name, base + name]));
  let code = standaloneCode(ajv, exportsMap);

  const exported = new Map();
  code = code.replace(/export const (\w+) = (validate\d+);/g, (_whole, name, fn) => {
    exported.set(name, fn);
    return '';
  });
  if (exported.size !== names.length) throw new Error(`${spec.revision}: expected ${names.length} exports, got ${exported.size}`);
  code = code.replace(/^"use strict";/, '').replace(/\/\*# sourceURL="[^"]*" \*\/;?/g, '');
  code = dropUnusedSchemaConstants(code);
  if (/\brequire\(/.test(code))
    throw new Error(`${spec.revision}: generated code needs an Ajv runtime helper: ${code.match(/require\([^)]*\)/)[0]}`);
  if (/\bexport\b/.test(code)) throw new Error(`${spec.revision}: unexpected export left in generated code`);

  const table = names.map((name) => `  ${key(name)}: ${exported.get(name)},`).join('\n');
  const errors = Object.entries(errorCodeDefinitions(spec)).map(([code, info]) => `  ${quote(code)}: ${literal(info)},`);
  return [
    header(`schemas/${spec.revision}/schema.json`).trimEnd(),
    '// @ts-nocheck -- the body below is JavaScript emitted by Ajv in standalone mode (formats from ../formats.ts).',
    `// Validators of every MCP ${spec.revision} definition. Large: import it only through its own export path.`,
    `import type { CompiledValidator, ErrorCodeDefinition } from '../compiled-validator.js';`,
    `import { formats } from '../formats.js';`,
    '',
    `/** Every ${spec.revision} definition name, in schema order. */`,
    `export const definitionNames = ${literal(names)} as const;`,
    '',
    `/** A ${spec.revision} definition name. */`,
    'export type DefinitionName = (typeof definitionNames)[number];',
    '',
    code.trim(),
    '',
    `/** The compiled validator of every ${spec.revision} definition, by spec name. */`,
    'export const compiledValidators: Readonly<Record<DefinitionName, CompiledValidator>> = {',
    table,
    '};',
    '',
    `/** Definitions that pin one error code (\`error\`: the error object; \`response\`: the whole response), by code. */`,
    `export const errorCodeDefinitions: Readonly<Record<string, ErrorCodeDefinition<DefinitionName>>> = {${errors.length ? `\n${errors.join('\n')}\n` : ''}};`,
    '',
  ].join('\n');
}
