/**
 * The wiremcp filesystem server (its built bin) driven by the official clients over stdio: v1
 * (`@modelcontextprotocol/sdk`) and v2 (`@modelcontextprotocol/client`) in the legacy era, v2 in auto mode (the
 * 2026-07-28 era). Each client validates our structured results against our output schemas on its own; roots are
 * answered by each client's own machinery (a server request in legacy, an input-required round in 2026-07-28).
 * Skipped until `servers/filesystem/dist/bin.js` exists.
 */
import { existsSync, mkdirSync, mkdtempSync, readFileSync, realpathSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, afterEach, beforeEach, describe, expect, test } from 'vitest';
import {
  closeAll,
  connectOfficial,
  eraOnTheWire,
  inputRequiredResults,
  serverRequests,
  textOf,
  type Flavor,
} from './server-official-clients-helpers.js';

const FS_BIN = fileURLToPath(new URL('../../../servers/filesystem/dist/bin.js', import.meta.url));
const FS_BUILT = existsSync(FS_BIN);
const SECRET = 'OUTSIDE-SECRET';

const leftovers: number[] = [];
let base: string;
let root: string;
beforeEach(() => {
  base = realpathSync(mkdtempSync(join(tmpdir(), 'wiremcp-fs-official-')));
  root = join(base, 'root');
  mkdirSync(join(root, 'src'), { recursive: true });
  mkdirSync(join(base, 'outside'));
  writeFileSync(join(base, 'outside', 'secret.txt'), SECRET);
  writeFileSync(join(root, 'notes.txt'), 'first\nsecond\nthird\n');
  writeFileSync(join(root, 'src', 'main.ts'), 'export const answer = 42;\n');
  symlinkSync(join(base, 'outside', 'secret.txt'), join(root, 'link-out'));
});
afterEach(async () => {
  leftovers.push(...(await closeAll()));
  rmSync(base, { recursive: true, force: true });
});
afterAll(() => {
  expect(leftovers).toEqual([]);
});

const CLIENTS: Array<{ flavor: Flavor; era: 'legacy' | 'modern' }> = [
  { flavor: 'v1', era: 'legacy' },
  { flavor: 'v2', era: 'legacy' },
  { flavor: 'v2-auto', era: 'modern' },
];

describe.skipIf(!FS_BUILT).each(CLIENTS)('official $flavor client → wiremcp filesystem server', ({ flavor, era }) => {
  test('the official tool names; reads, writes, edits, listings and searches with schema-checked structured results', async () => {
    const connection = await connectOfficial(flavor, { bin: FS_BIN, args: [root] });
    expect(eraOnTheWire(connection).era).toBe(era);
    expect(connection.serverInfo()).toMatchObject({ name: 'wiremcp-filesystem' });
    const { tools } = await connection.client.listTools();
    const names = tools.map((tool: { name: string }) => tool.name);
    expect(names).toEqual(
      expect.arrayContaining([
        'read_file',
        'read_text_file',
        'read_multiple_files',
        'write_file',
        'edit_file',
        'directory_tree',
        'search_files',
      ]),
    );
    const notes = join(root, 'notes.txt');
    const tail = await connection.callTool({ name: 'read_text_file', arguments: { path: notes, tail: 2 } });
    expect(textOf(tail)).toBe('second\nthird\n');
    expect(tail.structuredContent).toMatchObject({ size: 19, truncated: false });
    await connection.callTool({ name: 'write_file', arguments: { path: join(root, 'out.txt'), content: `written by ${flavor}\n` } });
    expect(readFileSync(join(root, 'out.txt'), 'utf8')).toBe(`written by ${flavor}\n`);
    const edit = await connection.callTool({
      name: 'edit_file',
      arguments: { path: notes, edits: [{ oldText: 'second', newText: '2nd' }] },
    });
    expect(textOf(edit)).toContain('+2nd');
    const listing = await connection.callTool({ name: 'list_directory', arguments: { path: root } });
    expect(textOf(listing)).toBe('[LINK] link-out\n[FILE] notes.txt\n[FILE] out.txt\n[DIR] src');
    const found = await connection.callTool({ name: 'search_file_contents', arguments: { path: root, pattern: 'answer' } });
    expect(found.structuredContent).toMatchObject({ filesMatched: 1, matches: [{ path: join(root, 'src', 'main.ts'), line: 1 }] });
    const tree = await connection.callTool({ name: 'directory_tree', arguments: { path: root } });
    expect((tree.structuredContent as { tree: unknown[] }).tree).toContainEqual({
      name: 'src',
      type: 'directory',
      children: [{ name: 'main.ts', type: 'file' }],
    });
  });

  test('refusals are tool errors naming only the given path; nothing outside comes back', async () => {
    const connection = await connectOfficial(flavor, { bin: FS_BIN, args: [root] });
    for (const path of [join(root, 'link-out'), join(base, 'outside', 'secret.txt'), `${root}/../outside/secret.txt`]) {
      const result = await connection.callTool({ name: 'read_text_file', arguments: { path } });
      expect(result.isError).toBe(true);
      expect(textOf(result)).toBe(`Access denied - path outside allowed directories: ${path}`);
      expect(JSON.stringify(result)).not.toContain(SECRET);
    }
    const sizes = await connection.callTool({ name: 'list_directory_with_sizes', arguments: { path: root } });
    expect((sizes.structuredContent as { entries: unknown[] }).entries).toContainEqual({ name: 'link-out', type: 'symlink' });
  });

  test('files are resources: template, completion, read', async () => {
    const connection = await connectOfficial(flavor, { bin: FS_BIN, args: [root] });
    const { resourceTemplates } = await connection.client.listResourceTemplates();
    expect(resourceTemplates.map((t: { uriTemplate: string }) => t.uriTemplate)).toEqual(['file://{+path}']);
    const completion = await connection.client.complete({
      ref: { type: 'ref/resource', uri: 'file://{+path}' },
      argument: { name: 'path', value: `${root}/n` },
    });
    expect(completion.completion.values).toEqual([`${root}/notes.txt`]);
    const read = await connection.client.readResource({ uri: `file://${join(root, 'notes.txt')}` });
    expect(read.contents[0]).toMatchObject({ text: 'first\nsecond\nthird\n' });
  });

  test('client roots narrow the directory, asked the way the era asks', async () => {
    const roots = () => ({ roots: [{ uri: `file://${join(root, 'src')}`, name: 'src' }] });
    const connection = await connectOfficial(flavor, { bin: FS_BIN, args: [root], capabilities: { roots: {} }, answers: { roots } });
    const inside = await connection.callTool({ name: 'read_text_file', arguments: { path: join(root, 'src', 'main.ts') } });
    expect(textOf(inside)).toBe('export const answer = 42;\n');
    const narrowed = await connection.callTool({ name: 'read_text_file', arguments: { path: join(root, 'notes.txt') } });
    expect(narrowed.isError).toBe(true);
    if (era === 'legacy') expect(serverRequests(connection.wire).map((m) => m.method)).toContain('roots/list');
    else {
      const asked = inputRequiredResults(connection.wire).flatMap((result) =>
        Object.values<{ method: string }>(result.inputRequests ?? {}),
      );
      expect(asked.map((request) => request.method)).toContain('roots/list');
    }
  });
});
