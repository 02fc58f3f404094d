/**
 * Turning Ajv's error objects into {@link ValidationIssue}s with readable messages.
 */
import type { CompiledValidatorError } from './compiled-validator.js';
import type { ValidationIssue } from './types.js';

function show(value: unknown): string {
  return JSON.stringify(value) ?? String(value);
}

function messageOf(error: CompiledValidatorError): string {
  const base = error.message ?? `must pass "${error.keyword}"`;
  // Ajv leaves the expected values in `params`; put them in the message so it reads on its own.
  if (error.keyword === 'const') return `${base} ${show(error.params['allowedValue'])}`;
  if (error.keyword === 'enum') {
    const allowed = error.params['allowedValues'];
    return Array.isArray(allowed) ? `${base}: ${allowed.map(show).join(', ')}` : base;
  }
  return base;
}

/** Converts Ajv errors to issues, prefixing every path with `prefix` (a JSON Pointer, `''` for none). */
export function toIssues(errors: readonly CompiledValidatorError[] | null | undefined, prefix = ''): ValidationIssue[] {
  if (!errors) return [];
  return errors.map((error) => ({ path: prefix + error.instancePath, message: messageOf(error), keyword: error.keyword }));
}

/** One line per issue, `<path>: <message>` (`(root)` for the value itself): for logs and test failure output. */
export function formatValidationIssues(issues: readonly ValidationIssue[]): string {
  return issues.map((issue) => `${issue.path === '' ? '(root)' : issue.path}: ${issue.message}`).join('\n');
}
