#!/usr/bin/env node
// Bundles a bin for a fast cold start: Node's ESM loader resolving and reading dozens of modules costs more than
// the code itself, so each bin's compiled entry (dist/bin.js) and everything it imports — wiremcp packages and
// third-party ones — becomes one program. Run from the package directory after tsc:
//
//   node ../../scripts/bundle-bin.mjs [--code-cache] [entry] [outdir]     (default: dist/bin.js into dist/bundle)
//
// The committed bin/<name>.js imports <outdir>/bin.js. Two shapes:
// - default: an ES module, <outdir>/bin.js, whose dynamic imports stay lazy (code splitting: each becomes a chunk
//   next to bin.js, loaded on first use). The wiremcp command ships this way (its `--version` reads 0.5 KB).
// - --code-cache (the servers): one CommonJS file, <outdir>/program.js, started by scripts/bin-launcher.cjs (copied
//   to <outdir>/bin.js) through a V8 code cache, so that later starts skip compiling it; dynamic imports become
//   lazily initialised parts of the same file, except those of SEPARATE below, which get a file of their own next to
//   it (<outdir>/otel-sdk.js), required when the import runs. The entry must not use top-level await.
//
// The package's own modules keep their `import.meta.url`: it is rewritten to the URL of the compiled file the
// code came from, so files found relative to a module (data/, templates/, a worker script) are found as before.
import { build, transform } from 'esbuild';
import { copyFile, readFile, rm, writeFile } from 'node:fs/promises';
import { builtinModules } from 'node:module';
import { basename, dirname, join, relative, resolve, sep } from 'node:path';
import { fileURLToPath } from 'node:url';

const args = process.argv.slice(2);
const codeCache = args.includes('--code-cache');
const [entryArg, outdirArg] = args.filter((arg) => arg !== '--code-cache');
const entry = resolve(entryArg ?? 'dist/bin.js');
const dist = resolve('dist');
const outdir = resolve(outdirArg ?? join(dist, 'bundle'));
await rm(outdir, { recursive: true, force: true });

/**
 * The bundle's own URL: import.meta.url, or in the CommonJS program the URL of program.js, made on first use (most
 * starts never ask, and node:url is not loaded for nothing).
 */
const MODULE_URL = codeCache ? '__wiremcpProgram.url' : 'import.meta.url';

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
        contents: text.replaceAll('import.meta.url', `new URL(${JSON.stringify(fromOutput)}, ${MODULE_URL}).href`),
        loader: 'js',
        resolveDir: dirname(path),
      };
    });
  },
};

/**
 * In the CommonJS program, a third-party `import('http')` of a Node built-in becomes a `require` of it (resolved at
 * the same moment, the same module): the launcher's vm.Script cannot run `import()` (the OTLP exporter loads its
 * http/https that way).
 */
