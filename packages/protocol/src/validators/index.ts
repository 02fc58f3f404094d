/**
 * `@wiremcp/protocol/validators`: lazy access to the validators of any revision.
 *
 * Each revision's validators are a separate module (hundreds of kB of generated code); this entry loads one
 * only when asked, with a literal dynamic `import()` per revision so bundlers can split them.
 */
import type { ProtocolVersion } from '../versions.js';
import type { DefinitionName as Definition2024_11_05 } from './generated/2024-11-05.js';
import type { DefinitionName as Definition2025_03_26 } from './generated/2025-03-26.js';
import type { DefinitionName as Definition2025_06_18 } from './generated/2025-06-18.js';
import type { DefinitionName as Definition2025_11_25 } from './generated/2025-11-25.js';
import type { DefinitionName as Definition2026_07_28 } from './generated/2026-07-28.js';
import type { MessageValidationOptions, MessageValidationResult, RevisionValidators } from './types.js';

export { formatValidationIssues } from './issues.js';
export type {
  MessageKind,
  MessageValidationOptions,
  MessageValidationResult,
  RevisionValidators,
  ValidationIssue,
  ValidationResult,
} from './types.js';

/** The definition names of each revision. */
export interface DefinitionNamesByRevision {
  '2024-11-05': Definition2024_11_05;
  '2025-03-26': Definition2025_03_26;
  '2025-06-18': Definition2025_06_18;
  '2025-11-25': Definition2025_11_25;
  '2026-07-28': Definition2026_07_28;
}

const loaded = new Map<ProtocolVersion, Promise<RevisionValidators>>();

function importRevision(revision: ProtocolVersion): Promise<RevisionValidators> {
  switch (revision) {
    case '2024-11-05':
      return import('./2024-11-05.js').then((module) => module.validators);
    case '2025-03-26':
      return import('./2025-03-26.js').then((module) => module.validators);
    case '2025-06-18':
      return import('./2025-06-18.js').then((module) => module.validators);
    case '2025-11-25':
      return import('./2025-11-25.js').then((module) => module.validators);
    case '2026-07-28':
      return import('./2026-07-28.js').then((module) => module.validators);
    default:
      return Promise.reject(new TypeError(`wiremcp has no validators for MCP revision ${JSON.stringify(revision)}`));
  }
}

/**
 * The validators of `revision`, imported on first use and cached. Rejects with a `TypeError` for a revision
 * wiremcp does not implement.
 */
export function loadValidators<R extends ProtocolVersion>(revision: R): Promise<RevisionValidators<DefinitionNamesByRevision[R]>> {
  let pending = loaded.get(revision);
  if (pending === undefined) {
    pending = importRevision(revision);
    loaded.set(revision, pending);
    // A failed import must not be cached forever.
    pending.catch(() => loaded.delete(revision));
  }
  return pending as Promise<RevisionValidators<DefinitionNamesByRevision[R]>>;
}

/** Loads the validators of `revision` (once) and validates one JSON-RPC message with them. */
export async function validateMessage(
  revision: ProtocolVersion,
  message: unknown,
  options?: MessageValidationOptions,
): Promise<MessageValidationResult> {
  return (await loadValidators(revision)).validateMessage(message, options);
}
