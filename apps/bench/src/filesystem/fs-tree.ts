// The filesystem benchmark's tree, generated the same way every time: 20,000 small source files in 200 directories
// (as in the reference notes' measurements of the official server), one needle line in 200 of them, and one 18 MB
// text file. Created in a temporary directory and removed by the caller.
import { mkdirSync, mkdtempSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/** The generated tree. */
export interface BenchTree {
  root: string;
  bigFile: string;
  bigFileBytes: number;
  files: number;
  directories: number;
  remove(): void;
}

const DIRECTORIES = 200;
const FILES_PER_DIRECTORY = 100;
const BIG_FILE_BYTES = 18 * 1024 * 1024;

/** Writes the tree. */
export function makeBenchTree(): BenchTree {
  const base = realpathSync(mkdtempSync(join(tmpdir(), 'wiremcp-fs-bench-')));
  const root = join(base, 'tree');
  for (let d = 0; d < DIRECTORIES; d++) {
    const dir = join(root, `pkg${d}`, 'src');
    mkdirSync(dir, { recursive: true });
    for (let f = 0; f < FILES_PER_DIRECTORY; f++) {
      const lines = [
        `// file ${f} of package ${d}`,
        `export const value${f} = ${d * 1000 + f};`,
        'export function run(input: string): string {',
        '  return input.trim();',
        '}',
      ];
      if (f === 7) lines.push(`// needle: the benchmark looks for this line (${d})`);
      writeFileSync(join(dir, `f${f}.ts`), `${lines.join('\n')}\n`);
    }
  }
  const line = 'The quick brown fox jumps over the lazy dog; 0123456789 abcdefghijklmnopqrstuvwxyz.\n';
  const bigFile = join(root, 'big.log');
  writeFileSync(bigFile, line.repeat(Math.ceil(BIG_FILE_BYTES / line.length)));
  return {
    root,
    bigFile,
    bigFileBytes: Math.ceil(BIG_FILE_BYTES / line.length) * line.length,
    files: DIRECTORIES * FILES_PER_DIRECTORY + 1,
    directories: DIRECTORIES * 2,
    remove: () => rmSync(base, { recursive: true, force: true }),
  };
}
