/**
 * Client roots over time: a legacy session asks once and again after notifications/roots/list_changed (a change
 * applies to the requests that arrive after it); a 2026-07-28 client is asked on every request; a client that
 * declares roots but cannot list them gets an error, never the operator's whole directories.
 */
import { afterEach, beforeEach, expect, test } from 'vitest';
import { closeAll, connect, errorCode, makeTree, textOf, type Tree } from './fixture.test-util.js';

let tree: Tree;
beforeEach(() => {
  tree = makeTree();
  tree.write('a/file.txt', 'A');
  tree.write('b/file.txt', 'B');
});
afterEach(async () => {
  await closeAll();
  tree.cleanup();
});

test('legacy: roots are asked once per session and again after list_changed; the change applies to later requests', async () => {
  let current = 'a';
  let asked = 0;
  const { call, client } = await connect(tree, 'legacy', {
    roots: () => {
      asked++;
      return { roots: [{ uri: `file://${tree.at(current)}` }] };
    },
  });
  expect(textOf(await call('read_text_file', { path: tree.at('a/file.txt') }))).toBe('A');
  expect(errorCode(await call('read_text_file', { path: tree.at('b/file.txt') }))).toBe('outside_allowed_directories');
  expect(asked).toBe(1);
  current = 'b';
  // Without the notification the session keeps what it was told.
  expect(textOf(await call('read_text_file', { path: tree.at('a/file.txt') }))).toBe('A');
  await client.notifyRootsListChanged();
  expect(textOf(await call('read_text_file', { path: tree.at('b/file.txt') }))).toBe('B');
  expect(errorCode(await call('read_text_file', { path: tree.at('a/file.txt') }))).toBe('outside_allowed_directories');
  expect(asked).toBe(2);
});

test('2026-07-28: roots come with each request (an input request answered by the retry), so a change applies at once', async () => {
  let current = 'a';
  let asked = 0;
  const { call } = await connect(tree, 'modern', {
    roots: () => {
      asked++;
      return { roots: [{ uri: `file://${tree.at(current)}` }] };
    },
  });
  expect(textOf(await call('read_text_file', { path: tree.at('a/file.txt') }))).toBe('A');
  current = 'b';
  expect(textOf(await call('read_text_file', { path: tree.at('b/file.txt') }))).toBe('B');
  expect(errorCode(await call('read_text_file', { path: tree.at('a/file.txt') }))).toBe('outside_allowed_directories');
  expect(asked).toBe(3);
});

test('a client without the roots capability gets the operator directories and is never asked', async () => {
  const { call } = await connect(tree, 'modern');
  expect(textOf(await call('read_text_file', { path: tree.at('b/file.txt') }))).toBe('B');
});

test('legacy: a client that declares roots but fails to list them gets roots_unavailable, not the whole directories', async () => {
  let fail = true;
  const { call } = await connect(tree, 'legacy', {
    roots: () => {
      if (fail) throw new Error('no roots today');
      return { roots: [{ uri: `file://${tree.at('a')}` }] };
    },
  });
  const refused = await call('read_text_file', { path: tree.at('b/file.txt') });
  expect(errorCode(refused)).toBe('roots_unavailable');
  // A failure is not remembered: the next request asks again.
  fail = false;
  expect(textOf(await call('read_text_file', { path: tree.at('a/file.txt') }))).toBe('A');
});

test('an empty roots list does not narrow (no workspace open); non-file roots are not directories', async () => {
  const empty = await connect(tree, 'legacy', { roots: () => ({ roots: [] }) });
  expect(textOf(await empty.call('read_text_file', { path: tree.at('b/file.txt') }))).toBe('B');
  const web = await connect(tree, 'modern', { roots: () => ({ roots: [{ uri: 'https://example.com/repo' }] }) });
  expect(textOf(await web.call('read_text_file', { path: tree.at('b/file.txt') }))).toBe('B');
});
