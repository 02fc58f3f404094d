/**
 * Limits: a 20,000-file tree is walked within the caps (results, entries, visits, response size), a pathological
 * regular expression is stopped by the call's time budget (its matching thread is terminated), cancellation ends the
 * work, and a multi-megabyte file is read in capped pages that reassemble exactly.
 */
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, test } from 'vitest';
import { liveMatchWorkers } from '../src/ops/content-search.js';
import { closeAll, connect, errorCode, everything, makeTree, textOf, type Tree } from './fixture.test-util.js';

afterEach(closeAll);

describe('a tree of 20,000 files in 200 directories', () => {
  let big: Tree;
  beforeAll(() => {
    big = makeTree();
    for (let d = 0; d < 200; d++) {
      const dir = join(big.root, `d${d}`);
      mkdirSync(dir);
      for (let f = 0; f < 100; f++)
        writeFileSync(join(dir, `f${f}.ts`), f === 7 ? `export const needle${d} = ${d};\n` : `export const v = ${f};\n`);
    }
  });
  afterAll(() => big.cleanup());

  test('search by name finds all 200 matches; a lower maxResults stops early and says so', async () => {
    const { call } = await connect(big, 'legacy');
    const all = await call('search_files', { path: big.root, pattern: 'f7.ts' });
    expect(all.structuredContent!.matches).toHaveLength(200);
    expect(all.structuredContent).toMatchObject({ truncated: false, visited: 20_200 });
    const few = await call('search_files', { path: big.root, pattern: '**/f7.ts', maxResults: 10 });
    expect(few.structuredContent).toMatchObject({ truncated: true, stoppedBy: 'maxResults' });
    expect(few.structuredContent!.matches).toHaveLength(10);
    expect(few.content[1]!.text).toContain('stopped after 10 results');
    expect(errorCode(await call('search_files', { path: big.root, pattern: '*', maxResults: 1_000_000 }))).toBe('invalid_arguments');
  });

  test('directory_tree returns its default 1,000 entries, under the response limit, and says what it cut', async () => {
    const { call } = await connect(big, 'modern');
    const result = await call('directory_tree', { path: big.root });
    expect(result.structuredContent).toMatchObject({ entries: 1000, truncated: true, stoppedBy: 'maxEntries' });
    expect(Buffer.byteLength(everything(result))).toBeLessThan(4 * 1024 * 1024);
    const capped = await connect(big, 'modern', { config: { limits: { maxResponseBytes: 64 * 1024 } } });
    const small = await capped.call('directory_tree', { path: big.root, maxEntries: 10_000 });
    expect(small.structuredContent).toMatchObject({ truncated: true, stoppedBy: 'maxResponseBytes' });
    expect(Buffer.byteLength(everything(small))).toBeLessThan(64 * 1024);
  });

  test('content search finds the needle in 200 files; a visit cap stops the walk and says so', async () => {
    const { call } = await connect(big, 'legacy');
    const found = await call('search_file_contents', { path: big.root, pattern: 'needle\\d+', maxResults: 500 });
    expect(found.structuredContent).toMatchObject({ filesSearched: 20_000, filesMatched: 200, truncated: false });
    const capped = await connect(big, 'legacy', { config: { limits: { maxVisited: 500 } } });
    const stopped = await capped.call('search_file_contents', { path: big.root, pattern: 'needle' });
    expect(stopped.structuredContent).toMatchObject({ truncated: true, stoppedBy: 'maxVisited' });
  });
});

describe('time budget and cancellation', () => {
  let tree: Tree;
  beforeEach(() => {
    tree = makeTree();
    // A line on which /(a+)+$/ backtracks exponentially.
    tree.write('evil.txt', `${'a'.repeat(40)}!\n`);
  });
  afterEach(() => tree.cleanup());

  test('a catastrophic regular expression is stopped by the time budget; the server keeps answering', async () => {
    const { call } = await connect(tree, 'legacy', { config: { limits: { timeBudgetMs: 300 } } });
    const result = await call('search_file_contents', { path: tree.root, pattern: '(a+)+$' });
    expect(result.structuredContent).toMatchObject({ truncated: true, stoppedBy: 'timeBudget', matches: [] });
    await expect.poll(() => liveMatchWorkers()).toBe(0);
    expect(textOf(await call('list_allowed_directories'))).toContain(tree.root);
  });

  test('cancelling a search ends its matching thread', async () => {
    const { client } = await connect(tree, 'legacy');
    const controller = new AbortController();
    const pending = client.callTool('search_file_contents', { path: tree.root, pattern: '(a+)+$' }, { signal: controller.signal });
    await expect.poll(() => liveMatchWorkers()).toBe(1);
    controller.abort();
    await expect(pending).rejects.toMatchObject({ code: 'REQUEST_CANCELLED' });
    await expect.poll(() => liveMatchWorkers()).toBe(0);
  });
});

describe('big files and response size', () => {
  let tree: Tree;
  beforeEach(() => {
    tree = makeTree();
  });
  afterEach(() => tree.cleanup());

  test('a 3 MB file comes in 1 MiB pages, each cut at a line, that reassemble exactly', async () => {
    const line = 'the quick brown fox jumps over the lazy dog — ünïcödé\n';
    const content = line.repeat(Math.ceil((3 * 1024 * 1024) / Buffer.byteLength(line)));
    const path = tree.write('big.txt', content);
    const { call } = await connect(tree, 'modern');
    let offset: number | undefined = 0;
    const pages: string[] = [];
    while (offset !== undefined) {
      const page = await call('read_text_file', { path, offset });
      expect(page.structuredContent!.bytes).toBeLessThanOrEqual(1024 * 1024);
      pages.push(textOf(page));
      offset = page.structuredContent!.nextOffset;
      if (offset !== undefined) expect(page.content[1]!.text).toContain(`continue with offset=${offset}`);
    }
    expect(pages.length).toBe(4);
    for (const page of pages) expect(page.endsWith('\n')).toBe(true);
    expect(pages.join('')).toBe(readFileSync(path, 'utf8'));
  });

  test('read_multiple_files stops at the response limit and names the files it left out', async () => {
    for (let i = 0; i < 5; i++) tree.write(`f${i}.txt`, 'x'.repeat(3000));
    const { call } = await connect(tree, 'legacy', { config: { limits: { maxReadBytes: 4096, maxResponseBytes: 8192 } } });
    const result = await call('read_multiple_files', { paths: [0, 1, 2, 3, 4].map((i) => tree.at(`f${i}.txt`)) });
    const files = result.structuredContent!.files as Array<{ ok: boolean; error?: { code: string } }>;
    expect(files.slice(0, 2).every((file) => file.ok)).toBe(true);
    expect(files.filter((file) => !file.ok).every((file) => file.error?.code === 'too_large')).toBe(true);
    expect(files.some((file) => !file.ok)).toBe(true);
    expect(result.structuredContent!.truncated).toBe(true);
    expect(Buffer.byteLength(textOf(result))).toBeLessThan(8192 + 1024);
  });

  test('a media file larger than the response limit is refused, not sent', async () => {
    tree.write('big.png', Buffer.alloc(10_000));
    const { call } = await connect(tree, 'legacy', { config: { limits: { maxReadBytes: 4096, maxResponseBytes: 8192 } } });
    expect(errorCode(await call('read_media_file', { path: tree.at('big.png') }))).toBe('too_large');
  });
});
