/**
 * Validators of every MCP 2026-07-28 definition (the modern, stateless revision): `@wiremcp/protocol/validators/2026-07-28`.
 *
 * Backed by a large generated module (Ajv standalone code, no runtime dependency): import this path only where
 * messages are validated, or load it lazily with `loadValidators('2026-07-28')` from `@wiremcp/protocol/validators`.
 */
import { compiledValidators, definitionNames, errorCodeDefinitions, type DefinitionName } from './generated/2026-07-28.js';
import { createRevisionValidators } from './revision-validators.js';
import type { RevisionValidators } from './types.js';

export type { DefinitionName };
export type {
  MessageKind,
  MessageValidationOptions,
  MessageValidationResult,
  RevisionValidators,
  ValidationIssue,
  ValidationResult,
} from './types.js';

/** The 2026-07-28 validators as one object (what `loadValidators('2026-07-28')` resolves to). */
export const validators: RevisionValidators<DefinitionName> = createRevisionValidators(
  '2026-07-28',
  compiledValidators,
  definitionNames,
  errorCodeDefinitions,
);

/** The revision these validators check. */
export const revision: '2026-07-28' = '2026-07-28';

/** Every 2026-07-28 definition name, in schema order. */
export const definitions: readonly DefinitionName[] = validators.definitions;

/** True when `name` is a 2026-07-28 definition. */
export const isDefinitionName: RevisionValidators<DefinitionName>['isDefinitionName'] = validators.isDefinitionName;

/** Validates `value` against one 2026-07-28 definition; throws a `TypeError` for an unknown definition name. */
export const validate: RevisionValidators<DefinitionName>['validate'] = validators.validate;

/** Validates a whole 2026-07-28 JSON-RPC message: the envelope, then the definition of its method when known. */
export const validateMessage: RevisionValidators<DefinitionName>['validateMessage'] = validators.validateMessage;
