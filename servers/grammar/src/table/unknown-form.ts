/**
 * Explains an English form the table does not contain. Two different answers are right depending on the
 * form: `goed` or `has eaten` belong to a §A13 verb (say which forms exist), `runs` does not (out of scope).
 */
import { FormNotFoundError, OutOfScopeError, type GrammarError } from './grammar-error.js';
import type { Table } from './table.js';
import { isVerb, type Verb } from './vocabulary.js';

/**
 * The error for a normalized English `form` that matches no row. If a word of the form is a table form
 * (`has eaten` → eat) or looks like a regular inflection of a §A13 verb (`goed`, `eated`, `haves` → go, eat,
 * have), a {@link FormNotFoundError} lists that verb's forms. Otherwise an {@link OutOfScopeError} quotes the
 * form without a leading "will"/"to": `verb 'runs' is out of scope (§A13)`.
 */
export function unknownFormError(table: Table, form: string): GrammarError {
  const verb = verbBehind(table, form);
  if (verb) {
    return new FormNotFoundError(
      form,
      `'${form}' is not a form of '${verb}' in the §A13 table; its forms are: ${formsOf(table, verb).join(', ')}`,
    );
  }
  return new OutOfScopeError(form.replace(/^(will|to) /, ''));
}

/** The distinct English forms of a verb in table order: eat, eats, ate, eaten, will eat. */
export function formsOf(table: Table, verb: Verb): string[] {
  return [...new Set(table.rows.filter((row) => row.verb === verb).map((row) => row.english))];
}

/** The §A13 verb a form seems to belong to, looking at its words from the last (the main verb) backwards. */
export function verbBehind(table: Table, form: string): Verb | undefined {
  const words = form.split(' ').filter((w) => w !== 'will' && w !== 'to');
  for (const word of words.reverse()) {
    const known = table.verbsByWord.get(word);
    if (known && known.length > 0) return known[0];
    const lemma = regularLemmas(word).find(isVerb);
    if (lemma) return lemma;
  }
  return undefined;
}

/**
 * Bases a word could come from by a regular -s/-es/-ies/-ed/-d/-ied/-ing ending; the word itself first.
 * Bare -d is only stripped after an e and when three letters remain (liked → like, seed → see), so that
 * unrelated words such as "bed" are not taken for a form of "be".
 */
function regularLemmas(word: string): string[] {
  const out = [word];
  const strip = (suffix: string, add = '', minBase = 2): void => {
    const base = word.slice(0, -suffix.length);
    if (word.endsWith(suffix) && base.length >= minBase) out.push(base + add);
  };
  strip('s');
  strip('es');
  strip('ies', 'y');
  strip('ed');
  if (word.endsWith('ed')) strip('d', '', 3);
  strip('ied', 'y');
  strip('ing');
  strip('ing', 'e');
  return out;
}
