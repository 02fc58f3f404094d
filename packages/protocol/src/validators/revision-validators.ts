/**
 * Wraps one revision's generated validator table into the public {@link RevisionValidators} API.
 */
import type { ProtocolVersion } from '../versions.js';
import type { CompiledValidator, ErrorCodeDefinition } from './compiled-validator.js';
import { toIssues } from './issues.js';
import { createMessageValidator } from './message.js';
import type { RevisionValidators, ValidationResult } from './types.js';

/** Builds the validators of `revision` from its generated tables (see src/validators/generated/<revision>.ts). */
export function createRevisionValidators<Name extends string>(
  revision: ProtocolVersion,
  compiled: Readonly<Record<Name, CompiledValidator>>,
  definitions: readonly Name[],
  errorCodeDefinitions: Readonly<Record<string, ErrorCodeDefinition<Name>>>,
): RevisionValidators<Name> {
  const known = new Set<string>(definitions);
  const isDefinitionName = (name: string): name is Name => known.has(name);
  const validate = (definition: Name, value: unknown): ValidationResult => {
    // Checked at runtime too: callers from JavaScript, or with names read off the wire, get a clear error rather
    // than `undefined is not a function`.
    if (!known.has(definition)) throw new TypeError(`MCP ${revision} has no definition named ${JSON.stringify(definition)}`);
    const check = compiled[definition];
    if (check(value)) return { valid: true, errors: [] };
    return { valid: false, errors: toIssues(check.errors) };
  };
  const validateMessage = createMessageValidator({
    revision,
    isDefinitionName,
    validate: validate as (definition: string, value: unknown) => ValidationResult,
    errorCodeDefinitions,
  });
  return Object.freeze({ revision, definitions, isDefinitionName, validate, validateMessage });
}
