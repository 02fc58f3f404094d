/**
 * The shape of an Ajv standalone validation function as the generated modules use it. Internal: the public API
 * (`validate`, `validateMessage`) turns its errors into {@link ValidationIssue}s.
 */

/** One error object as Ajv reports it (only the fields wiremcp reads). */
export interface CompiledValidatorError {
  readonly instancePath: string;
  readonly schemaPath: string;
  readonly keyword: string;
  readonly params: Readonly<Record<string, unknown>>;
  readonly message?: string;
}

/** A compiled validator: returns whether `data` is valid and leaves the errors of the last call on `.errors`. */
export interface CompiledValidator {
  (data: unknown): boolean;
  errors?: readonly CompiledValidatorError[] | null;
}

/** A definition that pins one error code: `error` describes the error object, `response` the whole response. */
export interface ErrorCodeDefinition<Name extends string = string> {
  readonly definition: Name;
  readonly shape: 'error' | 'response';
}
