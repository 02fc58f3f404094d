/**
 * docs/architecture.md names files and directories of this repository in backticks and links; each must exist, so
 * that the map of the house stays true when code moves.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect, test } from 'vitest';

const root = join(import.meta.dirname, '..', '..', '..');
const TOP = /^(packages|servers|apps|tests|scripts|docs)\//;

/** True when `path` exists; a path with a star segment (any server's bin.ts) must exist for at least one entry. */
function exists(path: string): boolean {
  const star = path.indexOf('*');
  if (star === -1) return existsSync(join(root, path));
  const parent = path.slice(0, star);
  if (!existsSync(join(root, parent))) return false;
  return readdirSync(join(root, parent)).some((entry) => exists(parent + entry + path.slice(star + 1)));
}

test('every repository path docs/architecture.md names exists', () => {
  const text = readFileSync(join(root, 'docs', 'architecture.md'), 'utf8');
  const named = new Set<string>();
  for (const match of text.matchAll(/`([^`\s]+)`|\]\(([^)\s]+)\)/g)) {
    const path = (match[1] ?? match[2])!.replace(/^\.\.\//, '');
    if (TOP.test(path)) named.add(path.replace(/[#?].*$/, ''));
  }
  expect(named.size).toBeGreaterThan(50);
  expect([...named].filter((path) => !exists(path))).toEqual([]);
});
