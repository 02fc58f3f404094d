/**
 * Files as resources: the file:// template, reads of text and binary files under the same confinement as the tools,
 * completion of path segments, and change subscriptions in both eras (legacy resources/subscribe, 2026-07-28
 * subscriptions/listen) driven by file system events, debounced, with a bounded number of watchers.
 */
import { renameSync, symlinkSync, writeFileSync } from 'node:fs';
import { afterEach, beforeEach, describe, expect, test } from 'vitest';
import { closeAll, connect, ERAS, makeTree, SECRET, type Tree } from './fixture.test-util.js';

let tree: Tree;
beforeEach(() => {
  tree = makeTree();
});
afterEach(async () => {
  await closeAll();
  tree.cleanup();
});

/** Resolves with the next update for `uri`, or rejects after `ms` (an event that never comes fails the test). */
function nextUpdate(
  client: { onResourceUpdated(listener: (p: { uri: string }) => void): () => void },
  uri: string,
  ms = 5000,
): Promise<string> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      off();
      reject(new Error(`no update for ${uri} within ${ms} ms`));
    }, ms);
    const off = client.onResourceUpdated((params) => {
      if (params.uri !== uri) return;
      clearTimeout(timer);
      off();
      resolve(params.uri);
    });
  });
}

describe.each(ERAS)('%s era', (era) => {
  test('the file:// template is listed; text files read as text, binary ones as blobs; links outside are refused', async () => {
    tree.write('notes.md', '# Notes\n');
    tree.write('pic.png', Buffer.from([0x89, 0x50, 0x00, 0x01]));
    symlinkSync(tree.secret, tree.at('out'));
    const { client } = await connect(tree, era);
    expect(client.serverCapabilities).toMatchObject({ resources: { subscribe: true }, completions: {} });
    const templates = await client.listAllResourceTemplates();
    expect(templates).toEqual([expect.objectContaining({ uriTemplate: 'file://{+path}', name: 'file' })]);
    const text = await client.readResource(`file://${tree.at('notes.md')}`);
    expect(text.contents).toEqual([{ uri: `file://${tree.at('notes.md')}`, mimeType: 'text/markdown', text: '# Notes\n' }]);
    const blob = await client.readResource(`file://${tree.at('pic.png')}`);
    expect(blob.contents).toEqual([{ uri: `file://${tree.at('pic.png')}`, mimeType: 'image/png', blob: 'iVAAAQ==' }]);
    await expect(client.readResource(`file://${tree.at('missing.txt')}`)).rejects.toMatchObject({
      code: era === 'legacy' ? -32002 : -32602,
    });
    const refused = client.readResource(`file://${tree.at('out')}`);
    await expect(refused).rejects.toMatchObject({ code: -32602 });
    await expect(refused).rejects.not.toMatchObject({ message: expect.stringContaining(SECRET) });
  });

  test('completion suggests entries of the typed directory, directories with a slash, never outside or denied ones', async () => {
    tree.write('src/index.ts', '');
    tree.write('src/server.ts', '');
    tree.write('src/.env', 'x');
    tree.write('scripts/run.sh', '');
    const { client } = await connect(tree, era, { config: { deny: ['**/.env'] } });
    const complete = async (value: string) =>
      (await client.complete({ ref: { type: 'ref/resource', uri: 'file://{+path}' }, argument: { name: 'path', value } })).completion
        .values;
    expect(await complete(`${tree.root}/s`)).toEqual([`${tree.root}/scripts/`, `${tree.root}/src/`]);
    expect(await complete(`${tree.root}/src/`)).toEqual([`${tree.root}/src/index.ts`, `${tree.root}/src/server.ts`]);
    expect(await complete(`${tree.root}/src/.`)).toEqual([]);
    expect(await complete('/etc/pa')).toEqual([]);
    expect(await complete('')).toEqual([`${tree.root}/`]);
    expect(await complete(`${tree.outside}/`)).toEqual([]);
  });

  test('a subscribed file announces a change, also an atomic replace; unsubscribed files stay quiet', async () => {
    const path = tree.write('watched.txt', 'v1');
    tree.write('other.txt', 'x');
    const uri = `file://${path}`;
    const { client, filesystem } = await connect(tree, era);
    await client.subscribeResource(uri);
    await expect.poll(() => filesystem.watchers()).toBe(1);
    const first = nextUpdate(client, uri);
    writeFileSync(path, 'v2');
    expect(await first).toBe(uri);
    const second = nextUpdate(client, uri);
    writeFileSync(tree.at('tmp.txt'), 'v3');
    renameSync(tree.at('tmp.txt'), path);
    expect(await second).toBe(uri);
    await client.unsubscribeResource(uri);
    await expect.poll(() => filesystem.watchers()).toBe(0);
  });

  test('a subscribed directory announces changes inside it', async () => {
    tree.write('dir/a.txt', 'a');
    const uri = `file://${tree.at('dir')}`;
    const { client, filesystem } = await connect(tree, era);
    await client.subscribeResource(uri);
    await expect.poll(() => filesystem.watchers()).toBe(1);
    const update = nextUpdate(client, uri);
    writeFileSync(tree.at('dir/b.txt'), 'b');
    expect(await update).toBe(uri);
  });
});

