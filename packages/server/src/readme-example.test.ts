/**
 * The README's typed-authoring example is a program that compiles: it is written into a fresh project outside the
 * workspace (the built packages and zod linked as an install would place them; strict, `module: nodenext`) and
 * type-checked with tsc. The same program with a `structuredContent` that misses a member must not compile — so
 * the check can fail, and the README's claim about typed output holds.
 */
import { execFile } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, expect, test } from 'vitest';

const ROOT = fileURLToPath(new URL('../../../', import.meta.url));
const TSC = join(ROOT, 'node_modules', 'typescript', 'bin', 'tsc');
const MARKER = '<!-- typed-authoring-example -->\n```ts\n';

let project: string;

/** The example block of the README. */
function example(): string {
  const readme = readFileSync(join(ROOT, 'packages', 'server', 'README.md'), 'utf8');
  const start = readme.indexOf(MARKER);
  expect(start, 'the README has the typed-authoring example').toBeGreaterThan(-1);
  const body = readme.slice(start + MARKER.length);
  return body.slice(0, body.indexOf('```\n'));
}

/** Type-checks `source` as the project's only file; resolves with tsc's exit code and output. */
function typeCheck(source: string): Promise<{ code: number; output: string }> {
  writeFileSync(join(project, 'shop.ts'), source);
  return new Promise((resolve) => {
    execFile(process.execPath, [TSC, '-p', project], { timeout: 120_000 }, (error, stdout, stderr) =>
      resolve({ code: error ? ((error as { code?: number }).code ?? 1) : 0, output: `${stdout}${stderr}` }),
    );
  });
}

beforeAll(() => {
  project = mkdtempSync(join(tmpdir(), 'wiremcp-readme-'));
  const link = (target: string, name: string): void => {
    mkdirSync(join(project, 'node_modules', name, '..'), { recursive: true });
    symlinkSync(target, join(project, 'node_modules', name), 'dir');
  };
  link(join(ROOT, 'packages', 'server'), '@wiremcp/server');
  link(join(ROOT, 'packages', 'transport-stdio'), '@wiremcp/transport-stdio');
  link(join(ROOT, 'packages', 'server', 'node_modules', 'zod'), 'zod');
  link(join(ROOT, 'node_modules', '@types', 'node'), '@types/node');
  writeFileSync(join(project, 'package.json'), JSON.stringify({ name: 'shop', private: true, type: 'module' }));
  writeFileSync(
    join(project, 'tsconfig.json'),
    JSON.stringify({
      compilerOptions: { strict: true, module: 'nodenext', moduleResolution: 'nodenext', target: 'es2022', noEmit: true, types: ['node'] },
      files: ['shop.ts'],
    }),
  );
});

afterAll(() => {
  if (project) rmSync(project, { recursive: true, force: true });
});

test('the typed-authoring example of the README compiles as a user project', { timeout: 120_000 }, async () => {
  const result = await typeCheck(example());
  expect(result.output).toBe('');
  expect(result.code).toBe(0);
});

test('the same example with a structuredContent that misses a member does not compile', { timeout: 120_000 }, async () => {
  const source = example();
  const typed = 'structuredContent: { sku, amount, currency }';
  expect(source).toContain(typed);
  const result = await typeCheck(source.replace(typed, 'structuredContent: { sku, currency }'));
  expect(result.code).not.toBe(0);
  expect(result.output).toContain('amount');
});
