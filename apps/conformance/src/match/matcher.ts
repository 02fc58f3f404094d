/**
 * The pattern language of scenario expectations.
 *
 * A pattern is plain JSON with a few operators. Plain values match by equality; plain objects match as
 * subsets (every key of the pattern must match, extra keys in the actual value are fine); arrays match by
 * position with the same length. An object whose keys all start with `$` is an operator object: its
 * operators are checked together (all must hold). See README "Matcher reference" for the full table.
 *
 * Captures (`$capture`) are only committed when the whole pattern matched, so a failed alternative of
 * `$oneOf` or a failed `$contains` candidate never leaks a capture.
 */
import { isOperatorObject, OPERATORS } from './operators.js';
import { validateJsonSchema } from './json-schema-check.js';

/** One reason a value did not match, with a JSON Pointer into the actual value. */
export interface Mismatch {
  /** JSON Pointer of the offending value (`''` is the whole value). */
  readonly path: string;
  /** What the pattern wanted, readable on its own. */
  readonly expected: string;
  /** The actual value there (`undefined` when the key is missing). */
  readonly actual: unknown;
}

/** The outcome of {@link match}. */
export type MatchResult =
  | { readonly ok: true; readonly captures: Readonly<Record<string, unknown>> }
  | { readonly ok: false; readonly mismatches: readonly Mismatch[] };

/** Thrown for a pattern that is itself broken (unknown operator, wrong operand type). */
export class PatternError extends Error {
  constructor(
    message: string,
    /** JSON Pointer into the pattern. */
    readonly path: string,
  ) {
    super(message);
    this.name = 'PatternError';
  }
}

const TYPES = new Set(['string', 'number', 'integer', 'boolean', 'object', 'array', 'null']);

