/** The Ajv options the table's validator is compiled with. */
export const AJV_OPTIONS: Readonly<Record<string, unknown>>;
/** The text of src/table/generated/a13-validator.ts for `schema` (A13_FILE_SCHEMA). */
export function generateValidatorModule(schema: unknown): string;
