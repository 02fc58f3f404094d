// The package depends on what it imports, and imports only what it declares: nothing reaches a published
// server through an undeclared (hoisted) package, and no dependency is carried for nothing.
import { readdirSync, readFileSync } from 'node:fs';
import { builtinModules } from 'node:module';
import { join } from 'node:path';
import { expect, test } from 'vitest';

const root = join(import.meta.dirname, '..');
const manifest = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as {
  dependencies?: Record<string, string>;
  optionalDependencies?: Record<string, string>;
  peerDependencies?: Record<string, string>;
};

/** The package's shipped sources (tests and test utilities excluded). */
const sources = readdirSync(join(root, 'src'))
  .filter((name) => name.endsWith('.ts') && !/\.test(-util)?\.ts$/.test(name))
  .map((name) => join(root, 'src', name));

/** Every module specifier a source imports or re-exports, statically or dynamically. */
function specifiers(file: string): string[] {
  const text = readFileSync(file, 'utf8');
  const found = [
    ...text.matchAll(/(?:^|\n)\s*(?:import|export)\s[^'"]*?from\s+['"]([^'"]+)['"]/g),
    ...text.matchAll(/import\(\s*['"]([^'"]+)['"]\s*\)/g),
  ];
  return found.map((match) => match[1]!).filter((specifier) => !specifier.startsWith('.'));
}

/** The package a specifier belongs to (`@scope/name/sub` → `@scope/name`). */
function packageOf(specifier: string): string {
  const parts = specifier.split('/');
  return specifier.startsWith('@') ? parts.slice(0, 2).join('/') : parts[0]!;
}

test('every package imported is a declared dependency, and every dependency is imported', () => {
  const declared = new Set(Object.keys({ ...manifest.dependencies, ...manifest.optionalDependencies, ...manifest.peerDependencies }));
  const imported = new Set<string>();
  const undeclared: string[] = [];
  for (const file of sources) {
    for (const specifier of specifiers(file)) {
      if (specifier.startsWith('node:')) continue;
      const name = packageOf(specifier);
      imported.add(name);
      if (!declared.has(name)) undeclared.push(`${file}: ${specifier}`);
    }
  }
  expect(sources.length).toBeGreaterThan(3);
  expect(undeclared).toEqual([]);
  expect([...declared].filter((name) => !imported.has(name))).toEqual([]);
});

test('Node built-ins are imported with the node: prefix', () => {
  const bare = sources.flatMap((file) =>
    specifiers(file)
      .filter((specifier) => builtinModules.includes(specifier))
      .map((s) => `${file}: ${s}`),
  );
  expect(bare).toEqual([]);
});
