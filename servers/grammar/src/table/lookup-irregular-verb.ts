/** The `lookup_irregular_verb` tool's logic: principal parts of a verb, and the list of irregular ones. */
import { normalizeVerb } from './normalize.js';
import type { PrincipalParts, Table } from './table.js';

/**
 * The principal parts of any §A13 verb (base, past simple, past participle, with the Spanish infinitive
 * and participle) and whether it is irregular in English; regular verbs are answered too, with
 * `irregular: false`, so a learner can ask "is `study` irregular?". Throws `OutOfScopeError`
 * (`verb 'run' is out of scope (§A13)`) for a verb outside the table. Precomputed at load: O(1).
 */
export function lookupIrregularVerb(table: Table, verb: string): PrincipalParts {
  const parts = table.principalParts.get(normalizeVerb(verb, table));
  if (!parts) throw new Error(`table has no principal parts for '${verb}'`);
  return parts;
}

/** The principal parts of the irregular verbs, in table order (be, have, do, go, come, see, eat, write). */
export function listIrregularVerbs(table: Table): PrincipalParts[] {
  return [...table.principalParts.values()].filter((parts) => parts.irregular);
}
