/**
 * Client roots over time: a legacy session asks once and again after notifications/roots/list_changed (a change
 * applies to the requests that arrive after it); a 2026-07-28 client is asked on every request; a client that
 * declares roots but cannot list them (an error, no answer in time) gets the operator's directories, as with the
 * official server, and the fallback is logged and noted in the result (`--roots-fallback refuse` refuses instead).
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

test('legacy: a client that declares roots but fails to list them gets the operator directories, said loudly; it is asked again later', async () => {
  let fail = true;
  const lines: string[] = [];
  const { call } = await connect(tree, 'legacy', {
    log: (line) => lines.push(line),
    roots: () => {
      if (fail) throw new Error('no roots today');
      return { roots: [{ uri: `file://${tree.at('a')}` }] };
    },
  });
  const fallback = await call('read_text_file', { path: tree.at('b/file.txt') });
  expect(textOf(fallback)).toBe('B');
  // The fallback is said on stderr (the bin's log) and in the result, not silently.
  expect(lines.join('\n')).toMatch(/roots\/list failed.*operator's directories/);
  expect(JSON.stringify(fallback)).toContain('roots/list failed');
  // A failure is not remembered: the next request asks again, and the roots then narrow.
  fail = false;
  expect(errorCode(await call('read_text_file', { path: tree.at('b/file.txt') }))).toBe('outside_allowed_directories');
  expect(textOf(await call('read_text_file', { path: tree.at('a/file.txt') }))).toBe('A');
});

test('legacy: a roots/list that never answers times out into the operator directories, once per wait, not per path', async () => {
  let asked = 0;
  const { call } = await connect(tree, 'legacy', {
    config: { rootsTimeoutMs: 50 },
    roots: () => {
      asked++;
      return new Promise(() => {});
    },
  });
  const [first, second] = await Promise.all([
    call('read_text_file', { path: tree.at('a/file.txt') }),
    call('read_text_file', { path: tree.at('b/file.txt') }),
  ]);
  expect(textOf(first)).toBe('A');
  expect(textOf(second)).toBe('B');
  expect(asked).toBe(1);
});

test('2026-07-28: a client that answers the roots input request with a malformed list gets the operator directories', async () => {
  // The 2026-07-28 input responses have no error form: a host that cannot list its roots sends something that is not a list.
  const lines: string[] = [];
  const { call } = await connect(tree, 'modern', {
    log: (line) => lines.push(line),
    roots: () => ({ roots: 'unavailable' }) as unknown as { roots: [] },
  });
  expect(textOf(await call('read_text_file', { path: tree.at('b/file.txt') }))).toBe('B');
  expect(lines.join('\n')).toMatch(/roots\/list failed/);
});

test('with --roots-fallback refuse, a failed roots/list refuses the request (the stricter choice) and says how to fix it', async () => {
  const { call } = await connect(tree, 'legacy', {
    config: { rootsFallback: 'refuse' },
    roots: () => {
      throw new Error('no roots today');
    },
  });
  const refused = await call('read_text_file', { path: tree.at('b/file.txt') });
  expect(errorCode(refused)).toBe('roots_unavailable');
  expect(textOf(refused)).toContain('--roots ignore');
});

test('an empty roots list does not narrow (no workspace open); non-file roots are not directories', async () => {
  const empty = await connect(tree, 'legacy', { roots: () => ({ roots: [] }) });
  expect(textOf(await empty.call('read_text_file', { path: tree.at('b/file.txt') }))).toBe('B');
  const web = await connect(tree, 'modern', { roots: () => ({ roots: [{ uri: 'https://example.com/repo' }] }) });
  expect(textOf(await web.call('read_text_file', { path: tree.at('b/file.txt') }))).toBe('B');
});
