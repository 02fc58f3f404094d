/**
 * `$jsonSchema`: validates a value against a JSON Schema carried by the pattern (typically a tool's
 * `outputSchema` captured from `tools/list`), with Ajv. Schemas declaring draft-07 use the draft-07 dialect;
 * everything else uses 2020-12, the MCP default since 2025-11-25.
 */
import { Ajv, type ValidateFunction } from 'ajv';
import { Ajv2020 } from 'ajv/dist/2020.js';

let draft07: Ajv | undefined;
let draft2020: Ajv2020 | undefined;
const compiled = new Map<string, ValidateFunction | Error>();

function compilerFor(schema: unknown): Ajv | Ajv2020 {
  const dialect = typeof schema === 'object' && schema !== null ? (schema as Record<string, unknown>)['$schema'] : undefined;
  // Formats are annotations here: MCP servers use many, and checking them is not what the step asks.
  const options = { strict: false, allErrors: false, validateFormats: false } as const;
  if (typeof dialect === 'string' && /draft-0[4-7]/.test(dialect)) return (draft07 ??= new Ajv(options));
  return (draft2020 ??= new Ajv2020(options));
}

/**
 * Validates `value` against `schema`. Returns readable issues (`/path: message`), empty when valid; a
 * schema that does not compile is reported as one issue rather than thrown.
 */
export function validateJsonSchema(schema: unknown, value: unknown): string[] {
  const key = JSON.stringify(schema);
  let validator = compiled.get(key);
  if (validator === undefined) {
    try {
      validator = compilerFor(schema).compile(schema as object);
    } catch (error) {
      validator = error as Error;
    }
    compiled.set(key, validator);
  }
  if (validator instanceof Error) return [`the schema does not compile: ${validator.message}`];
  if (validator(value)) return [];
  return (validator.errors ?? []).map((error) => `${error.instancePath || '(root)'}: ${error.message ?? error.keyword}`);
}
