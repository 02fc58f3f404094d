/**
 * Every tool, in both eras, against an in-process server: the official server's names, argument shapes, annotations
 * and texts where hosts rely on them, plus the structured results and the additions.
 */
import { readFileSync, existsSync, symlinkSync, statSync, chmodSync } from 'node:fs';
import { afterEach, beforeEach, describe, expect, test } from 'vitest';
import { closeAll, connect, ERAS, errorCode, makeTree, textOf, type Tree } from './fixture.test-util.js';

const OFFICIAL_TOOLS = [
  'read_file',
  'read_text_file',
  'read_media_file',
  'read_multiple_files',
  'write_file',
  'edit_file',
  'create_directory',
  'list_directory',
  'list_directory_with_sizes',
  'directory_tree',
  'move_file',
  'search_files',
  'get_file_info',
  'list_allowed_directories',
];

let tree: Tree;
beforeEach(() => {
  tree = makeTree();
});
afterEach(async () => {
  await closeAll();
  tree.cleanup();
});

describe.each(ERAS)('%s era', (era) => {
  test('tools/list: the official 14 plus copy_file and search_file_contents; read-only hints as the official server sets them', async () => {
    const { client } = await connect(tree, era);
    const tools = await client.listAllTools();
    const names = tools.map((tool) => tool.name);
    for (const name of OFFICIAL_TOOLS) expect(names).toContain(name);
    expect(names).toEqual(expect.arrayContaining(['copy_file', 'search_file_contents']));
    expect(names).not.toContain('delete_file');
    const byName = new Map(tools.map((tool) => [tool.name, tool]));
    expect(byName.get('read_text_file')!.annotations).toEqual({ readOnlyHint: true, openWorldHint: false });
    expect(byName.get('write_file')!.annotations).toEqual({
      readOnlyHint: false,
      idempotentHint: true,
      destructiveHint: true,
      openWorldHint: false,
    });
    expect(byName.get('edit_file')!.annotations).toEqual({
      readOnlyHint: false,
      idempotentHint: false,
      destructiveHint: true,
      openWorldHint: false,
    });
    expect(byName.get('create_directory')!.annotations).toEqual({
      readOnlyHint: false,
      idempotentHint: true,
      destructiveHint: false,
      openWorldHint: false,
    });
    expect(byName.get('move_file')!.annotations).toEqual({
      readOnlyHint: false,
      idempotentHint: false,
      destructiveHint: true,
      openWorldHint: false,
    });
    expect(byName.get('read_text_file')!.inputSchema).toMatchObject({
      required: ['path'],
      properties: { head: { type: 'integer' }, tail: { type: 'integer' } },
    });
    expect(byName.get('edit_file')!.inputSchema).toMatchObject({ required: ['path', 'edits'] });
    expect(byName.get('move_file')!.inputSchema).toMatchObject({ required: ['source', 'destination'] });
    for (const tool of tools) expect(tool.outputSchema).toBeDefined();
  });

  test('read_text_file / read_file: whole file, head, tail, line range, byte range with continuation', async () => {
    tree.write('lines.txt', 'one\ntwo\nthree\nfour\n');
    const { call } = await connect(tree, era);
    const whole = await call('read_text_file', { path: tree.at('lines.txt') });
    expect(textOf(whole)).toBe('one\ntwo\nthree\nfour\n');
    expect(whole.structuredContent).toMatchObject({ size: 19, offset: 0, bytes: 19, truncated: false, lineEnding: 'lf' });
    expect(JSON.stringify(whole.structuredContent)).not.toContain('three');
    expect(textOf(await call('read_file', { path: tree.at('lines.txt') }))).toBe('one\ntwo\nthree\nfour\n');
    expect(textOf(await call('read_text_file', { path: tree.at('lines.txt'), head: 2 }))).toBe('one\ntwo\n');
    expect(textOf(await call('read_text_file', { path: tree.at('lines.txt'), tail: 2 }))).toBe('three\nfour\n');
    const range = await call('read_text_file', { path: tree.at('lines.txt'), startLine: 2, endLine: 3 });
    expect(textOf(range)).toBe('two\nthree\n');
    expect(range.structuredContent).toMatchObject({ startLine: 2, endLine: 3, nextLine: 4 });
    const bytes = await call('read_text_file', { path: tree.at('lines.txt'), offset: 4, length: 4 });
    expect(textOf(bytes)).toBe('two\n');
    expect(bytes.structuredContent).toMatchObject({ offset: 4, bytes: 4, nextOffset: 8 });
    expect(bytes.content[1]?.text).toContain('continue with offset=8');
    const both = await call('read_text_file', { path: tree.at('lines.txt'), head: 1, tail: 1 });
    expect(both.isError).toBe(true);
    expect(textOf(both)).toBe('Cannot specify both head and tail parameters simultaneously');
    expect(errorCode(await call('read_text_file', { path: tree.at('missing.txt') }))).toBe('not_found');
  });

  test('read_media_file: image, audio and other files as the official server returns them', async () => {
    const png = Buffer.from('89504e470d0a1a0a0000000d49484452', 'hex');
    tree.write('img.png', png);
    tree.write('sound.mp3', Buffer.from([1, 2, 3]));
    tree.write('blob.bin', Buffer.from([0, 1, 2]));
    const { call } = await connect(tree, era);
    const image = await call('read_media_file', { path: tree.at('img.png') });
    expect(image.content).toEqual([{ type: 'image', data: png.toString('base64'), mimeType: 'image/png' }]);
    expect(image.structuredContent).toEqual({ path: tree.at('img.png'), mimeType: 'image/png', size: png.length });
    expect((await call('read_media_file', { path: tree.at('sound.mp3') })).content[0]).toMatchObject({
      type: 'audio',
      mimeType: 'audio/mpeg',
    });
    const other = await call('read_media_file', { path: tree.at('blob.bin') });
    expect(other.content[0]).toMatchObject({ type: 'resource', resource: { uri: `file://${tree.at('blob.bin')}`, blob: 'AAEC' } });
  });

  test('read_multiple_files: the official text layout, failures inline, per-file structure', async () => {
    tree.write('a.txt', 'A');
    tree.write('b.txt', 'B');
    const { call } = await connect(tree, era);
    const result = await call('read_multiple_files', { paths: [tree.at('a.txt'), tree.at('nope.txt'), tree.at('b.txt')] });
    expect(result.isError).toBeFalsy();
    expect(textOf(result)).toBe(
      `${tree.at('a.txt')}:\nA\n\n---\n${tree.at('nope.txt')}: Error - No such file or directory: ${tree.at('nope.txt')}\n---\n${tree.at('b.txt')}:\nB\n`,
    );
    expect(result.structuredContent!.files).toEqual([
      { path: tree.at('a.txt'), ok: true, size: 1, bytes: 1, truncated: false },
      { path: tree.at('nope.txt'), ok: false, error: { code: 'not_found', message: `No such file or directory: ${tree.at('nope.txt')}` } },
      { path: tree.at('b.txt'), ok: true, size: 1, bytes: 1, truncated: false },
    ]);
  });

  test('write_file: creates, overwrites in place, keeps the mode, answers like the official server', async () => {
    const { call } = await connect(tree, era);
    const created = await call('write_file', { path: tree.at('new.txt'), content: 'héllo' });
    expect(textOf(created)).toBe(`Successfully wrote to ${tree.at('new.txt')}`);
    expect(created.structuredContent).toEqual({ path: tree.at('new.txt'), bytes: 6, created: true, mode: 'atomic' });
    chmodSync(tree.at('new.txt'), 0o600);
    const replaced = await call('write_file', { path: tree.at('new.txt'), content: 'second' });
    expect(replaced.structuredContent).toMatchObject({ created: false, mode: 'in-place' });
    expect(readFileSync(tree.at('new.txt'), 'utf8')).toBe('second');
    expect(statSync(tree.at('new.txt')).mode & 0o777).toBe(0o600);
    expect(errorCode(await call('write_file', { path: tree.at('no/such/dir/x.txt'), content: 'x' }))).toBe('not_found');
  });

  test('edit_file: diff, dry run, and the file written only when not a dry run', async () => {
    tree.write('code.ts', 'const a = 1;\nconst b = 2;\n');
    const { call } = await connect(tree, era);
    const dry = await call('edit_file', {
      path: tree.at('code.ts'),
      edits: [{ oldText: 'const b = 2;', newText: 'const b = 3;' }],
      dryRun: true,
    });
    expect(textOf(dry)).toContain('-const b = 2;\n+const b = 3;');
    expect(textOf(dry).startsWith('```diff\n')).toBe(true);
    expect(dry.structuredContent).toMatchObject({
      dryRun: true,
      changed: true,
      written: false,
      applied: [{ line: 2, method: 'exact', occurrences: 1 }],
    });
    expect(readFileSync(tree.at('code.ts'), 'utf8')).toBe('const a = 1;\nconst b = 2;\n');
    const done = await call('edit_file', { path: tree.at('code.ts'), edits: [{ oldText: 'const b = 2;', newText: 'const b = 3;' }] });
    expect(done.structuredContent).toMatchObject({ written: true });
    expect(readFileSync(tree.at('code.ts'), 'utf8')).toBe('const a = 1;\nconst b = 3;\n');
  });

  test('create_directory, list_directory, list_directory_with_sizes', async () => {
    tree.write('f.txt', '12345');
    symlinkSync(tree.outside, tree.at('link-out'));
    const { call } = await connect(tree, era);
    expect(textOf(await call('create_directory', { path: tree.at('x/y/z') }))).toBe(`Successfully created directory ${tree.at('x/y/z')}`);
    expect(existsSync(tree.at('x/y/z'))).toBe(true);
    expect((await call('create_directory', { path: tree.at('x/y/z') })).structuredContent).toMatchObject({ created: false });
    const listing = await call('list_directory', { path: tree.root });
    expect(textOf(listing)).toBe('[FILE] f.txt\n[LINK] link-out\n[DIR] x');
    expect(listing.structuredContent).toMatchObject({
      total: 3,
      truncated: false,
      entries: [
        { name: 'f.txt', type: 'file' },
        { name: 'link-out', type: 'symlink' },
        { name: 'x', type: 'directory' },
      ],
    });
    const sized = await call('list_directory_with_sizes', { path: tree.root, sortBy: 'size' });
    expect(textOf(sized)).toContain('[FILE] f.txt');
    expect(textOf(sized)).toContain('5 B');
    expect(textOf(sized)).toContain('Total: 1 files, 1 directories');
    expect(sized.structuredContent!.totals).toEqual({ files: 1, directories: 1, bytes: 5 });
    expect(sized.structuredContent!.entries[0]).toMatchObject({
      name: 'f.txt',
      size: 5,
      modified: expect.stringMatching(/^\d{4}-\d\d-\d\dT/),
    });
  });

  test('list_directory pages with offset and limit', async () => {
    for (let i = 0; i < 5; i++) tree.write(`f${i}.txt`, '');
    const { call } = await connect(tree, era);
    const first = await call('list_directory', { path: tree.root, limit: 2 });
    expect(textOf(first)).toBe('[FILE] f0.txt\n[FILE] f1.txt');
    expect(first.structuredContent).toMatchObject({ total: 5, truncated: true, nextOffset: 2 });
    const next = await call('list_directory', { path: tree.root, offset: 2, limit: 2 });
    expect(textOf(next)).toBe('[FILE] f2.txt\n[FILE] f3.txt');
  });

  test('directory_tree: outline text, structured tree, excludePatterns, maxDepth, maxEntries', async () => {
    tree.write('src/a.ts', '');
    tree.write('src/lib/b.ts', '');
    tree.write('node_modules/pkg/index.js', '');
    const { call } = await connect(tree, era);
    const full = await call('directory_tree', { path: tree.root, excludePatterns: ['node_modules'] });
    expect(textOf(full)).toBe('src/\n  a.ts\n  lib/\n    b.ts');
    expect(full.structuredContent!.tree).toEqual([
      {
        name: 'src',
        type: 'directory',
        children: [
          { name: 'a.ts', type: 'file' },
          { name: 'lib', type: 'directory', children: [{ name: 'b.ts', type: 'file' }] },
        ],
      },
    ]);
    const shallow = await call('directory_tree', { path: tree.root, maxDepth: 1 });
    expect(shallow.structuredContent).toMatchObject({ depthLimited: true, entries: 2 });
    const few = await call('directory_tree', { path: tree.root, maxEntries: 2 });
    expect(few.structuredContent).toMatchObject({ truncated: true, stoppedBy: 'maxEntries', entries: 2 });
    expect(few.content[1]?.text).toContain('truncated after 2 entries');
  });

  test('move_file refuses an existing destination; copy_file copies and refuses to overwrite unless asked', async () => {
    tree.write('a.txt', 'A');
    tree.write('b.txt', 'B');
    const { call } = await connect(tree, era);
    const refused = await call('move_file', { source: tree.at('a.txt'), destination: tree.at('b.txt') });
    expect(textOf(refused)).toBe(`Destination already exists: ${tree.at('b.txt')}`);
    expect(textOf(await call('move_file', { source: tree.at('a.txt'), destination: tree.at('c.txt') }))).toBe(
      `Successfully moved ${tree.at('a.txt')} to ${tree.at('c.txt')}`,
    );
    expect(readFileSync(tree.at('c.txt'), 'utf8')).toBe('A');
    expect(errorCode(await call('copy_file', { source: tree.at('c.txt'), destination: tree.at('b.txt') }))).toBe('already_exists');
    expect((await call('copy_file', { source: tree.at('c.txt'), destination: tree.at('d.txt') })).structuredContent).toMatchObject({
      bytes: 1,
      created: true,
    });
    await call('copy_file', { source: tree.at('c.txt'), destination: tree.at('b.txt'), overwrite: true });
    expect(readFileSync(tree.at('b.txt'), 'utf8')).toBe('A');
  });

  test('search_files: names at any depth without "/", paths with it; search_file_contents: grep with context', async () => {
    tree.write('src/a.ts', 'export const needle = 1;\n');
    tree.write('src/deep/b.ts', 'line\nno match\nneedle again\nafter\n');
    tree.write('README.md', 'Needle in docs\n');
    const { call } = await connect(tree, era);
    const byName = await call('search_files', { path: tree.root, pattern: '*.ts' });
    expect(textOf(byName).split('\n')).toEqual([tree.at('src/a.ts'), tree.at('src/deep/b.ts')]);
    expect(textOf(await call('search_files', { path: tree.root, pattern: 'src/*.ts' }))).toBe(tree.at('src/a.ts'));
    expect(textOf(await call('search_files', { path: tree.root, pattern: '*.py' }))).toBe('No matches found');
    const grep = await call('search_file_contents', { path: tree.root, pattern: 'needle', contextLines: 1 });
    expect(grep.structuredContent!.matches).toEqual([
      { path: tree.at('src/a.ts'), line: 1, text: 'export const needle = 1;', before: [], after: [] },
      { path: tree.at('src/deep/b.ts'), line: 3, text: 'needle again', before: ['no match'], after: ['after'] },
    ]);
    expect(textOf(grep)).toContain(`${tree.at('src/deep/b.ts')}:3:needle again`);
    expect(textOf(grep)).toContain(`${tree.at('src/deep/b.ts')}-2-no match`);
    const insensitive = await call('search_file_contents', { path: tree.root, pattern: 'NEEDLE', caseSensitive: false, include: ['*.md'] });
    expect(insensitive.structuredContent!.matches).toEqual([{ path: tree.at('README.md'), line: 1, text: 'Needle in docs' }]);
    const literal = await call('search_file_contents', { path: tree.root, pattern: 'needle = 1;', literal: true });
    expect(literal.structuredContent!.filesMatched).toBe(1);
    expect(errorCode(await call('search_file_contents', { path: tree.root, pattern: '(' }))).toBe('invalid_arguments');
  });

  test('get_file_info: ISO times, permissions like the official server, directories too', async () => {
    tree.write('f.txt', 'abc');
    const { call } = await connect(tree, era);
    const info = await call('get_file_info', { path: tree.at('f.txt') });
    expect(info.structuredContent).toMatchObject({
      type: 'file',
      size: 3,
      isFile: true,
      isDirectory: false,
      permissions: expect.stringMatching(/^[0-7]{3}$/),
    });
    expect(info.structuredContent!.modified).toBe(statSync(tree.at('f.txt')).mtime.toISOString());
    expect(textOf(info)).toContain('size: 3');
    expect((await call('get_file_info', { path: tree.root })).structuredContent).toMatchObject({ type: 'directory', isDirectory: true });
  });

  test('list_allowed_directories', async () => {
    const { call } = await connect(tree, era);
    const result = await call('list_allowed_directories');
    expect(textOf(result)).toBe(`Allowed directories:\n${tree.root}`);
    expect(result.structuredContent).toEqual({ directories: [tree.root], narrowedByClientRoots: false });
  });

  test('relative paths start at the first allowed directory, never the working directory', async () => {
    tree.write('rel.txt', 'relative');
    const { call } = await connect(tree, era);
    expect(textOf(await call('read_text_file', { path: 'rel.txt' }))).toBe('relative');
    expect(textOf(await call('read_text_file', { path: './rel.txt' }))).toBe('relative');
  });

  test('--read-only offers no writing tool; --allow-delete adds delete_file and delete_directory', async () => {
    const readOnly = await connect(tree, era, { config: { readOnly: true } });
    const names = (await readOnly.client.listAllTools()).map((tool) => tool.name);
    expect(names).not.toEqual(expect.arrayContaining(['write_file']));
    for (const name of ['write_file', 'edit_file', 'create_directory', 'move_file', 'copy_file']) expect(names).not.toContain(name);
    tree.write('gone.txt', 'x');
    tree.write('dir/inner/f.txt', 'x');
    const deleting = await connect(tree, era, { config: { allowDelete: true } });
    expect(textOf(await deleting.call('delete_file', { path: tree.at('gone.txt') }))).toBe(`Successfully deleted ${tree.at('gone.txt')}`);
    expect(existsSync(tree.at('gone.txt'))).toBe(false);
    expect(errorCode(await deleting.call('delete_directory', { path: tree.at('dir') }))).toBe('not_empty');
    const removed = await deleting.call('delete_directory', { path: tree.at('dir'), recursive: true });
    expect(removed.structuredContent).toMatchObject({ removed: { files: 1, directories: 2 } });
    expect(existsSync(tree.at('dir'))).toBe(false);
    expect(errorCode(await deleting.call('delete_directory', { path: tree.root, recursive: true }))).toBe('invalid_arguments');
    expect(existsSync(tree.root)).toBe(true);
  });
});
