#!/usr/bin/env node
// Regenerates every derived file of @wiremcp/protocol from schemas/<revision>/schema.json (and the 2026-07-28
// examples): types, validators, schema modules, the method table and maps, test/generated/examples.typecheck.ts.
// Deterministic; the output is committed, so a build never needs this. Run: pnpm --filter @wiremcp/protocol generate
import { mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { GENERATED_DIRS, generateAll } from './lib/generate-all.mjs';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const started = performance.now();
const files = await generateAll(root);
let written = 0;
for (const [path, content] of files) {
  const target = join(root, path);
  let current;
  try {
    current = readFileSync(target, 'utf8');
  } catch {
    current = undefined;
  }
  if (current === content) continue;
  mkdirSync(dirname(target), { recursive: true });
  writeFileSync(target, content);
  written++;
  console.log(`wrote ${path} (${Buffer.byteLength(content)} bytes)`);
}
for (const dir of GENERATED_DIRS) {
  for (const entry of readdirSync(join(root, dir), { withFileTypes: true })) {
    const path = `${dir}/${entry.name}`;
    if (entry.isFile() && !files.has(path)) {
      rmSync(join(root, path));
      console.log(`removed stale ${path}`);
    }
  }
}
console.log(`${files.size} files, ${written} changed, ${Math.round(performance.now() - started)} ms`);
