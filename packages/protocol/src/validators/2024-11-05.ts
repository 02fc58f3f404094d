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
export type * from './types.js';

/**
 * The 2024-11-05 validators as one object (what `loadValidators('2024-11-05')` resolves to); its members are also
 * exported one by one below (see `RevisionValidators` for each one's contract).
 */
export const validators: RevisionValidators<DefinitionName> = createRevisionValidators(
  '2024-11-05',
  compiledValidators,
  definitionNames,
  errorCodeDefinitions,
);

/** The revision these validators check. */
export const revision = '2024-11-05' as const;

export const { definitions, isDefinitionName, validate, validateMessage } = validators;
