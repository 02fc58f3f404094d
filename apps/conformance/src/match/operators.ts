/**
 * The matcher's operators and a static checker for patterns, run when a scenario is loaded so that a typo
 * (`$regexp`, `$type: str`) is reported with its file and path instead of failing (or passing) at run time.
 */

/** Every operator of the pattern language. */
export const OPERATORS: readonly string[] = [
  '$exact',
  '$type',
  '$regex',
  '$flags',
  '$absent',
  '$optional',
  '$any',
  '$oneOf',
  '$not',
  '$contains',
  '$entries',
  '$items',
  '$length',
  '$gte',
  '$gt',
  '$lte',
  '$lt',
  '$capture',
  '$match',
  '$json',
  '$jsonSchema',
  '$literal',
];

const KNOWN = new Set(OPERATORS);
const TYPE_NAMES = new Set(['string', 'number', 'integer', 'boolean', 'object', 'array', 'null']);

/**
 * True when `value` is an operator object: a non-empty object whose keys all start with `$`. (An object
 * mixing `$` keys and plain keys is rejected by {@link checkPattern}.)
 */
export function isOperatorObject(value: unknown): value is Record<string, unknown> {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return false;
  const keys = Object.keys(value);
  return keys.length > 0 && keys.every((key) => key.startsWith('$'));
}

/** A problem found in a pattern, with a JSON Pointer into the pattern. */
export interface PatternIssue {
  readonly path: string;
  readonly message: string;
}

function isTemplate(value: unknown): boolean {
  return typeof value === 'string' && /^\{\{[^{}]+\}\}$/.test(value.trim());
}

function child(path: string, key: string | number): string {
  return `${path}/${String(key).replace(/~/g, '~0').replace(/\//g, '~1')}`;
}

/**
 * Checks a pattern statically and returns every problem found (empty when fine). Template strings
 * (`{{capture.x}}`) are accepted anywhere a value is; template-only operators (`$byRevision`, `$omit`) are
 * accepted because they are resolved before matching.
 */
export function checkPattern(pattern: unknown, path = ''): PatternIssue[] {
  const issues: PatternIssue[] = [];
  walk(pattern, path, issues);
  return issues;
}

function walk(pattern: unknown, path: string, issues: PatternIssue[]): void {
  if (Array.isArray(pattern)) {
    pattern.forEach((item, index) => walk(item, child(path, index), issues));
    return;
  }
  if (typeof pattern !== 'object' || pattern === null) return;
  const entries = Object.entries(pattern as Record<string, unknown>);
  const dollar = entries.filter(([key]) => key.startsWith('$'));
  if (dollar.length === 0) {
    for (const [key, value] of entries) walk(value, child(path, key), issues);
    return;
  }
  // Template-level operators are resolved before matching; their branches are patterns themselves.
  if ('$byRevision' in (pattern as object)) {
    if (entries.length !== 1) issues.push({ path, message: '$byRevision must be the only key of its object' });
    const branches = (pattern as Record<string, unknown>)['$byRevision'];
    if (typeof branches !== 'object' || branches === null || Array.isArray(branches)) {
      issues.push({ path: child(path, '$byRevision'), message: '$byRevision takes an object keyed by revision, era, range or default' });
    } else {
      for (const [key, value] of Object.entries(branches)) walk(value, child(child(path, '$byRevision'), key), issues);
    }
    return;
  }
  if (dollar.length !== entries.length) {
    issues.push({
      path,
      message: `an object cannot mix operators (${dollar.map(([k]) => k).join(', ')}) with plain keys; nest the plain keys under $match or $exact`,
    });
    return;
  }
  for (const [key, value] of entries) checkOperator(key, value, path, issues);
}

function checkOperator(key: string, value: unknown, path: string, issues: PatternIssue[]): void {
  const at = child(path, key);
  const problem = (message: string): void => void issues.push({ path: at, message });
  if (key === '$omit') return problem('$omit only makes sense in messages that are sent, not in patterns');
  if (!KNOWN.has(key)) return problem(`unknown operator ${key} (known: ${OPERATORS.join(', ')})`);
  switch (key) {
    case '$exact':
      if (typeof value !== 'object' || value === null || Array.isArray(value)) return problem('$exact takes an object pattern');
      for (const [k, v] of Object.entries(value)) walk(v, child(at, k), issues);
      return;
    case '$type': {
      const names = Array.isArray(value) ? value : [value];
      if (names.length === 0 || names.some((name) => typeof name !== 'string' || !TYPE_NAMES.has(name))) {
        problem(`$type takes one of ${[...TYPE_NAMES].join(', ')} (or a list of them)`);
      }
      return;
    }
    case '$regex':
      if (typeof value !== 'string') return problem('$regex takes a string');
      try {
        new RegExp(value);
      } catch (error) {
        problem(`invalid regular expression: ${(error as Error).message}`);
      }
      return;
    case '$flags':
      if (typeof value !== 'string' || !/^[dgimsuy]*$/.test(value)) problem('$flags takes regular expression flags such as "i"');
      return;
    case '$absent':
      if (typeof value !== 'boolean') problem('$absent takes true or false');
      return;
    case '$any':
      if (value !== true) problem('$any takes true');
      return;
    case '$oneOf':
    case '$contains':
      if (!Array.isArray(value) || value.length === 0) return problem(`${key} takes a non-empty list of patterns`);
      value.forEach((item, index) => walk(item, child(at, index), issues));
      return;
    case '$length':
      if (typeof value === 'number') {
        if (!Number.isInteger(value) || value < 0) problem('$length takes a non-negative integer or {min, max}');
        return;
      }
      if (
        typeof value !== 'object' ||
        value === null ||
        Array.isArray(value) ||
        Object.keys(value).some((k) => k !== 'min' && k !== 'max')
      ) {
        problem('$length takes a non-negative integer or {min, max}');
      }
      return;
    case '$gte':
    case '$gt':
    case '$lte':
    case '$lt':
      if (typeof value !== 'number' && !isTemplate(value)) problem(`${key} takes a number (or a {{…}} template resolving to one)`);
      return;
    case '$capture':
      if (typeof value !== 'string' || !/^[A-Za-z_][A-Za-z0-9_]*$/.test(value))
        problem('$capture takes a name made of letters, digits and _');
      return;
    case '$jsonSchema':
      if (typeof value !== 'object' && typeof value !== 'boolean' && !(typeof value === 'string' && value.includes('{{'))) {
        problem('$jsonSchema takes a JSON Schema (or a {{capture.x}} holding one)');
      }
      return;
    case '$literal':
      return;
    default:
      // $match, $not, $optional, $items, $json: a nested pattern.
      walk(value, at, issues);
  }
}
