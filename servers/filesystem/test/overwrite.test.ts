/**
 * How existing files are replaced. By default (`--write-mode in-place`, as the official server 2.0 does) an
 * existing file is overwritten through a descriptor opened without following links, so it keeps its inode, its
 * other hard links (when the operator allows them), its owner and its permissions; `--write-mode atomic` writes a
 * temporary file and renames it over the name. In both modes a read-only file is refused and left as it was, and
 * edits keep the file's line endings and indentation. (A file swapped for a link while it is overwritten: race.test.ts.)
 */
import { chmodSync, linkSync, readFileSync, statSync, symlinkSync } from 'node:fs';
import { afterEach, beforeEach, describe, expect, test } from 'vitest';
import { closeAll, connect, ERAS, errorCode, makeTree, SECRET, textOf, type Tree } from './fixture.test-util.js';

let tree: Tree;
beforeEach(() => {
  tree = makeTree();
});
afterEach(async () => {
  await closeAll();
  tree.cleanup();
});

describe.each(ERAS)('in place by default (%s)', (era) => {
  test('write_file keeps the inode, the mode and the hard links of an existing file', async () => {
    const file = tree.write('notes.txt', 'old content that is longer than the new one\n');
    chmodSync(file, 0o640);
    linkSync(file, tree.at('second-name.txt'));
    const before = statSync(file);
    const { call } = await connect(tree, era, { config: { allowHardLinks: true } });
    const result = await call('write_file', { path: file, content: 'new\n' });
    expect(result.isError).toBeFalsy();
    expect(result.structuredContent).toMatchObject({ created: false, bytes: 4, mode: 'in-place' });
    const after = statSync(file);
    expect(after.ino).toBe(before.ino);
    expect(after.mode & 0o7777).toBe(0o640);
    expect(after.nlink).toBe(2);
    expect(readFileSync(file, 'utf8')).toBe('new\n');
    // The other name is the same file: it sees the new content (the official server's behaviour).
    expect(readFileSync(tree.at('second-name.txt'), 'utf8')).toBe('new\n');
  });

  test('edit_file keeps the inode and the CRLF line endings', async () => {
    const file = tree.write('win.txt', 'one\r\ntwo\r\nthree\r\n');
    const before = statSync(file);
    const { call } = await connect(tree, era);
    const result = await call('edit_file', { path: file, edits: [{ oldText: 'two', newText: 'TWO\nand a half' }] });
    expect(result.isError).toBeFalsy();
    expect(readFileSync(file, 'utf8')).toBe('one\r\nTWO\r\nand a half\r\nthree\r\n');
    expect(statSync(file).ino).toBe(before.ino);
  });

  test('a new file is created (no temporary file left behind)', async () => {
    const { call } = await connect(tree, era);
    const result = await call('write_file', { path: tree.at('fresh.txt'), content: 'hello' });
    expect(result.structuredContent).toMatchObject({ created: true, bytes: 5 });
    expect(readFileSync(tree.at('fresh.txt'), 'utf8')).toBe('hello');
  });

  test('a file with a second hard link is still refused without --allow-hardlinks, and neither name changes', async () => {
    const file = tree.write('shared.txt', 'shared\n');
    linkSync(tree.secret, tree.at('secret-link.txt'));
    linkSync(file, tree.at('shared-2.txt'));
    const { call } = await connect(tree, era);
    expect(errorCode(await call('write_file', { path: tree.at('secret-link.txt'), content: 'pwned' }))).toBe('hard_link_refused');
    expect(errorCode(await call('edit_file', { path: file, edits: [{ oldText: 'shared', newText: 'x' }] }))).toBe('hard_link_refused');
    expect(readFileSync(tree.secret, 'utf8')).toBe(`${SECRET}\n`);
    expect(readFileSync(file, 'utf8')).toBe('shared\n');
  });
});

describe.each(['in-place', 'atomic'] as const)('--write-mode %s', (writeMode) => {
  test('a read-only file is refused by write_file and edit_file and left as it was', async () => {
    const file = tree.write('locked.txt', 'locked\n');
    chmodSync(file, 0o444);
    const before = statSync(file);
    const { call } = await connect(tree, 'legacy', { config: { writeMode } });
    const written = await call('write_file', { path: file, content: 'changed' });
    expect(errorCode(written)).toBe('read_only_file');
    expect(textOf(written)).toContain('read-only');
    expect(errorCode(await call('edit_file', { path: file, edits: [{ oldText: 'locked', newText: 'open' }] }))).toBe('read_only_file');
    expect(readFileSync(file, 'utf8')).toBe('locked\n');
    expect(statSync(file).ino).toBe(before.ino);
    expect(statSync(file).mode & 0o7777).toBe(0o444);
  });

  test('edit_file keeps tab indentation in a whitespace-insensitive match', async () => {
    const file = tree.write('tabs.go', 'func main() {\n\tif ok {\n\t\trun()\n\t}\n}\n');
    const { call } = await connect(tree, 'legacy', { config: { writeMode } });
    // The model sends the block indented with spaces and adds a nested line.
    const result = await call('edit_file', {
      path: file,
      edits: [{ oldText: '    if ok {\n        run()\n    }', newText: '    if ok {\n        run()\n        stop()\n    }' }],
    });
    expect(result.isError).toBeFalsy();
    expect(readFileSync(file, 'utf8')).toBe('func main() {\n\tif ok {\n\t\trun()\n\t\tstop()\n\t}\n}\n');
  });
});

test('--write-mode atomic replaces the file by rename (a new inode), keeping the mode', async () => {
  const file = tree.write('atomic.txt', 'before\n');
  chmodSync(file, 0o600);
  const before = statSync(file);
  const { call } = await connect(tree, 'modern', { config: { writeMode: 'atomic' } });
  const result = await call('write_file', { path: file, content: 'after\n' });
  expect(result.structuredContent).toMatchObject({ created: false, mode: 'atomic' });
  expect(statSync(file).ino).not.toBe(before.ino);
  expect(statSync(file).mode & 0o7777).toBe(0o600);
  expect(readFileSync(file, 'utf8')).toBe('after\n');
});

test('a file that is a link to a file inside is written through the link; a link to outside is refused', async () => {
  tree.write('real.txt', 'real\n');
  symlinkSync('real.txt', tree.at('alias.txt'));
  symlinkSync(tree.secret, tree.at('escape.txt'));
  const { call } = await connect(tree, 'legacy');
  expect((await call('write_file', { path: tree.at('alias.txt'), content: 'via alias\n' })).isError).toBeFalsy();
  expect(readFileSync(tree.at('real.txt'), 'utf8')).toBe('via alias\n');
  expect(errorCode(await call('write_file', { path: tree.at('escape.txt'), content: 'pwned' }))).toBe('outside_allowed_directories');
  expect(readFileSync(tree.secret, 'utf8')).toBe(`${SECRET}\n`);
});
