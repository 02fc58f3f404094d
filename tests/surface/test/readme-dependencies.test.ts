/**
 * The root README's package table says what each published package depends on; this keeps that column equal to the
 * package.json files (runtime and peer dependencies; `@wiremcp/` names written short, "nothing" for none).
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect, test } from 'vitest';

const root = join(import.meta.dirname, '..', '..', '..');

/** package directory → the names its row's "depends on" cell lists (the first word of each item). */
function readmeColumn(): Map<string, string[]> {
  const rows = new Map<string, string[]>();
  for (const line of readFileSync(join(root, 'README.md'), 'utf8').split('\n')) {
    const match = /^\| \[`@wiremcp\/[^`]+`\]\(packages\/([^)]+)\) \|.*\| ([^|]+) \|$/.exec(line);
    if (match === null) continue;
    const cell = match[2]!.trim();
    // Items are comma-separated; a parenthesis after a name explains it (and may hold no comma).
    const items = cell === 'nothing' ? [] : cell.replace(/\([^)]*\)/g, '').split(',');
    rows.set(
      match[1]!,
      items.map((item) => item.trim().split(/\s+/)[0]!.replace(/`/g, '')),
    );
  }
  return rows;
}

test('every published package has a row, and its "depends on" cell names exactly its dependencies', () => {
  const column = readmeColumn();
  const packages = readdirSync(join(root, 'packages')).sort();
  expect([...column.keys()].sort()).toEqual(packages);
  for (const dir of packages) {
    const pkg = JSON.parse(readFileSync(join(root, 'packages', dir, 'package.json'), 'utf8')) as {
      dependencies?: Record<string, string>;
      peerDependencies?: Record<string, string>;
    };
    const declared = [...Object.keys(pkg.dependencies ?? {}), ...Object.keys(pkg.peerDependencies ?? {})].map((name) =>
      name.replace(/^@wiremcp\//, ''),
    );
    expect({ dir, dependsOn: [...column.get(dir)!].sort() }).toEqual({ dir, dependsOn: declared.sort() });
  }
});
