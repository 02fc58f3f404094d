/**
 * The text path: slicing (tail without the official off-by-one, head, line ranges, byte ranges cut on line and
 * character boundaries, the BOM), binary detection, and edits that keep CRLF and the BOM, take `$` literally and
 * explain a failed match with the nearest text.
 */
import { readFileSync } from 'node:fs';
import { open } from 'node:fs/promises';
import { afterEach, beforeEach, describe, expect, test } from 'vitest';
import { applyEdits } from '../src/ops/edit-text.js';
import { nearestMatch } from '../src/ops/nearest-match.js';
import { readLines, readRange, readTail, sniffText } from '../src/ops/read-text.js';
import { binaryReason, cutPoint, lineEndingOf } from '../src/ops/text-format.js';
import { closeAll, connect, errorCode, makeTree, textOf, type Tree } from './fixture.test-util.js';

let tree: Tree;
beforeEach(() => {
  tree = makeTree();
});
afterEach(async () => {
  await closeAll();
  tree.cleanup();
});

async function withFile<T>(
  content: string | Buffer,
  run: (file: Awaited<ReturnType<typeof open>>, size: number, bom: boolean) => Promise<T>,
): Promise<T> {
  const path = tree.write('t.txt', content);
  const file = await open(path, 'r');
  try {
    const size = (await file.stat()).size;
    return await run(file, size, await sniffText(file, size, 't.txt'));
  } finally {
    await file.close();
  }
}

describe('slices', () => {
  test('tail N returns N lines whether or not the file ends with a newline (the official tail returns N-1)', async () => {
    expect((await withFile('hello\nline2\nline3\n', (f, s, b) => readTail(f, s, b, 2, 1024))).text).toBe('line2\nline3\n');
    expect((await withFile('hello\nline2\nline3', (f, s, b) => readTail(f, s, b, 2, 1024))).text).toBe('line2\nline3');
    expect((await withFile('a\nb\n', (f, s, b) => readTail(f, s, b, 5, 1024))).text).toBe('a\nb\n');
    expect((await withFile('a\r\nb\r\n', (f, s, b) => readTail(f, s, b, 1, 1024))).text).toBe('b\r\n');
    expect((await withFile('', (f, s, b) => readTail(f, s, b, 3, 1024))).text).toBe('');
  });

  test('tail over a long file reads backwards in chunks and keeps whole lines under the cap', async () => {
    const lines = Array.from({ length: 50_000 }, (_, i) => `line ${i}`).join('\n') + '\n';
    const last = await withFile(lines, (f, s, b) => readTail(f, s, b, 3, 1024));
    expect(last.text).toBe('line 49997\nline 49998\nline 49999\n');
    const capped = await withFile(lines, (f, s, b) => readTail(f, s, b, 1000, 100));
    expect(capped.truncated).toBe(true);
    expect(capped.text.endsWith('line 49999\n')).toBe(true);
    expect(capped.text.startsWith('line ')).toBe(true);
    expect(capped.bytes).toBeLessThanOrEqual(100);
  });

  test('head and line ranges count lines from 1 and say where to continue', async () => {
    const content = 'one\ntwo\nthree\nfour';
    expect((await withFile(content, (f, s, b) => readLines(f, s, b, 1, 2, 1024))).text).toBe('one\ntwo\n');
    const range = await withFile(content, (f, s, b) => readLines(f, s, b, 3, undefined, 1024));
    expect(range).toMatchObject({ text: 'three\nfour', startLine: 3, endLine: 4, truncated: false });
    expect(range.nextLine).toBeUndefined();
    const capped = await withFile(content, (f, s, b) => readLines(f, s, b, 1, undefined, 9));
    expect(capped).toMatchObject({ text: 'one\ntwo\n', endLine: 2, nextLine: 3, nextOffset: 8, truncated: true });
    const beyond = await withFile(content, (f, s, b) => readLines(f, s, b, 10, 12, 1024));
    expect(beyond).toMatchObject({ text: '', startLine: 10, endLine: 9 });
    await expect(withFile(`${'x'.repeat(100)}\n`, (f, s, b) => readLines(f, s, b, 1, 1, 10))).rejects.toMatchObject({ code: 'too_large' });
  });

  test('a capped byte range ends on a line, else on a whole character, and continues exactly there', async () => {
    const content = 'αβγ\nδεζ\n';
    const first = await withFile(content, (f, s, b) => readRange(f, s, b, undefined, undefined, 10));
    expect(first).toMatchObject({ text: 'αβγ\n', offset: 0, bytes: 7, nextOffset: 7, truncated: true });
    const rest = await withFile(content, (f, s, b) => readRange(f, s, b, 7, undefined, 10));
    expect(rest).toMatchObject({ text: 'δεζ\n', truncated: false });
    const noNewline = await withFile('ααααα', (f, s, b) => readRange(f, s, b, undefined, undefined, 5));
    expect(noNewline).toMatchObject({ text: 'αα', bytes: 4, nextOffset: 4 });
    const inside = await withFile('αβ', (f, s, b) => readRange(f, s, b, 1, 10, 100));
    expect(inside).toMatchObject({ text: 'β', offset: 2 });
    expect(cutPoint(Buffer.from('ab€', 'utf8').subarray(0, 4))).toBe(2);
  });

  test('the BOM is reported and left out of the text', async () => {
    const slice = await withFile(Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from('hi\n')]), (f, s, b) =>
      readRange(f, s, b, undefined, undefined, 100),
    );
    expect(slice).toMatchObject({ text: 'hi\n', bom: true, offset: 3 });
  });

  test('binary detection: NUL bytes and UTF-16 byte-order marks', () => {
    expect(binaryReason(Buffer.from('plain text\n'))).toBeUndefined();
    expect(binaryReason(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x00, 0x01]))).toContain('NUL');
    expect(binaryReason(Buffer.from([0xff, 0xfe, 0x41, 0x00]))).toContain('UTF-16');
    expect(lineEndingOf('a\r\nb\r\n')).toBe('crlf');
    expect(lineEndingOf('a\r\nb\n')).toBe('mixed');
  });
});

