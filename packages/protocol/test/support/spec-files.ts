/**
 * Test helpers: paths of the package and the vendored schemas and examples (read with node:fs; tests may use Node).
 */
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { PROTOCOL_VERSIONS, type ProtocolVersion } from '../../src/versions.js';

/** Absolute path of packages/protocol. */
export const PACKAGE_ROOT = fileURLToPath(new URL('../../', import.meta.url));

/** A JSON Schema node as the tests read it. */
export type SchemaNode = Record<string, unknown> & {
  $ref?: string;
  anyOf?: SchemaNode[];
  properties?: Record<string, SchemaNode>;
  required?: string[];
  const?: unknown;
};

/** The definitions (`$defs` or `definitions`) of a vendored schema. */
export function loadDefinitions(revision: ProtocolVersion): Record<string, SchemaNode> {
  const schema = JSON.parse(readFileSync(`${PACKAGE_ROOT}schemas/${revision}/schema.json`, 'utf8')) as Record<string, unknown>;
  return (schema['$defs'] ?? schema['definitions']) as Record<string, SchemaNode>;
}

/** Every revision with its definitions. */
export const SPECS = PROTOCOL_VERSIONS.map((revision) => ({ revision, defs: loadDefinitions(revision) }));

/** The directory of the 2026-07-28 example messages. */
export const EXAMPLES_DIR = `${PACKAGE_ROOT}test/fixtures/2026-07-28/examples`;
