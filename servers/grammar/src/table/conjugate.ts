/** The `conjugate` tool's logic: one row of the table by (verb, tense, person). */
import { normalizePerson, normalizeTense, normalizeVerb } from './normalize.js';
import type { Table, TableRow } from './table.js';
import { rowKey } from './vocabulary.js';

/**
 * The row for (verb, tense, person): its English form (`ate`) and Spanish translation (`comió`). Arguments
 * are normalized first (`past simple`, `3rd singular`, `Eat` are fine). Throws `OutOfScopeError`
 * (`verb 'run' is out of scope (§A13)`) for a verb outside the table, `InvalidArgumentError` for an unknown
 * tense or person, `FormNotFoundError` for a conjugated form given as the verb. A map lookup: O(1).
 */
export function conjugate(table: Table, verb: string, tense: string, person: string): TableRow {
  const key = rowKey(normalizeVerb(verb, table), normalizeTense(tense), normalizePerson(person));
  const row = table.rowsByKey.get(key);
  // A validated table has every key; reaching this means the Table was built without parseTable.
  if (!row) throw new Error(`table has no row ${key}`);
  return row;
}