const BUILTINS = new Set(builtinModules);
const builtinImportsAsRequire = {
  name: 'builtin-imports-as-require',
  setup(context) {
    context.onLoad({ filter: /[\\/]node_modules[\\/].*\.m?js$/ }, async ({ path }) => {
      const text = await readFile(path, 'utf8');
      if (!/\bimport\(\s*['"]/.test(text)) return undefined;
      const contents = text.replace(/\bimport\(\s*(['"])(?:node:)?([\w/]+)\1\s*\)/g, (call, quote, name) =>
        BUILTINS.has(name) ? `Promise.resolve().then(() => require('node:${name}'))` : call,
      );
      return contents === text ? undefined : { contents, loader: 'js', resolveDir: dirname(path) };
    });
  },
};

const common = {
  bundle: true,
  platform: 'node',
  target: 'node20',
  // The wiremcp packages' `wiremcp-source` condition points at TypeScript sources; bundles use the built code.
  conditions: ['import', 'default'],
  mainFields: ['module', 'main'],
  legalComments: 'linked',
  sourcemap: false,
  logLevel: 'warning',
  plugins: [keepModuleUrls],
  // esbuild itself (wiremcp dev builds with it) runs a native binary of its platform package: imported at run time.
  external: ['esbuild'],
};

/**
 * Modules kept out of the CommonJS program: a dynamic import of one becomes a require() of a file of its own next to
 * program.js (bundled the same way, with what it imports), read only when that import runs. For large code few starts
 * use: the OpenTelemetry SDK behind `--otel` (`@wiremcp/process`'s otel-sdk.js) was a fifth of each server's program.
 */
const SEPARATE = /[\\/](?:packages|@wiremcp)[\\/]process[\\/]dist[\\/]otel-sdk\.js$/;
/** Real path → the file name it gets in outdir. */
const separate = new Map();
const keepSeparate = {
  name: 'keep-separate',
  setup(context) {
    context.onResolve({ filter: /(^|[\\/])otel-sdk\.js$/ }, async (args) => {
      if (args.kind !== 'dynamic-import' || args.pluginData === 'resolving') return undefined;
      const found = await context.resolve(args.path, {
        kind: args.kind,
        importer: args.importer,
        resolveDir: args.resolveDir,
        pluginData: 'resolving',
      });
      if (found.errors.length > 0 || !SEPARATE.test(found.path)) return undefined;
      const file = `./${basename(found.path)}`;
      separate.set(found.path, file);
      return { path: file, external: true };
    });
  },
};

/** Bundles `source` into the CommonJS file `outfile` (see the module comment), checked and made ASCII. */
async function buildProgram(source, outfile, plugins) {
  const { metafile } = await build({
    ...common,
    entryPoints: [source],
    outfile,
    metafile: true,
    format: 'cjs',
    plugins: [keepModuleUrls, builtinImportsAsRequire, ...plugins],
    // An import() left in the program (of a separate part) becomes a require() of it: the launcher's vm.Script
    // cannot run import().
    supported: { 'dynamic-import': false },
    // Non-ASCII in code is escaped (in comments too, below), so the launcher can read the file as latin1.
    charset: 'ascii',
    // Third-party ES modules that read import.meta.url get the program's URL, as in the ESM bundle.
    define: { 'import.meta.url': MODULE_URL },
    // 'use strict' first: the sources are ES modules, which are strict, and a directive counts only at the top (esbuild's
    // own comes after the banner).
    banner: { js: "'use strict';\nvar __wiremcpProgram = { get url() { return require('node:url').pathToFileURL(__filename).href; } };" },
  });
  // esbuild keeps import() of what it does not bundle (a Node built-in); the launcher's vm.Script cannot run it.
  const dynamic = Object.values(metafile.outputs).flatMap((output) =>
    output.imports.filter((i) => i.kind === 'dynamic-import' && ![...separate.values()].includes(i.path)),
  );
  if (dynamic.length > 0)
    throw new Error(`${outfile}: import() of ${dynamic.map((i) => i.path).join(', ')} would fail at run time; import it statically`);
  // esbuild escapes non-ASCII in code, not in the comments it keeps: escape those too, so that the program is
  // ASCII and V8 holds it as a one-byte string (half the memory, a faster scanner). That only comments changed is
  // checked: the program with comments dropped (minifyWhitespace) is the same before and after.
  const text = await readFile(outfile, 'utf8');
  const ascii = text.replace(/[^\x00-\x7f]/gu, (char) => `\\u{${char.codePointAt(0).toString(16)}}`);
  if (ascii !== text) {
    const stripped = async (code) => (await transform(code, { minifyWhitespace: true, charset: 'ascii', format: 'cjs' })).code;
    if ((await stripped(text)) !== (await stripped(ascii))) throw new Error(`${outfile}: non-ASCII characters outside comments`);
    await writeFile(outfile, ascii);
  }
}

if (codeCache) {
  await buildProgram(entry, join(outdir, 'program.js'), [keepSeparate]);
  // Each separate part is a program of its own (what it shares with the main one is bundled into it again).
  for (const [source, file] of separate) await buildProgram(source, join(outdir, file), []);
  // program.js and bin.js are CommonJS whatever the package's "type" says.
  await writeFile(join(outdir, 'package.json'), '{ "type": "commonjs" }\n');
  await copyFile(fileURLToPath(new URL('./bin-launcher.cjs', import.meta.url)), join(outdir, 'bin.js'));
} else {
  await build({
    ...common,
    entryPoints: { bin: entry },
    outdir,
    splitting: true,
    format: 'esm',
    // CommonJS dependencies (ajv, yaml) call require() for Node built-ins: give the ESM bundle a real one.
    banner: {
      js: "import { createRequire as __wiremcpCreateRequire } from 'node:module'; const require = __wiremcpCreateRequire(import.meta.url);",
    },
    chunkNames: '[name]-[hash]',
  });
}
