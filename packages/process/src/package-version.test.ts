import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterEach, beforeEach, describe, expect, test } from 'vitest';
import { packageVersion } from './package-version.js';

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'package-version-'));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

/** A module URL `depth` directories below a package.json with `manifest`. */
function moduleBelow(manifest: Record<string, unknown> | string, depth: number): string {
  writeFileSync(join(dir, 'package.json'), typeof manifest === 'string' ? manifest : JSON.stringify(manifest));
  const sub = join(dir, ...Array.from({ length: depth }, (_, i) => `level${i}`));
  mkdirSync(sub, { recursive: true });
  return pathToFileURL(join(sub, 'bin.js')).href;
}

describe('packageVersion', () => {
  test('reads the version of the named package from src/, dist/ and dist/bundle/', () => {
    for (const depth of [0, 1, 2]) {
      expect(packageVersion(moduleBelow({ name: '@scope/pkg', version: `3.${depth}.0` }, depth), '@scope/pkg')).toBe(`3.${depth}.0`);
    }
  });

  test("skips a nested package.json of another name (a dist/package.json with type: module) and finds the package's own", () => {
    const url = moduleBelow({ name: '@scope/pkg', version: '1.2.3' }, 2);
    writeFileSync(join(dir, 'level0', 'package.json'), JSON.stringify({ type: 'module' }));
    expect(packageVersion(url, '@scope/pkg')).toBe('1.2.3');
  });

  test('throws, naming the package, when the manifest is missing, of another package, too far up, or without a version', () => {
    expect(() => packageVersion(moduleBelow({ name: 'other', version: '1.0.0' }, 1), '@scope/pkg')).toThrow(
      /@scope\/pkg: its package\.json/,
    );
    expect(() => packageVersion(moduleBelow({ name: '@scope/pkg', version: '1.0.0' }, 4), '@scope/pkg')).toThrow(/not found/);
    expect(() => packageVersion(moduleBelow({ name: '@scope/pkg' }, 0), '@scope/pkg')).toThrow(/not found/);
  });

  test('a malformed package.json of the package is an error, not a guess', () => {
    expect(() => packageVersion(moduleBelow('{ "name": ', 0), '@scope/pkg')).toThrow(SyntaxError);
  });

  test("this package's own version, as the servers and the CLI read theirs", () => {
    const own = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8')) as { version: string };
    expect(packageVersion(import.meta.url, '@wiremcp/process')).toBe(own.version);
  });
});
