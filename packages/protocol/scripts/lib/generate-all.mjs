// Everything scripts/generate.mjs writes, computed in memory: `Map<path relative to the package root, content>`.
// The staleness test calls this too and compares with the committed files.
import { join } from 'node:path';
import { generateExamplesTypecheck } from './examples.mjs';
import { extractMethods, generateMethodMaps, generateMethodTable } from './methods.mjs';
import { header, loadSpecs } from './spec.mjs';
import { generateTypes, generateTypesIndex } from './types.mjs';
import { generateValidators } from './validators.mjs';

/** Directories whose every file is generated: a file there that `generateAll` does not produce is stale. */
export const GENERATED_DIRS = ['src/generated', 'src/generated/schemas', 'src/validators/generated'];

function generateSchemaModule(spec) {
  // JSON.parse of a string literal: cheaper for engines to parse than an object literal of the same size, and
  // tsc does not infer a 180 kB literal type. Same data as the vendored file, without its indentation.
  return [
    header(`schemas/${spec.revision}/schema.json`).trimEnd(),
    `// The official MCP ${spec.revision} JSON Schema (${spec.draft}) as data.`,
    '',
    `/** The MCP ${spec.revision} JSON Schema, unchanged (definitions under \`${spec.defsKey}\`). */`,
    `export const schema: Readonly<Record<string, unknown>> = JSON.parse(${JSON.stringify(JSON.stringify(spec.schema))});`,
    '',
  ].join('\n');
}

/** Every generated file for the package at `packageRoot`: path relative to it -> content. Writes nothing. */
export async function generateAll(packageRoot) {
  const specs = loadSpecs(packageRoot);
  const files = new Map();
  for (const spec of specs) {
    files.set(`src/generated/${spec.revision}.ts`, await generateTypes(spec));
    files.set(`src/generated/schemas/${spec.revision}.ts`, generateSchemaModule(spec));
    files.set(`src/validators/generated/${spec.revision}.ts`, generateValidators(spec));
  }
  files.set('src/generated/index.ts', generateTypesIndex(specs));
  const methods = extractMethods(specs);
  files.set('src/generated/method-table.ts', generateMethodTable(methods));
  files.set('src/generated/method-maps.ts', generateMethodMaps(methods, specs));
  const newest = specs[specs.length - 1];
  files.set(
    'test/generated/examples.typecheck.ts',
    generateExamplesTypecheck(newest, join(packageRoot, 'test/fixtures', newest.revision, 'examples')),
  );
  return files;
}

export { header };
