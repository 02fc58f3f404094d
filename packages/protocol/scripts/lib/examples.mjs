// test/generated/examples.typecheck.ts: every 2026-07-28 example as an object literal annotated with its spec type, plus a
// broken copy under `@ts-expect-error`, so `tsc` fails when a valid example does not type-check or when a broken
// one does.
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { breakExample } from './break-example.mjs';
import { header, propertiesOf } from './spec.mjs';

/** `[{type, file, value}]` for every example under `dir/<TypeName>/*.json`, sorted by type then file name. */
export function loadExamples(dir) {
  const out = [];
  for (const type of readdirSync(dir).sort()) {
    const typeDir = join(dir, type);
    let files;
    try {
      files = readdirSync(typeDir)
        .filter((file) => file.endsWith('.json'))
        .sort();
    } catch {
      continue; // a plain file such as a README
    }
    for (const file of files) out.push({ type, file, value: JSON.parse(readFileSync(join(typeDir, file), 'utf8')) });
  }
  return out;
}

function literal(value) {
  return JSON.stringify(value, null, 2);
}

/**
 * Top-level keys of an example that its definition does not declare. JSON Schema allows them (no MCP definition
 * sets `additionalProperties: false`), but the generated types are closed, so such an example is checked through
 * a variable (structural check without excess-property check) and the key is named in a comment.
 */
export function undeclaredKeys(spec, type, value) {
  const def = spec.defs[type];
  if (!value || typeof value !== 'object' || Array.isArray(value) || def.additionalProperties !== undefined) return [];
  const declared = propertiesOf(spec, def);
  if (!Object.keys(declared).length) return [];
  return Object.keys(value).filter((name) => !(name in declared));
}

/**
 * test/generated/examples.typecheck.ts: one exported const per example, annotated with its definition's public type, and
 * its broken copy under `@ts-expect-error` (so tsc fails if a valid example does not type-check, or a broken one does).
 */
export function generateExamplesTypecheck(spec, examplesDir) {
  const examples = loadExamples(examplesDir);
  const types = [...new Set(examples.map((example) => example.type))];
  for (const type of types) if (!spec.defs[type]) throw new Error(`example directory ${type} names no ${spec.revision} definition`);
  const counters = new Map();
  const blocks = examples.map(({ type, file, value }) => {
    const n = (counters.get(type) ?? 0) + 1;
    counters.set(type, n);
    const id = `${type[0].toLowerCase()}${type.slice(1)}_${n}`;
    const broken = breakExample(spec.defs, type, value);
    const extra = undeclaredKeys(spec, type, value);
    const valid = extra.length
      ? [
          `// Carries ${extra.map((name) => `\`${name}\``).join(', ')}, which ${spec.revision} ${type} does not declare: checked without`,
          '// the excess-property check (see undeclaredKeys in scripts/lib/examples.mjs).',
          `const ${id}_value = ${literal(value)} as const;`,
          `export const ${id}: ${type} = ${id}_value;`,
        ]
      : [`export const ${id}: ${type} = ${literal(value)};`];
    const invalid = extra.length
      ? [
          `const ${id}_broken_value = ${literal(broken.value)} as const;`,
          '// @ts-expect-error',
          `export const ${id}_broken: ${type} = ${id}_broken_value;`,
        ]
      : ['// @ts-expect-error', `export const ${id}_broken: ${type} = ${literal(broken.value)};`];
    return [`// ${type}/${file}`, ...valid, `// Broken copy (${broken.rule}): must not type-check.`, ...invalid].join('\n');
  });
  return [
    header(`test/fixtures/${spec.revision}/examples/*/*.json`).trimEnd(),
    `// Type-checked by the root \`tsc -p tsconfig.json\`: the ${examples.length} official ${spec.revision} examples against the`,
    '// public types, and a broken copy of each (rule in scripts/lib/break-example.mjs) that must be rejected.',
    `import type {\n${types.map((type) => `  ${type},`).join('\n')}\n} from '../../src/generated/index.js';`,
    '',
    blocks.join('\n\n'),
    '',
  ].join('\n');
}
