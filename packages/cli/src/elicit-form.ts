/**
 * The check of an elicitation answer against the server's form, shared by the answers file and the terminal.
 */
import type { ElicitParams } from '@wiremcp/client';
import { createSchemaCompiler } from '@wiremcp/json-schema';

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** The form's schema defaults for fields `content` leaves out (as the client library fills them). */
function withDefaults(params: ElicitParams, content: Record<string, unknown>): Record<string, unknown> {
  const properties = (params as { requestedSchema?: { properties?: Record<string, { default?: unknown }> } }).requestedSchema?.properties;
  const out = { ...content };
  for (const [name, property] of Object.entries(properties ?? {}))
    if (!Object.hasOwn(out, name) && isObject(property) && property.default !== undefined) out[name] = property.default;
  return out;
}

/**
 * Problems of `content` against the form's requested schema, checked with the same JSON Schema validator the
 * servers use (`@wiremcp/json-schema`); empty when it fits.
 */
export async function formProblems(params: ElicitParams, content: Record<string, unknown>): Promise<readonly string[]> {
  const schema = (params as { requestedSchema?: unknown }).requestedSchema;
  if (!isObject(schema)) return [];
  const validate = await createSchemaCompiler().compile(schema);
  return validate(withDefaults(params, content)).errors;
}
