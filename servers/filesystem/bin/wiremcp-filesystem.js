#!/usr/bin/env node
// The bundled bin: dist/bundle/bin.js starts the one-file program through a V8 code cache (scripts/bin-launcher.cjs).
// CommonJS (bin/package.json), so that starting it needs no ES module loader; dist/bin.js is the same program unbundled.
require('../dist/bundle/bin.js');