/** The JSON type name of a value (`integer` is reported as `number`; `$type: integer` checks it separately). */
export function jsonTypeOf(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'array';
  return typeof value;
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function pointer(path: string, key: string | number): string {
  return `${path}/${String(key).replace(/~/g, '~0').replace(/\//g, '~1')}`;
}

/** Deep JSON equality (object key order does not matter). */
export function deepEqual(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (typeof a !== typeof b || a === null || b === null || typeof a !== 'object') return false;
  if (Array.isArray(a) !== Array.isArray(b)) return false;
  if (Array.isArray(a)) {
    const other = b as unknown[];
    return a.length === other.length && a.every((item, index) => deepEqual(item, other[index]));
  }
  const left = a as Record<string, unknown>;
  const right = b as Record<string, unknown>;
  const keys = Object.keys(left);
  if (keys.length !== Object.keys(right).length) return false;
  return keys.every((key) => Object.prototype.hasOwnProperty.call(right, key) && deepEqual(left[key], right[key]));
}

function show(value: unknown): string {
  if (value === undefined) return 'nothing';
  const text = JSON.stringify(value);
  return text.length > 80 ? `${text.slice(0, 77)}...` : text;
}

/** Matching state: the first mismatches found and the captures of the branch being tried. */
class Matching {
  readonly mismatches: Mismatch[] = [];
  captures: Record<string, unknown> = {};

  fail(path: string, expected: string, actual: unknown): false {
    this.mismatches.push({ path, expected, actual });
    return false;
  }

  /** Runs `attempt` on a scratch copy; keeps its captures (and drops its mismatches) only when it succeeds. */
  tryBranch(attempt: (branch: Matching) => boolean): { ok: boolean; branch: Matching } {
    const branch = new Matching();
    branch.captures = { ...this.captures };
    const ok = attempt(branch);
    if (ok) this.captures = branch.captures;
    return { ok, branch };
  }
}

function matchValue(pattern: unknown, actual: unknown, present: boolean, path: string, state: Matching): boolean {
  if (isOperatorObject(pattern)) return matchOperators(pattern, actual, present, path, state);
  if (!present) return state.fail(path, `a value matching ${show(pattern)}`, undefined);
  if (Array.isArray(pattern)) {
    if (!Array.isArray(actual)) return state.fail(path, `an array of ${pattern.length} items`, actual);
    if (actual.length !== pattern.length) {
      return state.fail(path, `an array of exactly ${pattern.length} items (use $contains or $length for others)`, actual);
    }
    let ok = true;
    pattern.forEach((item, index) => {
      if (ok) ok = matchValue(item, actual[index], true, pointer(path, index), state);
    });
    return ok;
  }
  if (isPlainObject(pattern)) return matchObject(pattern, actual, path, state, false);
  if (pattern === actual) return true;
  return state.fail(path, show(pattern), actual);
}

function matchObject(pattern: Record<string, unknown>, actual: unknown, path: string, state: Matching, exact: boolean): boolean {
  if (!isPlainObject(actual)) return state.fail(path, 'an object', actual);
  for (const [key, sub] of Object.entries(pattern)) {
    const has = Object.prototype.hasOwnProperty.call(actual, key);
    if (!matchValue(sub, actual[key], has, pointer(path, key), state)) return false;
  }
  if (exact) {
    const extra = Object.keys(actual).filter((key) => !Object.prototype.hasOwnProperty.call(pattern, key));
    if (extra.length > 0) return state.fail(path, `no keys other than ${show(Object.keys(pattern))} (found ${show(extra)})`, actual);
  }
  return true;
}

function matchOperators(ops: Record<string, unknown>, actual: unknown, present: boolean, path: string, state: Matching): boolean {
  // Presence operators decide on their own; every other operator needs the key to exist.
  if ('$absent' in ops) {
    if (ops['$absent'] === true) return present ? state.fail(path, 'no value (the key must be absent)', actual) : true;
    if (!present) return state.fail(path, 'a value (the key must be present)', undefined);
  }
  if ('$optional' in ops) {
    if (!present) return true;
    if (!matchValue(ops['$optional'], actual, true, path, state)) return false;
  }
  if ('$oneOf' in ops) {
    const alternatives = ops['$oneOf'] as unknown[];
    const tried = alternatives.map((alternative) => state.tryBranch((branch) => matchValue(alternative, actual, present, path, branch)));
    if (!tried.some((attempt) => attempt.ok)) {
      return state.fail(path, `one of ${alternatives.length} alternatives: ${alternatives.map(show).join(' | ')}`, actual);
    }
  }
  if ('$not' in ops) {
    const { ok } = state.tryBranch((branch) => matchValue(ops['$not'], actual, present, path, branch));
    if (ok) return state.fail(path, `anything but ${show(ops['$not'])}`, actual);
  }
  const needsValue = Object.keys(ops).some((key) => key !== '$oneOf' && key !== '$not' && key !== '$optional' && key !== '$absent');
  if (needsValue && !present && !('$optional' in ops)) return state.fail(path, `a value matching ${show(ops)}`, undefined);
  if (!present) return true;
  if ('$any' in ops && ops['$any'] !== true) throw new PatternError('$any takes true', path);
  if ('$type' in ops && !checkType(ops['$type'], actual)) {
    return state.fail(path, `a value of type ${[ops['$type']].flat().join(' or ')}`, actual);
  }
  if ('$literal' in ops && !deepEqual(ops['$literal'], actual)) return state.fail(path, `exactly ${show(ops['$literal'])}`, actual);
  if ('$regex' in ops) {
    if (typeof actual !== 'string') return state.fail(path, `a string matching /${String(ops['$regex'])}/`, actual);
    const regex = new RegExp(ops['$regex'] as string, typeof ops['$flags'] === 'string' ? ops['$flags'] : '');
    if (!regex.test(actual)) return state.fail(path, `a string matching /${String(ops['$regex'])}/${String(ops['$flags'] ?? '')}`, actual);
  }
  for (const [op, compare] of [
    ['$gte', (a: number, b: number) => a >= b],
    ['$gt', (a: number, b: number) => a > b],
    ['$lte', (a: number, b: number) => a <= b],
    ['$lt', (a: number, b: number) => a < b],
  ] as const) {
    if (op in ops) {
      const bound = ops[op] as number;
      if (typeof actual !== 'number' || !compare(actual, bound)) return state.fail(path, `a number ${op.slice(1)} ${bound}`, actual);
    }
  }
  if ('$length' in ops && !checkLength(ops['$length'], actual, path, state)) return false;
  if ('$exact' in ops && !matchObject(ops['$exact'] as Record<string, unknown>, actual, path, state, true)) return false;
  if ('$match' in ops && !matchValue(ops['$match'], actual, true, path, state)) return false;
  if ('$items' in ops) {
    if (!Array.isArray(actual)) return state.fail(path, 'an array', actual);
    for (let index = 0; index < actual.length; index += 1) {
      if (!matchValue(ops['$items'], actual[index], true, pointer(path, index), state)) return false;
    }
  }
  if ('$contains' in ops && !matchContains(ops['$contains'] as unknown[], actual, path, state)) return false;
  if ('$entries' in ops) {
    // An object seen as a list of {key, value}: key names can be captured and counted like array items.
    if (!isPlainObject(actual)) return state.fail(path, 'an object (for $entries)', actual);
    const entries = Object.entries(actual).map(([key, value]) => ({ key, value }));
    if (!matchValue(ops['$entries'], entries, true, `${path}(entries)`, state)) return false;
  }
  if ('$json' in ops) {
    if (typeof actual !== 'string') return state.fail(path, 'a string holding JSON', actual);
    let parsed: unknown;
    try {
      parsed = JSON.parse(actual);
    } catch {
      return state.fail(path, 'a string holding valid JSON', actual);
    }
    if (!matchValue(ops['$json'], parsed, true, `${path}(json)`, state)) return false;
  }
  if ('$jsonSchema' in ops) {
    const issues = validateJsonSchema(ops['$jsonSchema'], actual);
    if (issues.length > 0) return state.fail(path, `a value valid against the JSON Schema (${issues.join('; ')})`, actual);
  }
  if ('$capture' in ops) state.captures[ops['$capture'] as string] = actual;
  return true;
}

function checkType(expected: unknown, actual: unknown): boolean {
  const names = Array.isArray(expected) ? expected : [expected];
  return names.some((name) => {
    if (name === 'integer') return typeof actual === 'number' && Number.isInteger(actual);
    return jsonTypeOf(actual) === name;
  });
}

function checkLength(spec: unknown, actual: unknown, path: string, state: Matching): boolean {
  const length = Array.isArray(actual) || typeof actual === 'string' ? actual.length : undefined;
  if (length === undefined) return state.fail(path, 'an array or a string (for $length)', actual);
  if (typeof spec === 'number') return length === spec || state.fail(path, `a length of ${spec} (found ${length})`, actual);
  const { min, max } = spec as { min?: number; max?: number };
  if ((min !== undefined && length < min) || (max !== undefined && length > max)) {
    return state.fail(path, `a length in [${min ?? 0}, ${max ?? '∞'}] (found ${length})`, actual);
  }
  return true;
}

/**
 * Every pattern must match a distinct element. Tries assignments with backtracking (lists in MCP
 * messages are short), so `[{name: a}, {}]` does not fail just because `{}` grabbed `a` first.
 */
function matchContains(patterns: unknown[], actual: unknown, path: string, state: Matching): boolean {
  if (!Array.isArray(actual)) return state.fail(path, 'an array', actual);
  const used = new Set<number>();
  const assign = (index: number, current: Matching): boolean => {
    if (index === patterns.length) return true;
    for (let candidate = 0; candidate < actual.length; candidate += 1) {
      if (used.has(candidate)) continue;
      const { ok } = current.tryBranch((branch) => {
        if (!matchValue(patterns[index], actual[candidate], true, pointer(path, candidate), branch)) return false;
        used.add(candidate);
        if (assign(index + 1, branch)) return true;
        used.delete(candidate);
        return false;
      });
      if (ok) return true;
    }
    return false;
  };
  if (assign(0, state)) return true;
  // Name the first pattern that has no element at all; otherwise the combination is what failed.
  const lonely = patterns.find(
    (pattern) => !actual.some((item) => new Matching().tryBranch((b) => matchValue(pattern, item, true, path, b)).ok),
  );
  return state.fail(
    path,
    lonely === undefined ? `distinct elements matching each of ${show(patterns)}` : `an element matching ${show(lonely)}`,
    actual,
  );
}

/**
 * Matches `actual` against `pattern`. Returns the captures on success, the mismatches otherwise. Throws a
 * {@link PatternError} for a malformed pattern (scenarios are checked with `checkPattern` when loaded, so
 * this only happens for patterns built at run time).
 */
export function match(pattern: unknown, actual: unknown): MatchResult {
  const state = new Matching();
  const ok = matchValue(pattern, actual, actual !== undefined, '', state);
  return ok ? { ok: true, captures: state.captures } : { ok: false, mismatches: state.mismatches };
}

/** The operator names the matcher understands, for documentation and the static checker. */
export const MATCH_OPERATORS: readonly string[] = OPERATORS;

/** True when `name` is a `$type` operand. */
export function isTypeName(name: unknown): boolean {
  return typeof name === 'string' && TYPES.has(name);
}
