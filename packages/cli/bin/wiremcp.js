#!/usr/bin/env node
// The bundled bin (one file: a fast cold start); dist/bin.js is the same program unbundled.
import '../dist/bundle/bin.js';
