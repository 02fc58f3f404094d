/**
 * Validators of every MCP 2025-03-26 definition (the only revision with JSON-RPC batches): `@wiremcp/protocol/validators/2025-03-26`.
 *
 * Backed by a large generated module (Ajv standalone code, no runtime dependency): import this path only where
 * messages are validated, or load it lazily with `loadValidators('2025-03-26')` from `@wiremcp/protocol/validators`.
 */
import { compiledValidators, definitionNames, errorCodeDefinitions, type DefinitionName } from './generated/2025-03-26.js';
import { createRevisionValidators } from './revision-validators.js';
import type { RevisionValidators } from './types.js';

export type { DefinitionName };
export type * from './types.js';

/**
 * The 2025-03-26 validators as one object (what `loadValidators('2025-03-26')` resolves to); its members are also
 * exported one by one below (see `RevisionValidators` for each one's contract).
 */
export const validators: RevisionValidators<DefinitionName> = createRevisionValidators(
  '2025-03-26',
  compiledValidators,
  definitionNames,
  errorCodeDefinitions,
);

/** The revision these validators check. */
export const revision = '2025-03-26' as const;

export const { definitions, isDefinitionName, validate, validateMessage } = validators;
