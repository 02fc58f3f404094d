/**
 * The §A13 table and its domain logic, independent of MCP: load and validate `data/a13.yaml`, then answer
 * the grammar tools (conjugate, lookup_irregular_verb, lookup_spanish, check_subject_verb_agreement) and
 * render the markdown resources. Every answer is a lookup in indices built at load time.
 */
export { checkSubjectVerbAgreement, type AgreementResult, type CheckedAgreement, type PluralSubjectResult } from './check-agreement.js';
export { classifySubject, type SubjectClass } from './classify-subject.js';
export { conjugate } from './conjugate.js';
export { FormNotFoundError, GrammarError, InvalidArgumentError, OutOfScopeError, type GrammarErrorCode } from './grammar-error.js';
export { DEFAULT_TABLE_URL, loadTable } from './load-table.js';
export { listIrregularVerbs, lookupIrregularVerb } from './lookup-irregular-verb.js';
export { lookupSpanish, type SpanishLookup } from './lookup-spanish.js';
export { PERSON_ALIASES, TENSE_ALIASES, normalizePerson, normalizeTense, normalizeText, normalizeVerb } from './normalize.js';
export { parseTable } from './parse-table.js';
export { renderTableMarkdown, renderVerbMarkdown } from './render-markdown.js';
export { preferredRow, type EnglishFormEntry, type PrincipalParts, type Table, type TableRow, type VerbEntry } from './table.js';
export { TableError } from './table-error.js';
export { A13_FILE_SCHEMA } from './table-schema.js';
export {
  PERSONS,
  PERSON_LABELS,
  PERSON_PRONOUNS,
  PERSON_SPELLINGS,
  TENSES,
  TENSE_LABELS,
  TENSE_SPELLINGS,
  VERBS,
  isPerson,
  isTense,
  isVerb,
  rowKey,
  type Person,
  type Tense,
  type Verb,
} from './vocabulary.js';
