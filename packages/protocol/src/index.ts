export * from './versions.js';
export * from './errors.js';
export * from './messages.js';
export * from './meta.js';
export * from './methods.js';
export type * from './method-types.js';
export type * from './era-types.js';
export type * from './generated/index.js';
export type {
  MessageKind,
  MessageValidationOptions,
  MessageValidationResult,
  RevisionValidators,
  ValidationIssue,
  ValidationResult,
} from './validators/types.js';
// messages.ts and the generated types both define RequestId (same shape); this names the one exported.
export type { RequestId } from './messages.js';
export * from './request-targets.js';
export * from './header-value.js';
export * from './x-mcp-header.js';
export * from './modern-envelope.js';
