/**
 * The public shapes of the validators (type-only, so the main entry can re-export them at no cost).
 */
import type { ProtocolVersion } from '../versions.js';

/** One reason a value failed validation. */
export interface ValidationIssue {
  /** JSON Pointer (RFC 6901) to the offending value inside the validated one; `''` is the value itself. */
  readonly path: string;
  /** A readable explanation, e.g. `must have required property 'name'` or `must be equal to constant "2.0"`. */
  readonly message: string;
  /** The JSON Schema keyword that failed (`required`, `type`, `const`, `anyOf`, …) or a wiremcp check (`batch`, `kind`, `direction`). */
  readonly keyword?: string;
}

/** The outcome of a validation: `valid` with no errors, or not valid with at least one error. */
export interface ValidationResult {
  readonly valid: boolean;
  readonly errors: ValidationIssue[];
}

/** What a JSON-RPC message turned out to be. `invalid`: not recognisable as any JSON-RPC message. */
export type MessageKind = 'request' | 'notification' | 'result' | 'error' | 'batch' | 'invalid';

/** Options of `validateMessage`. */
export interface MessageValidationOptions {
  /** Who sent the message. When given, a method the sender may not send in the revision is reported (`direction`). */
  readonly from?: 'client' | 'server';
  /**
   * For a result response: the method of the request it answers. The `result` is then checked against that
   * method's result definition (or `InputRequiredResult` when it says `resultType: "input_required"`).
   */
  readonly method?: string;
}

/** The outcome of validating a whole JSON-RPC message. */
export interface MessageValidationResult extends ValidationResult {
  readonly kind: MessageKind;
  /** The method of a request or notification. */
  readonly method?: string;
  /** For requests and notifications: whether the revision defines the method (unknown methods are valid JSON-RPC). */
  readonly knownMethod?: boolean;
  /** The definitions the message was checked against, outermost first (`['JSONRPCRequest', 'CallToolRequest']`). */
  readonly definitions: readonly string[];
  /** For batches (2025-03-26 only): one result per element. */
  readonly items?: readonly MessageValidationResult[];
}

/** Every validator of one revision, as returned by `loadValidators` or exported by `validators/<revision>`. */
export interface RevisionValidators<Name extends string = string> {
  /** The revision these validators check. */
  readonly revision: ProtocolVersion;
  /** Every definition name of the revision, in schema order. */
  readonly definitions: readonly Name[];
  /** True when `name` is a definition of the revision. */
  isDefinitionName(name: string): name is Name;
  /** Validates `value` against one definition. Throws a `TypeError` for a name the revision does not define. */
  validate(definition: Name, value: unknown): ValidationResult;
  /** Validates a whole JSON-RPC message (or a 2025-03-26 batch): the envelope, then the method's own definition. */
  validateMessage(message: unknown, options?: MessageValidationOptions): MessageValidationResult;
}
