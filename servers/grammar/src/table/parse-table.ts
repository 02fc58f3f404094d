/**
 * Parses and validates the text of a table file: YAML syntax, then the JSON Schema (ajv), then the
 * table-level invariants; only a table that passes all three is built. Every problem found is reported at
 * once in a `TableError`.
 */
import { checkInvariants } from './check-invariants.js';
import { describeSchemaErrors } from './describe-schema-error.js';
import { buildTable, type Table } from './table.js';
import { TableError } from './table-error.js';
import { createTableLocator, type TableLocator } from './table-locator.js';
import type { RawTableFile } from './table-schema.js';
import { parseSimpleYaml } from './simple-yaml.js';
import { validateTableFile } from './validate-table-file.js';
import { yamlLibrary } from './yaml-library.js';

/** How many YAML syntax errors are reported before the rest are summarized. */
const MAX_YAML_ERRORS = 3;

/**
 * Parses `text` (the contents of a §A13 table file) into a {@link Table}. `fileName` is used only in
 * messages. Throws a {@link TableError} listing every problem, each naming the file and, where there is
 * one, the row: `a13.yaml:57: row 42 (eat/past_simple/3sg): 'spanish' must be a non-empty string …`,
 * `a13.yaml: missing row go/simple_future/2sg`, `a13.yaml:130: row 120 duplicates row 17 (be/present_simple/1sg)`,
 * `a13.yaml:479:3: row 279 (eat/past_simple/3sg): invalid YAML: …`. Row numbers are 1-based positions in `rows`.
 */
export function parseTable(text: string, fileName: string): Table {
  return parseValidTable(text, fileName) ?? parseAnyTable(text, fileName);
}

/** Locations are only needed to word problems; a table read by the fast path has none to report. */
const NO_LOCATION: TableLocator = { at: () => '', entry: () => '', entryAt: () => [], lineOf: () => undefined };

/**
 * The fast path: a table in the plain YAML subset (`parseSimpleYaml`) that passes the schema and the invariants.
 * `undefined` for anything else, which `parseAnyTable` then parses with the `yaml` library and words every
 * problem of: the two paths accept the same tables and build the same data.
 */
function parseValidTable(text: string, fileName: string): Table | undefined {
  const data = parseSimpleYaml(text);
  if (data === undefined || validateTableFile(data).length > 0) return undefined;
  const noBadEntries = new Set<number>();
  if (checkInvariants({ fileName, data, locator: NO_LOCATION, badRows: noBadEntries, badVerbs: noBadEntries }).length > 0) return undefined;
  const file = data as unknown as RawTableFile;
  return buildTable({ fileName, version: file.version, description: file.description, source: file.source }, file.verbs, file.rows);
}

/** The general path: YAML syntax, then the JSON Schema, then the invariants, every problem located. */
function parseAnyTable(text: string, fileName: string): Table {
  const { LineCounter, parseDocument } = yamlLibrary();
  const lineCounter = new LineCounter();
  // prettyErrors off: we format the location ourselves; uniqueKeys (the default) rejects `{ verb: a, verb: b }`.
  const doc = parseDocument(text, { lineCounter, prettyErrors: false, uniqueKeys: true });
  const locator = createTableLocator(fileName, doc, lineCounter);
  if (doc.errors.length > 0) {
    // After the first syntax error the parser often reports the rest of the file token by token; the first
    // few errors are the useful ones.
    const shown = doc.errors.slice(0, MAX_YAML_ERRORS).map((error) => {
      const { line, col } = lineCounter.linePos(error.pos[0]);
      const entry = locator.entry(locator.entryAt(error.pos[0]));
      return `${fileName}:${line}:${col}: ${entry === '' ? '' : `${entry}: `}invalid YAML: ${error.message}`;
    });
    const rest = doc.errors.length - shown.length;
    if (rest > 0) shown.push(`${fileName}: ${rest} more YAML error${rest === 1 ? '' : 's'} after these (often consequences of the first)`);
    throw new TableError(fileName, shown);
  }

  let data: unknown;
  try {
    data = doc.toJS();
  } catch (error) {
    // toJS throws on alias abuse (more than maxAliasCount expansions) and similar structural problems.
    throw new TableError(fileName, [`${fileName}: invalid YAML: ${(error as Error).message}`]);
  }

  const schemaProblems = describeSchemaErrors(validateTableFile(data));
  const problems = schemaProblems.map((p) => `${locator.at(p.path)}: ${p.message}`);
  const badIndices = (list: string): Set<number> =>
    new Set(schemaProblems.flatMap((p) => (p.path[0] === list && typeof p.path[1] === 'number' ? [p.path[1]] : [])));
  problems.push(...checkInvariants({ fileName, data, locator, badRows: badIndices('rows'), badVerbs: badIndices('verbs') }));
  if (problems.length > 0) throw new TableError(fileName, problems);

  const file = data as RawTableFile;
  return buildTable({ fileName, version: file.version, description: file.description, source: file.source }, file.verbs, file.rows);
}
