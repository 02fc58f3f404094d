#!/usr/bin/env node
// Regenerates src/table/generated/a13-validator.ts from A13_FILE_SCHEMA: `pnpm --filter @wiremcp/server-grammar generate`
// after changing src/table/table-schema.ts or src/table/vocabulary.ts. The schema is read from the TypeScript
// source (esbuild compiles table-schema.ts and what it imports in memory), so no build is needed first.
import { build } from 'esbuild';
import { mkdir, writeFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { generateValidatorModule } from './validator-module.mjs';

const root = fileURLToPath(new URL('../', import.meta.url));
const { outputFiles } = await build({
  entryPoints: [`${root}src/table/table-schema.ts`],
  bundle: true,
  write: false,
  format: 'esm',
  platform: 'neutral',
  logLevel: 'warning',
});
const source = `data:text/javascript;base64,${Buffer.from(outputFiles[0].text).toString('base64')}`;
const { A13_FILE_SCHEMA } = await import(source);
await mkdir(`${root}src/table/generated`, { recursive: true });
await writeFile(`${root}src/table/generated/a13-validator.ts`, generateValidatorModule(A13_FILE_SCHEMA));
process.stdout.write('wrote src/table/generated/a13-validator.ts\n');
