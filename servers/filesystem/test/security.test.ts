/**
 * One test per escape class of the official server's history and of the third-party filesystem servers that repeat
 * it (docs: reference-servers §1.5): prefix siblings, `..`, symbolic links and chains, dangling links on write, hard
 * links, metadata leaks in listings, error texts, roots widening, Unicode and case equivalence, NUL, `~`, URL
 * encoding, Windows drive paths, deny patterns. Every test checks that nothing outside is read, written or revealed.
 */
import { existsSync, linkSync, mkdirSync, readdirSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, test } from 'vitest';
import { closeAll, connect, ERAS, errorCode, everything, makeTree, SECRET, textOf, type Tree } from './fixture.test-util.js';

let tree: Tree;
beforeEach(() => {
  tree = makeTree();
});
afterEach(async () => {
  await closeAll();
  tree.cleanup();
});

describe.each(ERAS)('%s era', (era) => {
  test('prefix sibling: /root does not admit /root-evil (CVE-2025-53110)', async () => {
    const evil = join(tree.base, 'root-evil');
    mkdirSync(evil);
    writeFileSync(join(evil, 'x.txt'), SECRET);
    const { call } = await connect(tree, era);
    for (const path of [join(evil, 'x.txt'), `${tree.root}-evil/x.txt`, `${tree.root}/../root-evil/x.txt`]) {
      const result = await call('read_text_file', { path });
      expect(errorCode(result)).toBe('outside_allowed_directories');
      expect(everything(result)).not.toContain(SECRET);
    }
    expect(errorCode(await call('write_file', { path: join(evil, 'y.txt'), content: 'x' }))).toBe('outside_allowed_directories');
    expect(existsSync(join(evil, 'y.txt'))).toBe(false);
  });

  test('.. traversal, absolute and relative, is refused before any I/O', async () => {
    const { call } = await connect(tree, era);
    for (const path of [`${tree.root}/../outside/secret.txt`, '../outside/secret.txt', 'a/../../outside/secret.txt', '/etc/passwd']) {
      const result = await call('read_text_file', { path });
      expect(errorCode(result)).toBe('outside_allowed_directories');
      expect(everything(result)).not.toContain(SECRET);
    }
  });

  test('symbolic link to a file outside: read, info, copy, edit, media and resource reads refuse it (CVE-2025-53109)', async () => {
    symlinkSync(tree.secret, tree.at('link-file'));
    symlinkSync('../outside/secret.txt', tree.at('link-relative'));
    const { call, client } = await connect(tree, era);
    for (const path of [tree.at('link-file'), tree.at('link-relative')]) {
      for (const [tool, args] of [
        ['read_text_file', { path }],
        ['read_media_file', { path }],
        ['get_file_info', { path }],
        ['edit_file', { path, edits: [{ oldText: 'TOP', newText: 'X' }] }],
        ['copy_file', { source: path, destination: tree.at('copied.txt') }],
      ] as const) {
        const result = await call(tool, args);
        expect(errorCode(result), `${tool} ${path}`).toBe('outside_allowed_directories');
        expect(everything(result)).not.toContain(SECRET);
      }
      await expect(client.readResource(`file://${path}`)).rejects.toMatchObject({ code: -32602 });
    }
    expect(existsSync(tree.at('copied.txt'))).toBe(false);
    expect(readFileSync(tree.secret, 'utf8')).toBe(`${SECRET}\n`);
  });

  test('symbolic link to a directory outside, in the middle of a path: refused for reads, writes, listings, mkdir', async () => {
    symlinkSync(tree.outside, tree.at('dir-link'));
    const { call } = await connect(tree, era);
    expect(errorCode(await call('read_text_file', { path: tree.at('dir-link/secret.txt') }))).toBe('outside_allowed_directories');
    expect(errorCode(await call('list_directory', { path: tree.at('dir-link') }))).toBe('outside_allowed_directories');
    expect(errorCode(await call('write_file', { path: tree.at('dir-link/planted.txt'), content: 'x' }))).toBe(
      'outside_allowed_directories',
    );
    expect(errorCode(await call('create_directory', { path: tree.at('dir-link/newdir') }))).toBe('outside_allowed_directories');
    expect(errorCode(await call('search_files', { path: tree.at('dir-link'), pattern: '*' }))).toBe('outside_allowed_directories');
    expect(readdirSync(tree.outside)).toEqual(['secret.txt']);
  });

  test('link chains: inside → inside → outside is refused; a chain that stays inside works; loops end', async () => {
    tree.write('real.txt', 'inside');
    symlinkSync('real.txt', tree.at('hop2'));
    symlinkSync('hop2', tree.at('hop1'));
    symlinkSync(tree.secret, tree.at('out2'));
    symlinkSync('out2', tree.at('out1'));
    mkdirSync(tree.at('d'));
    symlinkSync('../out1', tree.at('d/out0'));
    symlinkSync('loop-b', tree.at('loop-a'));
    symlinkSync('loop-a', tree.at('loop-b'));
    const { call } = await connect(tree, era);
    expect(textOf(await call('read_text_file', { path: tree.at('hop1') }))).toBe('inside');
    for (const path of [tree.at('out1'), tree.at('d/out0')]) {
      const result = await call('read_text_file', { path });
      expect(errorCode(result)).toBe('outside_allowed_directories');
      expect(everything(result)).not.toContain(SECRET);
    }
    expect(errorCode(await call('read_text_file', { path: tree.at('loop-a') }))).toBe('symlink_loop');
  });

  test('dangling link on write: a link to a missing file outside never creates it; one to a missing file inside does', async () => {
    symlinkSync(join(tree.outside, 'created-by-attacker.txt'), tree.at('dangling-out'));
    symlinkSync('made-inside.txt', tree.at('dangling-in'));
    const { call } = await connect(tree, era);
    for (const [tool, args] of [
      ['write_file', { path: tree.at('dangling-out'), content: 'pwned' }],
      ['copy_file', { source: tree.secret, destination: tree.at('dangling-out') }],
      ['create_directory', { path: tree.at('dangling-out') }],
    ] as const) {
      expect(errorCode(await call(tool, args)), tool).toBe('outside_allowed_directories');
    }
    expect(existsSync(join(tree.outside, 'created-by-attacker.txt'))).toBe(false);
    await call('write_file', { path: tree.at('dangling-in'), content: 'ok' });
    expect(readFileSync(tree.at('made-inside.txt'), 'utf8')).toBe('ok');
  });

  test('hard link to a file outside: not read, not searched, not measured, not replaced', async () => {
    linkSync(tree.secret, tree.at('hard.txt'));
    const { call } = await connect(tree, era);
    for (const [tool, args] of [
      ['read_text_file', { path: tree.at('hard.txt') }],
      ['read_media_file', { path: tree.at('hard.txt') }],
      ['get_file_info', { path: tree.at('hard.txt') }],
      ['edit_file', { path: tree.at('hard.txt'), edits: [{ oldText: 'TOP', newText: 'X' }] }],
      ['write_file', { path: tree.at('hard.txt'), content: 'x' }],
      ['copy_file', { source: tree.at('hard.txt'), destination: tree.at('copy.txt') }],
    ] as const) {
      const result = await call(tool, args);
      expect(errorCode(result), tool).toBe('hard_link_refused');
      expect(everything(result)).not.toContain(SECRET);
    }
    const grep = await call('search_file_contents', { path: tree.root, pattern: 'TOP-SECRET' });
    expect(grep.structuredContent).toMatchObject({ matches: [], skipped: { hardLinks: 1 } });
    const sized = await call('list_directory_with_sizes', { path: tree.root });
    expect(sized.structuredContent!.entries).toEqual([{ name: 'hard.txt', type: 'file', hardLinks: 2 }]);
    expect(readFileSync(tree.secret, 'utf8')).toBe(`${SECRET}\n`);
  });

  test('listings reveal nothing about a link target: no size, no type, no time, not followed by tree or search', async () => {
    symlinkSync(tree.secret, tree.at('link-out'));
    symlinkSync(tree.outside, tree.at('dirlink-out'));
    const { call } = await connect(tree, era);
    const sized = await call('list_directory_with_sizes', { path: tree.root });
    expect(sized.structuredContent!.entries).toEqual([
      { name: 'dirlink-out', type: 'symlink' },
      { name: 'link-out', type: 'symlink' },
    ]);
    expect(sized.structuredContent!.totals).toEqual({ files: 0, directories: 0, bytes: 0 });
    const treeResult = await call('directory_tree', { path: tree.root });
    expect(treeResult.structuredContent!.tree).toEqual([
      { name: 'dirlink-out', type: 'symlink' },
      { name: 'link-out', type: 'symlink' },
    ]);
    expect(textOf(await call('search_files', { path: tree.root, pattern: 'secret*' }))).toBe('No matches found');
    expect(everything(await call('search_file_contents', { path: tree.root, pattern: 'SECRET' }))).not.toContain(SECRET);
  });

  test('errors name the path the client gave, never the allowed directories or other host paths', async () => {
    symlinkSync(tree.secret, tree.at('link-out'));
    const { call } = await connect(tree, era);
    const outside = await call('read_text_file', { path: '/etc/passwd' });
    expect(textOf(outside)).toBe('Access denied - path outside allowed directories: /etc/passwd');
    const link = await call('read_text_file', { path: 'link-out' });
    expect(textOf(link)).toBe('Access denied - path outside allowed directories: link-out');
    const missing = await call('read_text_file', { path: 'missing.txt' });
    expect(textOf(missing)).toBe('No such file or directory: missing.txt');
    for (const result of [outside, link, missing]) {
      expect(everything(result)).not.toContain(tree.base);
      expect(everything(result)).not.toContain('/proc/self/fd');
    }
    const long = await call('read_text_file', { path: `/nope/${'x'.repeat(2000)}` });
    expect(textOf(long).length).toBeLessThan(400);
  });

  test('client roots cannot widen: a root outside the directories gives nothing outside', async () => {
    const { call } = await connect(tree, era, { roots: () => ({ roots: [{ uri: `file://${tree.outside}` }, { uri: 'file:///etc' }] }) });
    const result = await call('read_text_file', { path: tree.secret });
    expect(errorCode(result)).toBe('outside_allowed_directories');
    expect(everything(result)).not.toContain(SECRET);
    expect(errorCode(await call('read_text_file', { path: '/etc/hostname' }))).toBe('outside_allowed_directories');
    // intersect: roots beside the directories select nothing, not the operator's directories.
    tree.write('inside.txt', 'in');
    expect(errorCode(await call('read_text_file', { path: tree.at('inside.txt') }))).toBe('outside_allowed_directories');
    expect((await call('list_allowed_directories')).structuredContent).toEqual({ directories: [], narrowedByClientRoots: true });
  });

  test('client roots narrow under intersect; replace never widens either; ignore ignores them', async () => {
    tree.write('a/in-a.txt', 'A');
    tree.write('b/in-b.txt', 'B');
    const roots = () => ({ roots: [{ uri: `file://${tree.at('a')}` }, { uri: `file://${tree.outside}` }] });
    const narrowed = await connect(tree, era, { roots });
    expect(textOf(await narrowed.call('read_text_file', { path: tree.at('a/in-a.txt') }))).toBe('A');
    expect(errorCode(await narrowed.call('read_text_file', { path: tree.at('b/in-b.txt') }))).toBe('outside_allowed_directories');
    expect((await narrowed.call('list_allowed_directories')).structuredContent).toEqual({
      directories: [tree.at('a')],
      narrowedByClientRoots: true,
    });
    const replaced = await connect(tree, era, { roots, config: { roots: 'replace' } });
    expect(textOf(await replaced.call('read_text_file', { path: tree.at('a/in-a.txt') }))).toBe('A');
    expect(errorCode(await replaced.call('read_text_file', { path: tree.secret }))).toBe('outside_allowed_directories');
    const ignored = await connect(tree, era, { roots, config: { roots: 'ignore' } });
    expect(textOf(await ignored.call('read_text_file', { path: tree.at('b/in-b.txt') }))).toBe('B');
    // A root above the directories selects all of them (intersection), not more.
    const above = await connect(tree, era, { roots: () => ({ roots: [{ uri: `file://${tree.base}` }] }) });
    expect(textOf(await above.call('read_text_file', { path: tree.at('b/in-b.txt') }))).toBe('B');
    expect(errorCode(await above.call('read_text_file', { path: tree.secret }))).toBe('outside_allowed_directories');
  });

  test('Unicode: an NFD spelling of the allowed directory is a different directory and stays outside', async () => {
    const nfc = makeTree('caf\u00e9');
    try {
      const nfd = join(nfc.base, 'cafe\u0301');
      mkdirSync(nfd);
      writeFileSync(join(nfd, 'x.txt'), SECRET);
      const { call } = await connect(nfc, era);
      const result = await call('read_text_file', { path: join(nfd, 'x.txt') });
      expect(errorCode(result)).toBe('outside_allowed_directories');
      expect(everything(result)).not.toContain(SECRET);
      expect(errorCode(await call('write_file', { path: join(nfd, 'y.txt'), content: 'x' }))).toBe('outside_allowed_directories');
      expect(existsSync(join(nfd, 'y.txt'))).toBe(false);
    } finally {
      await closeAll();
      nfc.cleanup();
    }
  });

  test('case: /Root is not /root on a case-sensitive file system; deny patterns match any case', async () => {
    const upper = join(tree.base, 'ROOT');
    mkdirSync(upper);
    writeFileSync(join(upper, 'x.txt'), SECRET);
    tree.write('.ENV', 'API_KEY=1');
    tree.write('config/.env', 'API_KEY=2');
    const { call } = await connect(tree, era, { config: { deny: ['**/.env'] } });
    expect(errorCode(await call('read_text_file', { path: join(upper, 'x.txt') }))).toBe('outside_allowed_directories');
    expect(errorCode(await call('read_text_file', { path: tree.at('.ENV') }))).toBe('denied_by_pattern');
    expect(errorCode(await call('read_text_file', { path: tree.at('config/.env') }))).toBe('denied_by_pattern');
    expect(textOf(await call('list_directory', { path: tree.root }))).toBe('[DIR] config');
    expect(textOf(await call('search_files', { path: tree.root, pattern: '*env*' }))).toBe('No matches found');
  });

  test('NUL characters, Windows drive paths and over-long paths are refused as invalid', async () => {
    const { call } = await connect(tree, era);
    expect(errorCode(await call('read_text_file', { path: `${tree.at('a.txt')}\u0000.png` }))).toBe('invalid_path');
    expect(errorCode(await call('write_file', { path: `${tree.root}/x\u0000y`, content: 'x' }))).toBe('invalid_path');
    expect(errorCode(await call('read_text_file', { path: 'C:\\Windows\\win.ini' }))).toBe('invalid_path');
    expect(errorCode(await call('read_text_file', { path: `${tree.root}/${'a/'.repeat(300)}x` }))).toBe('invalid_path');
    expect(errorCode(await call('read_text_file', { path: 'x'.repeat(5000) }))).toBe('invalid_path');
  });

  test('~ expands to the home directory, which is outside unless allowed', async () => {
    const { call } = await connect(tree, era);
    const result = await call('read_text_file', { path: '~/.bashrc' });
    expect(errorCode(result)).toBe('outside_allowed_directories');
    // A file literally named "~x" inside is just a name.
    tree.write('~x', 'tilde');
    expect(textOf(await call('read_text_file', { path: tree.at('~x') }))).toBe('tilde');
  });

  test('URL encoding: percent-escapes in paths are names, file: URIs decode but stay confined', async () => {
    tree.write('%2e%2e/literal.txt', 'literal');
    const { call, client } = await connect(tree, era);
    expect(textOf(await call('read_text_file', { path: tree.at('%2e%2e/literal.txt') }))).toBe('literal');
    expect(errorCode(await call('read_text_file', { path: `${tree.root}/%2e%2e/../../outside/secret.txt` }))).toBe(
      'outside_allowed_directories',
    );
    expect(errorCode(await call('read_text_file', { path: `file://${tree.root}/%2e%2e/outside/secret.txt` }))).toBe(
      'outside_allowed_directories',
    );
    expect(errorCode(await call('read_text_file', { path: `file://${tree.root}/..%2Foutside%2Fsecret.txt` }))).toBe('invalid_path');
    expect(errorCode(await call('read_text_file', { path: `file://${tree.root}/x%00.txt` }))).toBe('invalid_path');
    expect(errorCode(await call('read_text_file', { path: `file://evil.example${tree.root}/a` }))).toBe('invalid_path');
    await expect(client.readResource(`file://${tree.root}/%2e%2e/outside/secret.txt`)).rejects.toMatchObject({ code: -32602 });
    await expect(client.readResource(`file://${tree.root}/..%2Foutside%2Fsecret.txt`)).rejects.toMatchObject({ code: -32602 });
  });

  test('deny patterns: a denied directory, a link to a denied file, moving a directory that holds one', async () => {
    tree.write('secrets/key.pem', 'KEY');
    tree.write('config/db.pem', 'PEM');
    tree.write('public/readme.txt', 'hi');
    symlinkSync('../secrets/key.pem', tree.at('public/innocent.txt'));
    const { call } = await connect(tree, era, { config: { deny: ['secrets/**', 'config/*.pem'], allowDelete: true } });
    for (const path of [tree.at('secrets/key.pem'), tree.at('public/innocent.txt'), tree.at('config/db.pem')]) {
      const result = await call('read_text_file', { path });
      expect(errorCode(result), path).toBe('denied_by_pattern');
    }
    expect(errorCode(await call('list_directory', { path: tree.at('secrets') }))).toBe('denied_by_pattern');
    expect(errorCode(await call('move_file', { source: tree.at('secrets'), destination: tree.at('public/s') }))).toBe('denied_by_pattern');
    expect(errorCode(await call('move_file', { source: tree.at('config'), destination: tree.at('cfg') }))).toBe('denied_by_pattern');
    expect(errorCode(await call('delete_directory', { path: tree.at('config'), recursive: true }))).toBe('denied_by_pattern');
    expect(errorCode(await call('write_file', { path: tree.at('secrets/new.txt'), content: 'x' }))).toBe('denied_by_pattern');
    expect(existsSync(tree.at('config/db.pem'))).toBe(true);
    expect(textOf(await call('directory_tree', { path: tree.root }))).toBe('config/\npublic/\n  innocent.txt (symlink)\n  readme.txt');
  });
});
