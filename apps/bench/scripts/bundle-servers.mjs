#!/usr/bin/env node
// Bundles the library servers of the stdio bench (wiremcp, SDK v1, SDK v2) the way the bins ship (one file each,
// scripts/bundle-bin.mjs), into dist/bundle/<kind>/bin.js: the cold-start rows spawn these, so that every library is
// measured as a program that starts from one file rather than by how many modules Node's loader has to read.
import { execFileSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';

const script = fileURLToPath(new URL('../../../scripts/bundle-bin.mjs', import.meta.url));
for (const kind of ['wiremcp', 'sdk-v1', 'sdk-v2']) {
  execFileSync(process.execPath, [script, `dist/servers/${kind}-server.js`, `dist/bundle/${kind}`], { stdio: 'inherit' });
}
