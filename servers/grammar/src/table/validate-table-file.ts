/**
 * Validates a parsed table file against `A13_FILE_SCHEMA` with the validator Ajv compiled ahead of time
 * (`generated/a13-validator.ts`, made by `scripts/generate-validator.mjs`): compiling it at start cost more than
 * the rest of the server's start-up, and the server validates the same schema every time.
 */
import { validateA13File } from './generated/a13-validator.js';

/** One error as Ajv reports it (options `allErrors` and `verbose`: `data` is the offending value). */
export interface SchemaError {
  readonly keyword: string;
  /** JSON Pointer to the offending value, e.g. `/rows/41/spanish`; `''` for the whole file. */
  readonly instancePath: string;
  readonly params: Readonly<Record<string, unknown>>;
  readonly message?: string;
  readonly data?: unknown;
}

/** A compiled validator: `true` when `data` is valid, otherwise `false` with the errors in `errors`. */
export interface SchemaValidator {
  (data: unknown): boolean;
  errors?: readonly SchemaError[] | null;
}

/**
 * Validates parsed YAML against `A13_FILE_SCHEMA`. Returns `[]` when valid, otherwise every error (`allErrors`,
 * `verbose`: each error carries the offending `data`).
 */
export function validateTableFile(data: unknown): SchemaError[] {
  return validateA13File(data) ? [] : [...(validateA13File.errors ?? [])];
}
