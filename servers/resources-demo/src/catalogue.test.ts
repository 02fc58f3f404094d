import { cpSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterEach, describe, expect, test } from 'vitest';
import { DATA_DIR, isTextMimeType, loadCatalogue } from './catalogue.js';
import { parseElements } from './elements.js';

const dirs: string[] = [];
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

/** A copy of data/ whose manifest is `edit`ed, as a directory URL. */
function dataWith(edit: (manifest: { files: Array<Record<string, unknown>> }) => void): URL {
  const dir = mkdtempSync(join(tmpdir(), 'resources-demo-'));
  dirs.push(dir);
  cpSync(new URL('.', DATA_DIR), dir, { recursive: true });
  const manifest = JSON.parse(readFileSync(join(dir, 'catalogue.json'), 'utf8'));
  edit(manifest);
  writeFileSync(join(dir, 'catalogue.json'), JSON.stringify(manifest));
  return pathToFileURL(`${dir}/`);
}

describe('the catalogue', () => {
  test('every file of the manifest, with its size from disk and text or base64 contents', () => {
    const catalogue = loadCatalogue();
    expect(catalogue.files.map((file) => file.path)).toEqual([
      'docs/welcome.md',
      'docs/uri-templates.md',
      'docs/caching.md',
      'docs/glossary.txt',
      'images/logo.svg',
      'images/pixel-art/heart.png',
      'images/pixel-art/star.png',
      'tables/elements.csv',
    ]);
    for (const file of catalogue.files) {
      expect(file.size).toBe(statSync(new URL(file.path, DATA_DIR)).size);
      const bytes = readFileSync(new URL(file.path, DATA_DIR));
      if (isTextMimeType(file.mimeType)) expect(file.text).toBe(bytes.toString('utf8'));
      else expect(Buffer.from(file.blob!, 'base64').equals(bytes)).toBe(true);
    }
    expect(catalogue.file('images/pixel-art/heart.png')).toMatchObject({
      folder: 'images',
      name: 'pixel-art/heart.png',
      mimeType: 'image/png',
    });
    expect(catalogue.folders).toEqual(['docs', 'images', 'images/pixel-art', 'tables']);
  });

  test('text MIME types', () => {
    expect(['text/markdown', 'text/csv', 'application/json', 'image/svg+xml', 'application/ld+json'].every(isTextMimeType)).toBe(true);
    expect(['image/png', 'application/octet-stream', 'application/pdf'].some(isTextMimeType)).toBe(false);
  });

  test('a broken manifest is refused with the entry and the problem', () => {
    expect(() => loadCatalogue(dataWith((m) => (m.files[0]!.path = '../../etc/passwd')))).toThrow(
      /files\[0\]\.path is not a catalogue path/,
    );
    expect(() => loadCatalogue(dataWith((m) => (m.files[1]!.priority = 2)))).toThrow(/files\[1\]\.priority must be in \[0, 1\]/);
    expect(() => loadCatalogue(dataWith((m) => (m.files[2]!.audience = ['everyone'])))).toThrow(/files\[2\]\.audience/);
    expect(() => loadCatalogue(dataWith((m) => (m.files[3]!.lastModified = 'yesterday')))).toThrow(/files\[3\]\.lastModified/);
    expect(() => loadCatalogue(dataWith((m) => (m.files[4]!.path = 'images/missing.png')))).toThrow(
      /files\[4\]: cannot read images\/missing\.png \(ENOENT\)/,
    );
    expect(() => loadCatalogue(dataWith((m) => m.files.push({ ...m.files[0]! })))).toThrow(/a path is listed twice/);
    expect(() => loadCatalogue(new URL('file:///nonexistent-resources-demo-data/'))).toThrow(/cannot read the manifest/);
  });
});

describe('the periodic table', () => {
  test('118 elements, numbered in order; the f-block has no group', () => {
    const elements = parseElements(readFileSync(new URL('tables/elements.csv', DATA_DIR), 'utf8'));
    expect(elements).toHaveLength(118);
    expect(elements.filter((element) => element.group === undefined)).toHaveLength(28);
    expect(elements.filter((element) => element.group === 18).map((element) => element.symbol)).toEqual([
      'He',
      'Ne',
      'Ar',
      'Kr',
      'Xe',
      'Rn',
      'Og',
    ]);
    expect(new Set(elements.map((element) => element.symbol)).size).toBe(118);
  });

  test('a malformed table is refused with its row', () => {
    expect(() => parseElements('number,symbol\n1,H')).toThrow(/unexpected header/);
    expect(() => parseElements('number,symbol,name,period,group\n1,H,Hydrogen,1,1\n3,Li,Lithium,2,1')).toThrow(/row 3 is malformed/);
    expect(() => parseElements('number,symbol,name,period,group\n1,h,Hydrogen,1,1')).toThrow(/row 2 is malformed/);
  });
});
