/** The `lookup_spanish` tool's logic: from an English form to its Spanish translation(s). */
import { normalizeText } from './normalize.js';
import type { Table, TableRow } from './table.js';
import { unknownFormError } from './unknown-form.js';
import { InvalidArgumentError } from './grammar-error.js';

/** The answer of {@link lookupSpanish}. */
export interface SpanishLookup {
  /** The form looked up, normalized (trimmed, lowercased, single spaces, no leading "to"). */
  readonly english: string;
  /** The headline translation: `primary.spanish` (`ate` → `comió`). */
  readonly spanish: string;
  /** The row chosen as the headline answer (3rd singular preferred, then the earlier tense). */
  readonly primary: TableRow;
  /** Every row with this English form, in table order (`ate` → comí, comiste, comió). */
  readonly matches: readonly TableRow[];
}

/**
 * Every row whose English form is `englishForm` (case-insensitive, trimmed, whitespace collapsed; a leading
 * "to " is dropped, so `to eat` finds the infinitive; `will eat` is a form of its own), with a headline
 * answer: 3rd singular first, then 1st, then 2nd, and among those the earlier tense in table order — so
 * `ate` → `comió`, `eat` → `comer`, `had` → `tuvo`, `were` → `fuiste`. The form is the verb form only, as in
 * the table (no subject pronoun). Throws `FormNotFoundError` for a form of a §A13 verb that is not in the
 * table (`goed`), `OutOfScopeError` (`verb 'ran' is out of scope (§A13)`) for anything else,
 * `InvalidArgumentError` for an empty string. Precomputed at load: O(1).
 */
export function lookupSpanish(table: Table, englishForm: string): SpanishLookup {
  const text = normalizeText(englishForm);
  const english = table.rowsByEnglish.has(text) ? text : text.replace(/^to /, '');
  if (english === '')
    throw new InvalidArgumentError('english_form', englishForm, 'english_form must be a non-empty English verb form, e.g. "ate"');
  const entry = table.rowsByEnglish.get(english);
  if (!entry) throw unknownFormError(table, english);
  return { english, spanish: entry.primary.spanish, primary: entry.primary, matches: entry.rows };
}