test('watchers are shared per directory and bounded in number; a subscription outside is refused, never watched', async () => {
  tree.write('one/a.txt', 'a');
  tree.write('one/b.txt', 'b');
  tree.write('two/c.txt', 'c');
  const { client, filesystem } = await connect(tree, 'legacy', { config: { maxWatchers: 1 } });
  await client.subscribeResource(`file://${tree.at('one/a.txt')}`);
  await client.subscribeResource(`file://${tree.at('one/b.txt')}`);
  const outside = client.subscribeResource(`file://${tree.secret}`);
  await expect(outside).rejects.toMatchObject({ code: -32602, data: { code: 'outside_allowed_directories' } });
  await expect(outside).rejects.not.toMatchObject({ message: expect.stringContaining(SECRET) });
  await expect.poll(() => filesystem.watchers()).toBe(1);
  await client.subscribeResource(`file://${tree.at('two/c.txt')}`);
  // The bound holds: the second directory is not watched.
  const update = nextUpdate(client, `file://${tree.at('one/b.txt')}`);
  writeFileSync(tree.at('one/b.txt'), 'b2');
  await update;
  expect(filesystem.watchers()).toBe(1);
});

test('changes are debounced: a burst of writes is one update', async () => {
  const path = tree.write('burst.txt', '0');
  const uri = `file://${path}`;
  const { client, filesystem } = await connect(tree, 'legacy', { config: { watchDebounceMs: 300 } });
  const updates: string[] = [];
  client.onResourceUpdated((params) => void updates.push(params.uri));
  await client.subscribeResource(uri);
  await expect.poll(() => filesystem.watchers()).toBe(1);
  const first = nextUpdate(client, uri);
  for (let i = 0; i < 20; i++) writeFileSync(path, String(i));
  await first;
  // A later, separate change is a new update: waiting for it shows the burst produced exactly one.
  const second = nextUpdate(client, uri);
  writeFileSync(path, 'after');
  await second;
  expect(updates).toEqual([uri, uri]);
});

describe('client roots narrow subscriptions and completion', () => {
  const rootsOf = (dir: string) => () => ({ roots: [{ uri: `file://${dir}` }] });

  test('legacy: a subscription outside the client roots is refused; completion lists only inside them', async () => {
    tree.write('a/one.txt', '1');
    tree.write('b/two.txt', '2');
    const { client, filesystem } = await connect(tree, 'legacy', { roots: rootsOf(tree.at('a')) });
    await expect(client.subscribeResource(`file://${tree.at('b/two.txt')}`)).rejects.toMatchObject({
      code: -32602,
      data: { code: 'outside_allowed_directories' },
    });
    await client.subscribeResource(`file://${tree.at('a/one.txt')}`);
    await expect.poll(() => filesystem.watchers()).toBe(1);
    const complete = async (value: string) =>
      (await client.complete({ ref: { type: 'ref/resource', uri: 'file://{+path}' }, argument: { name: 'path', value } })).completion
        .values;
    expect(await complete('')).toEqual([`${tree.at('a')}/`]);
    expect(await complete(`${tree.root}/`)).toEqual([`${tree.at('a')}/`]);
    expect(await complete(`${tree.at('b')}/`)).toEqual([]);
  });

  test('2026-07-28: a listen stream acknowledges only what may be reached; the rest is never watched', async () => {
    tree.write('a/one.txt', '1');
    const { client, filesystem } = await connect(tree, 'modern');
    const subscription = await client.listen({
      resourceSubscriptions: [`file://${tree.at('a/one.txt')}`, `file://${tree.secret}`, 'https://x/y'],
    });
    expect(subscription.acknowledged.resourceSubscriptions).toEqual([`file://${tree.at('a/one.txt')}`]);
    await expect.poll(() => filesystem.watchers()).toBe(1);
    await subscription.close();
    await expect.poll(() => filesystem.watchers()).toBe(0);
  });
});
