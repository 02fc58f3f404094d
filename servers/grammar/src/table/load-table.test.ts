import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { DEFAULT_TABLE_URL, loadTable } from './load-table.js';
import { TableError } from './table-error.js';

describe('loadTable', () => {
  it('loads the bundled data/a13.yaml by default', () => {
    const table = loadTable();
    expect(table.rows).toHaveLength(300);
    expect(table.fileName).toBe(fileURLToPath(DEFAULT_TABLE_URL));
    expect(table.fileName.endsWith(join('servers', 'grammar', 'data', 'a13.yaml'))).toBe(true);
  });

  it('accepts a path string and a file URL to the same file', () => {
    const byPath = loadTable(fileURLToPath(DEFAULT_TABLE_URL));
    const byUrl = loadTable(DEFAULT_TABLE_URL);
    expect(byPath.rows.map((r) => r.spanish)).toEqual(byUrl.rows.map((r) => r.spanish));
  });

  it('throws a TableError naming the file when it cannot be read', () => {
    const missing = join(fileURLToPath(new URL('.', DEFAULT_TABLE_URL)), 'no-such-table.yaml');
    expect(() => loadTable(missing)).toThrow(TableError);
    try {
      loadTable(missing);
    } catch (error) {
      expect((error as TableError).problems).toEqual([`${missing}: cannot read the table file (ENOENT)`]);
    }
  });
});
