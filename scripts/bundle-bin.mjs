#!/usr/bin/env node
// Bundles a bin for a fast cold start: Node's ESM loader resolving and reading dozens of modules costs more than
// the code itself, so each bin's compiled entry (dist/bin.js) and everything it imports — wiremcp packages and
// third-party ones — becomes one file, dist/bundle/bin.js, that the committed bin/<name>.js imports. Dynamic
// imports stay lazy (code splitting: each becomes a chunk next to bin.js, loaded on first use — ajv, the HTTP
// transport). Run from the package directory after tsc: `node ../../scripts/bundle-bin.mjs [entry] [outdir]` (by
// default dist/bin.js into dist/bundle; the entry becomes <outdir>/bin.js).
//
// The package's own modules keep their `import.meta.url`: it is rewritten to the URL of the compiled file the
// code came from, so files found relative to a module (data/, templates/, a worker script) are found as before.
import { build } from 'esbuild';
import { readFile, rm } from 'node:fs/promises';
import { dirname, join, relative, resolve, sep } from 'node:path';

const entry = resolve(process.argv[2] ?? 'dist/bin.js');
const dist = resolve('dist');
const outdir = resolve(process.argv[3] ?? join(dist, 'bundle'));
await rm(outdir, { recursive: true, force: true });

/** Rewrites `import.meta.url` in this package's dist files (every output file lies in `outdir`). */
const keepModuleUrls = {
  name: 'keep-module-urls',
  setup(context) {
    context.onLoad({ filter: /\.js$/ }, async ({ path }) => {
      if (!path.startsWith(dist + sep)) return undefined;
      const text = await readFile(path, 'utf8');
      if (!text.includes('import.meta.url')) return undefined;
      const fromOutput = relative(outdir, path).split(sep).join('/');
      return {
        contents: text.replaceAll('import.meta.url', `new URL(${JSON.stringify(fromOutput)}, import.meta.url).href`),
        loader: 'js',
        resolveDir: dirname(path),
      };
    });
  },
};

await build({
  entryPoints: { bin: entry },
  outdir,
  bundle: true,
  splitting: true,
  format: 'esm',
  platform: 'node',
  target: 'node20',
  // The wiremcp packages' `wiremcp-source` condition points at TypeScript sources; bundles use the built code.
  conditions: ['import', 'default'],
  mainFields: ['module', 'main'],
  // CommonJS dependencies (ajv, yaml) call require() for Node built-ins: give the ESM bundle a real one.
  banner: {
    js: "import { createRequire as __wiremcpCreateRequire } from 'node:module'; const require = __wiremcpCreateRequire(import.meta.url);",
  },
  chunkNames: '[name]-[hash]',
  legalComments: 'linked',
  sourcemap: false,
  logLevel: 'warning',
  plugins: [keepModuleUrls],
});
