/**
 * The errors the domain functions throw for a request they cannot answer. They are expected outcomes, not
 * bugs: the MCP layer turns every `GrammarError` into a tool result with `isError: true` and the message as
 * its text, so each message is written for the end user and the model reading it.
 */

/** Why a domain request failed. */
export type GrammarErrorCode = 'OUT_OF_SCOPE' | 'INVALID_ARGUMENT' | 'FORM_NOT_FOUND';

/** Base class of every domain error; `code` says which kind, `message` is user-facing. */
export class GrammarError extends Error {
  /** The kind of failure. */
  readonly code: GrammarErrorCode;

  constructor(code: GrammarErrorCode, message: string) {
    super(message);
    this.name = 'GrammarError';
    this.code = code;
  }
}

/**
 * A verb that is not one of the 20 §A13 verbs. The message is exactly `verb 'run' is out of scope (§A13)`,
 * with the verb trimmed and lowercased (the seeds' wire trace expects that text verbatim).
 */
export class OutOfScopeError extends GrammarError {
  /** The verb as it appears in the message: trimmed and lowercased. */
  readonly verb: string;

  constructor(verb: string) {
    const shown = verb.trim().toLowerCase();
    super('OUT_OF_SCOPE', `verb '${shown}' is out of scope (§A13)`);
    this.name = 'OutOfScopeError';
    this.verb = shown;
  }
}

/**
 * An argument that is not acceptable (an unknown tense or person, an empty string, a plural person). The
 * message names the argument, echoes the value and lists what is accepted.
 */
export class InvalidArgumentError extends GrammarError {
  /** The argument's name (`tense`, `person`, `subject`, …). */
  readonly argument: string;
  /** The value as given. */
  readonly value: string;

  constructor(argument: string, value: string, message: string) {
    super('INVALID_ARGUMENT', message);
    this.name = 'InvalidArgumentError';
    this.argument = argument;
    this.value = value;
  }
}

/**
 * An English form that is not in the table although its verb may be (`goed`, `will ate`), or that matches no
 * row at all in a lookup. The message names the form and, when the verb is known, its valid forms.
 */
export class FormNotFoundError extends GrammarError {
  /** The form as normalized for the lookup (trimmed, lowercased, single spaces). */
  readonly form: string;

  constructor(form: string, message: string) {
    super('FORM_NOT_FOUND', message);
    this.name = 'FormNotFoundError';
    this.form = form;
  }
}