describe('edits', () => {
  test('first exact occurrence, replacement taken literally ($& and $1 are not special)', () => {
    const { text, applied } = applyEdits('price: X\nprice: X\n', [{ oldText: 'X', newText: '$& and $1' }]);
    expect(text).toBe('price: $& and $1\nprice: X\n');
    expect(applied).toEqual([{ line: 1, method: 'exact', occurrences: 2 }]);
  });

  test('whitespace-insensitive line match keeps the indentation of the file', () => {
    const { text, applied } = applyEdits('function f() {\n    return 1;\n}\n', [{ oldText: 'return 1;', newText: 'return 2;' }]);
    expect(text).toBe('function f() {\n    return 2;\n}\n');
    expect(applied[0]!.method).toBe('exact');
    const flexible = applyEdits('if (x) {\n\t\tcall( a );\n}\n', [{ oldText: '  call( a );  ', newText: 'call(b);' }]);
    expect(flexible.text).toBe('if (x) {\n\t\tcall(b);\n}\n');
    expect(flexible.applied[0]).toEqual({ line: 2, method: 'whitespace-insensitive', occurrences: 0 });
  });

  test('a failed match names the nearest lines, how similar, and the differing lines', () => {
    const file = 'const a = 1;\nfunction total(items) {\n  return items.reduce((s, i) => s + i.price, 0);\n}\n';
    expect(() =>
      applyEdits(file, [
        { oldText: 'x', newText: 'y' },
        { oldText: '  return items.reduce((s, i) => s + i.cost, 0);', newText: '' },
      ]),
    ).toThrow(/edit 1 of 2/);
    try {
      applyEdits(file, [{ oldText: 'function total(items) {\n  return items.reduce((s, i) => s + i.cost, 0);', newText: '' }]);
      expect.unreachable();
    } catch (error) {
      const message = (error as Error).message;
      expect(message).toContain('nothing was written');
      expect(message).toContain('closest text is at lines 2-3');
      expect(message).toContain('-  return items.reduce((s, i) => s + i.cost, 0);');
      expect(message).toContain('+  return items.reduce((s, i) => s + i.price, 0);');
    }
    expect(nearestMatch('alpha\nbeta\ngamma\n', 'betta')).toMatchObject({ startLine: 2, endLine: 2 });
  });

  test('edit_file keeps CRLF line endings and the BOM byte for byte (the official server rewrites CRLF as LF)', async () => {
    const bom = Buffer.from([0xef, 0xbb, 0xbf]);
    const path = tree.write('win.txt', Buffer.concat([bom, Buffer.from('a\r\nb\r\nc\r\n')]));
    const { call } = await connect(tree, 'legacy');
    const result = await call('edit_file', { path, edits: [{ oldText: 'b', newText: 'B\nB2' }] });
    expect(result.structuredContent).toMatchObject({ lineEnding: 'crlf', bom: true, written: true });
    expect(readFileSync(path)).toEqual(Buffer.concat([bom, Buffer.from('a\r\nB\r\nB2\r\nc\r\n')]));
    // An oldText sent with CRLF matches too.
    await call('edit_file', { path, edits: [{ oldText: 'B2\r\nc', newText: 'C' }] });
    expect(readFileSync(path)).toEqual(Buffer.concat([bom, Buffer.from('a\r\nB\r\nC\r\n')]));
  });

  test('edit_file refuses binary and non-UTF-8 files and writes nothing when an edit fails', async () => {
    const binary = tree.write('bin.dat', Buffer.from([0x00, 0x61, 0x62]));
    const latin1 = tree.write('latin1.txt', Buffer.from([0x63, 0x61, 0x66, 0xe9, 0x0a]));
    const text = tree.write('t.txt', 'one\ntwo\n');
    const { call } = await connect(tree, 'modern');
    expect(errorCode(await call('edit_file', { path: binary, edits: [{ oldText: 'ab', newText: 'x' }] }))).toBe('binary_file');
    expect(errorCode(await call('edit_file', { path: latin1, edits: [{ oldText: 'caf', newText: 'x' }] }))).toBe('binary_file');
    const failed = await call('edit_file', {
      path: text,
      edits: [
        { oldText: 'one', newText: '1' },
        { oldText: 'three', newText: '3' },
      ],
    });
    expect(errorCode(failed)).toBe('no_match');
    expect(textOf(failed)).toContain('edit 2 of 2');
    expect(readFileSync(text, 'utf8')).toBe('one\ntwo\n');
    expect(errorCode(await call('read_text_file', { path: binary }))).toBe('binary_file');
  });
});
