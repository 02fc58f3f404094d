#!/usr/bin/env node
// Bundles the page of `wiremcp inspect` (packages/cli/src/inspect/page/app.ts and app.css) for the browser into
// packages/cli/dist/inspect/page/, where the inspector server reads it. One ES module, minified, no source map,
// nothing loaded from the network at run time. Run from packages/cli after tsc.
import { build } from 'esbuild';
import { copyFile, mkdir } from 'node:fs/promises';
import { resolve } from 'node:path';

const source = resolve('src/inspect/page');
const outdir = resolve('dist/inspect/page');
await mkdir(outdir, { recursive: true });
await build({
  entryPoints: [resolve(source, 'app.ts')],
  outfile: resolve(outdir, 'app.js'),
  bundle: true,
  format: 'esm',
  platform: 'browser',
  target: 'chrome120',
  minify: true,
  legalComments: 'none',
  logLevel: 'warning',
});
await copyFile(resolve(source, 'app.css'), resolve(outdir, 'app.css'));
