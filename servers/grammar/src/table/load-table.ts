/**
 * Reads the table file from disk and parses it. The grammar server calls this once at start-up; a broken
 * file throws a `TableError` whose message the server prints on stderr before exiting non-zero.
 */
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { parseTable } from './parse-table.js';
import type { Table } from './table.js';
import { TableError } from './table-error.js';

/**
 * The bundled table, `data/a13.yaml` of this package. Resolved from this module's URL, which is two levels
 * below the package root both in `src/table/` (tests, tsx) and in `dist/table/` (the built server).
 */
export const DEFAULT_TABLE_URL: URL = new URL('../../data/a13.yaml', import.meta.url);

/**
 * Reads and parses a table file (default: {@link DEFAULT_TABLE_URL}). Messages name the file by its path
 * (a `file:` URL is converted to a path). Throws a {@link TableError} if the file cannot be read (one
 * problem naming the file and the system error) or is not a valid table (see `parseTable`).
 */
export function loadTable(path: string | URL = DEFAULT_TABLE_URL): Table {
  const fileName = path instanceof URL ? fileURLToPath(path) : path;
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (error) {
    const reason = (error as NodeJS.ErrnoException).code ?? (error as Error).message;
    throw new TableError(fileName, [`${fileName}: cannot read the table file (${reason})`]);
  }
  return parseTable(text, fileName);
}
