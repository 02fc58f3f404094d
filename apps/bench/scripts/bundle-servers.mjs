#!/usr/bin/env node
// Bundles the library servers of the stdio bench (wiremcp, SDK v1, SDK v2) the way the reference servers' bins ship
// (scripts/bundle-bin.mjs --code-cache: one CommonJS program each, started by dist/bundle/<kind>/bin.js through a V8
// code cache): the cold-start rows spawn these, so that every library is measured as a program that starts as ours
// do, rather than by how many modules Node's loader has to read or whether its package happens to keep a cache.
import { execFileSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';

const script = fileURLToPath(new URL('../../../scripts/bundle-bin.mjs', import.meta.url));
for (const kind of ['wiremcp', 'sdk-v1', 'sdk-v2']) {
  execFileSync(process.execPath, [script, '--code-cache', `dist/servers/${kind}-server.js`, `dist/bundle/${kind}`], { stdio: 'inherit' });
}
