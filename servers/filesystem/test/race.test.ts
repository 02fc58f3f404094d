/**
 * Real races: a separate process swaps things under the server while it reads and writes, for a bounded number of
 * swaps and time; the tests wait for the swapper to exit and then check that nothing outside was ever read or
 * written. With fd-anchored resolution there is no window between check and use; these tests keep it that way.
 */
import { spawn } from 'node:child_process';
import { mkdirSync, readdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, expect, test } from 'vitest';
import { DenyList } from '../src/sandbox/deny-list.js';
import { pinRoots, unpinRoots } from '../src/sandbox/pinned-roots.js';
import { Sandbox } from '../src/sandbox/sandbox.js';
import { closeAll, connect, everything, makeTree, SECRET, type ToolResult, type Tree } from './fixture.test-util.js';

const SWAPS = 20_000;
const SWAP_MS = 2_000;
const MAX_CALLS = 4_000;

/** Swaps `dir/name` between a real directory (moved aside to `name.real`) and a link to `target`, in a child process. */
const PARENT_SWAPPER = `
const fs = require('fs');
const [dir, name, target, max, ms] = process.argv.slice(1);
const real = dir + '/' + name, aside = real + '.real';
const end = Date.now() + Number(ms);
let n = 0;
process.stdout.write('ready\\n');
while (n < Number(max) && Date.now() < end) {
  fs.renameSync(real, aside); fs.symlinkSync(target, real);
  fs.unlinkSync(real); fs.renameSync(aside, real);
  n++;
}
process.stdout.write(String(n) + '\\n');
`;

/** Swaps `file` between a regular file and a link to `target`, in a child process. */
const FILE_SWAPPER = `
const fs = require('fs');
const [file, target, max, ms] = process.argv.slice(1);
const end = Date.now() + Number(ms);
let n = 0;
process.stdout.write('ready\\n');
while (n < Number(max) && Date.now() < end) {
  fs.renameSync(file, file + '.aside'); fs.symlinkSync(target, file);
  fs.unlinkSync(file); fs.renameSync(file + '.aside', file);
  n++;
}
process.stdout.write(String(n) + '\\n');
`;

/**
 * FILE_SWAPPER for a file the server also writes: the server may create the file while it is missing (a write of a
 * missing file creates it), so each step tolerates that and only completed swaps are counted.
 */
const WRITTEN_FILE_SWAPPER = `
const fs = require('fs');
const [file, target, max, ms] = process.argv.slice(1);
const end = Date.now() + Number(ms);
const attempt = (step) => { try { step(); return true; } catch { return false; } };
let n = 0;
process.stdout.write('ready\\n');
while (n < Number(max) && Date.now() < end) {
  if (!attempt(() => fs.renameSync(file, file + '.aside'))) continue;
  if (attempt(() => fs.symlinkSync(target, file))) n++;
  attempt(() => fs.unlinkSync(file));
  fs.renameSync(file + '.aside', file);
}
process.stdout.write(String(n) + '\\n');
`;

/** Runs a swapper; resolves once it says it started, with a promise of its swap count. */
function startSwapper(script: string, args: string[]): Promise<{ done: Promise<number> }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['-e', script, ...args], { stdio: ['ignore', 'pipe', 'inherit'] });
    let output = '';
    let started = false;
    const done = new Promise<number>((resolveDone, rejectDone) => {
      child.on('error', rejectDone);
      child.on('close', (code) =>
        code === 0 ? resolveDone(Number(output.split('\n')[1])) : rejectDone(new Error(`swapper exited ${code}`)),
      );
    });
    child.stdout.on('data', (chunk: Buffer) => {
      output += chunk.toString();
      if (!started && output.includes('ready\n')) {
        started = true;
        resolve({ done });
      }
    });
    child.on('error', reject);
  });
}

/** Calls `next()` with up to 8 calls in flight until `stop` resolves or MAX_CALLS calls were made. */
async function hammer(stop: Promise<unknown>, next: (i: number) => Promise<ToolResult>): Promise<ToolResult[]> {
  let stopped = false;
  void stop.finally(() => (stopped = true));
  const results: ToolResult[] = [];
  let issued = 0;
  const lane = async (): Promise<void> => {
    while (!stopped && issued < MAX_CALLS) results.push(await next(issued++));
  };
  await Promise.all(Array.from({ length: 8 }, lane));
  return results;
}

let tree: Tree;
beforeEach(() => {
  tree = makeTree();
});
afterEach(async () => {
  await closeAll();
  tree.cleanup();
});

