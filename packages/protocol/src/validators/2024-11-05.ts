/**
 * Validators of every MCP 2024-11-05 definition: `@wiremcp/protocol/validators/2024-11-05`.
 *
 * Backed by a large generated module (Ajv standalone code, no runtime dependency): import this path only where
 * messages are validated, or load it lazily with `loadValidators('2024-11-05')` from `@wiremcp/protocol/validators`.
 */
import { compiledValidators, definitionNames, errorCodeDefinitions, type DefinitionName } from './generated/2024-11-05.js';
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

/** The 2024-11-05 validators as one object (what `loadValidators('2024-11-05')` resolves to). */
export const validators: RevisionValidators<DefinitionName> = createRevisionValidators(
  '2024-11-05',
  compiledValidators,
  definitionNames,
  errorCodeDefinitions,
);

/** The revision these validators check. */
export const revision: '2024-11-05' = '2024-11-05';

/** Every 2024-11-05 definition name, in schema order. */
export const definitions: readonly DefinitionName[] = validators.definitions;

/** True when `name` is a 2024-11-05 definition. */
export const isDefinitionName: RevisionValidators<DefinitionName>['isDefinitionName'] = validators.isDefinitionName;

/** Validates `value` against one 2024-11-05 definition; throws a `TypeError` for an unknown definition name. */
export const validate: RevisionValidators<DefinitionName>['validate'] = validators.validate;

/** Validates a whole 2024-11-05 JSON-RPC message: the envelope, then the definition of its method when known. */
export const validateMessage: RevisionValidators<DefinitionName>['validateMessage'] = validators.validateMessage;
