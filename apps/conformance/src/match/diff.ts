/**
 * A readable diff between an expected pattern and an actual message, for reports.
 *
 * Patterns match objects as subsets, so a raw diff would drown the difference in keys the pattern never
 * mentioned. The actual value is first projected onto the pattern's shape (keys the pattern does not name are
 * summarised as `"…": "N more keys"`), then both are pretty-printed and compared line by line.
 */
import { match } from './matcher.js';
import { isOperatorObject } from './operators.js';

/** One line of a diff: `' '` same, `'-'` only in the expected pattern, `'+'` only in the actual value. */
export interface DiffLine {
  readonly op: ' ' | '-' | '+';
  readonly text: string;
}

const MAX_LINES = 1500;

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** The parts of `actual` that `pattern` talks about, in the pattern's key order. */
export function projectActual(pattern: unknown, actual: unknown): unknown {
  if (isOperatorObject(pattern)) {
    const inner = pattern['$exact'] ?? pattern['$match'];
    return inner === undefined || pattern['$exact'] !== undefined ? actual : projectActual(inner, actual);
  }
  if (Array.isArray(pattern) && Array.isArray(actual)) {
    return actual.map((item, index) => (index < pattern.length ? projectActual(pattern[index], item) : item));
  }
  if (isPlainObject(pattern) && isPlainObject(actual)) {
    // The summary goes first: last keys keep their comma-less line, so the diff shows one extra line only.
    const out: Record<string, unknown> = {};
    const others = Object.keys(actual).filter((key) => !Object.prototype.hasOwnProperty.call(pattern, key)).length;
    if (others > 0) out['…'] = `${others} more key${others === 1 ? '' : 's'}`;
    for (const key of Object.keys(pattern)) {
      if (Object.prototype.hasOwnProperty.call(actual, key)) out[key] = projectActual(pattern[key], actual[key]);
    }
    return out;
  }
  return actual;
}

/**
 * The pattern as it should be displayed next to `actual`: every part that matched is shown as the actual value
 * (so `{$type: string}` next to `"abc"` reads `"abc"`), every part that did not keeps its pattern text, and keys
 * the pattern wants absent and that are absent disappear. The diff then shows only real differences.
 */
export function displayPattern(pattern: unknown, actual: unknown): unknown {
  if (isOperatorObject(pattern)) {
    if (match(pattern, actual).ok) return actual;
    const inner = pattern['$match'] ?? pattern['$exact'];
    return inner !== undefined && Object.keys(pattern).length === 1 ? displayPattern(inner, actual) : pattern;
  }
  if (Array.isArray(pattern) && Array.isArray(actual)) {
    return pattern.map((item, index) => (index < actual.length ? displayPattern(item, actual[index]) : item));
  }
  if (isPlainObject(pattern) && isPlainObject(actual)) {
    const out: Record<string, unknown> = {};
    for (const [key, sub] of Object.entries(pattern)) {
      if (Object.prototype.hasOwnProperty.call(actual, key)) out[key] = displayPattern(sub, actual[key]);
      else if (!match(sub, undefined).ok) out[key] = sub;
    }
    return out;
  }
  return pattern;
}

function lines(value: unknown): string[] {
  const text = value === undefined ? '(nothing)' : JSON.stringify(value, null, 2);
  const all = text.split('\n');
  return all.length > MAX_LINES ? [...all.slice(0, MAX_LINES), `… ${all.length - MAX_LINES} more lines`] : all;
}

/** Line diff (longest common subsequence) of two texts already split into lines. */
export function diffLines(expected: readonly string[], actual: readonly string[]): DiffLine[] {
  const n = expected.length;
  const m = actual.length;
  // lcs[i][j] = length of the LCS of expected[i..] and actual[j..]; rows kept as typed arrays.
  const lcs: Uint32Array[] = Array.from({ length: n + 1 }, () => new Uint32Array(m + 1));
  for (let i = n - 1; i >= 0; i -= 1) {
    const row = lcs[i]!;
    const next = lcs[i + 1]!;
    for (let j = m - 1; j >= 0; j -= 1) {
      row[j] = expected[i] === actual[j] ? next[j + 1]! + 1 : Math.max(next[j]!, row[j + 1]!);
    }
  }
  const out: DiffLine[] = [];
  let i = 0;
  let j = 0;
  while (i < n && j < m) {
    if (expected[i] === actual[j]) {
      out.push({ op: ' ', text: expected[i]! });
      i += 1;
      j += 1;
    } else if (lcs[i + 1]![j]! >= lcs[i]![j + 1]!) {
      out.push({ op: '-', text: expected[i]! });
      i += 1;
    } else {
      out.push({ op: '+', text: actual[j]! });
      j += 1;
    }
  }
  while (i < n) out.push({ op: '-', text: expected[i++]! });
  while (j < m) out.push({ op: '+', text: actual[j++]! });
  return out;
}

/** The diff of a pattern and an actual value, after projecting the value onto the pattern. */
export function diffPattern(pattern: unknown, actual: unknown): DiffLine[] {
  return diffLines(lines(displayPattern(pattern, actual)), lines(projectActual(pattern, actual)));
}

/** A diff as text, `-`/`+`/` ` prefixed lines (unified-diff style, without hunks). */
export function formatDiff(diff: readonly DiffLine[]): string {
  return diff.map((line) => `${line.op} ${line.text}`).join('\n');
}