test('a parent directory swapped for a link to outside while reads, writes and searches run: nothing outside is read or written', async () => {
  tree.write('work/file.txt', 'INSIDE\n');
  // The same name outside, so a read through the link would return the secret.
  writeFileSync(join(tree.outside, 'file.txt'), `${SECRET}\n`);
  const before = readdirSync(tree.outside).sort();
  const { call } = await connect(tree, 'legacy');
  const swapper = await startSwapper(PARENT_SWAPPER, [tree.root, 'work', tree.outside, String(SWAPS), String(SWAP_MS)]);
  const results = await hammer(swapper.done, (i) =>
    i % 3 === 0
      ? call('read_text_file', { path: tree.at('work/file.txt') })
      : i % 3 === 1
        ? call('write_file', { path: tree.at(`work/new-${i}.txt`), content: 'written' })
        : call('search_file_contents', { path: tree.root, pattern: 'SECRET|INSIDE' }),
  );
  const swaps = await swapper.done;
  expect(swaps).toBeGreaterThan(0);
  expect(results.length).toBeGreaterThan(0);
  for (const result of results) expect(everything(result)).not.toContain(SECRET);
  const reads = results.filter((result) => !result.isError && result.structuredContent?.offset !== undefined);
  for (const read of reads) expect(read.content[0]!.text).toBe('INSIDE\n');
  expect(readdirSync(tree.outside).sort()).toEqual(before);
  expect(readFileSync(join(tree.outside, 'file.txt'), 'utf8')).toBe(`${SECRET}\n`);
});

test('a file swapped for a link to outside while it is read, edited and copied: the secret never comes back', async () => {
  tree.write('target.txt', 'INSIDE\n');
  const { call } = await connect(tree, 'legacy');
  const swapper = await startSwapper(FILE_SWAPPER, [tree.at('target.txt'), tree.secret, String(SWAPS), String(SWAP_MS)]);
  const results = await hammer(swapper.done, (i) =>
    i % 3 === 0
      ? call('read_text_file', { path: tree.at('target.txt') })
      : i % 3 === 1
        ? call('copy_file', { source: tree.at('target.txt'), destination: tree.at(`copy-${i}.txt`) })
        : call('read_multiple_files', { paths: [tree.at('target.txt')] }),
  );
  expect(await swapper.done).toBeGreaterThan(0);
  for (const result of results) expect(everything(result)).not.toContain(SECRET);
  for (const name of readdirSync(tree.root).filter((n) => n.startsWith('copy-'))) {
    expect(readFileSync(tree.at(name), 'utf8')).toBe('INSIDE\n');
  }
  expect(readFileSync(tree.secret, 'utf8')).toBe(`${SECRET}\n`);
});

test('a file swapped for a link to outside while it is overwritten in place and edited: the outside file is never written', async () => {
  const file = tree.write('target.txt', 'INSIDE\n');
  const { call } = await connect(tree, 'legacy');
  const swapper = await startSwapper(WRITTEN_FILE_SWAPPER, [file, tree.secret, String(SWAPS), String(SWAP_MS)]);
  const results = await hammer(swapper.done, (i) =>
    i % 2 === 0
      ? call('write_file', { path: file, content: `WRITE ${i}\n` })
      : call('edit_file', { path: file, edits: [{ oldText: 'WRITE', newText: 'EDIT' }] }),
  );
  expect(await swapper.done).toBeGreaterThan(0);
  expect(results.length).toBeGreaterThan(0);
  for (const result of results) expect(everything(result)).not.toContain(SECRET);
  expect(readFileSync(tree.secret, 'utf8')).toBe(`${SECRET}\n`);
  // Whatever the last state, the file inside holds the original or one of the writes and edits, never the secret.
  expect(readFileSync(file, 'utf8')).toMatch(/^(INSIDE|WRITE \d+|EDIT \d+)\n$/);
});

test('a directory moved out of the allowed directory after it was opened is refused before the write', async () => {
  tree.write('sub/x.txt', 'x');
  const pinned = await pinRoots([tree.root]);
  const sandbox = new Sandbox(pinned, new DenyList([]));
  try {
    const entry = await sandbox.locateEntry(sandbox.operatorView, tree.at('sub/x.txt'), { follow: false });
    try {
      mkdirSync(join(tree.outside, 'moved'));
      renameSync(tree.at('sub'), join(tree.outside, 'moved', 'sub'));
      if (pinned.anchoring === 'proc-fd') {
        await expect(sandbox.resolver.checkStillInside(entry.location, 'sub/x.txt')).rejects.toMatchObject({
          code: 'outside_allowed_directories',
        });
      }
    } finally {
      await sandbox.release(entry.location);
    }
  } finally {
    await unpinRoots(pinned);
  }
});
