/**
 * A fast reader for the plain subset of YAML that the table file is written in, so that the server parses its
 * table at start in a few milliseconds instead of the ~100 ms a general YAML parser takes while Node is still
 * cold. The subset: a top-level mapping whose values are plain scalars, folded block scalars (`>-`) or block
 * sequences (indented two spaces) of one-line flow mappings (`- { verb: eat, tense: … }`) or block mappings
 * (`- verb: eat` then `irregular: true` …); comments on lines of their own, blank lines between entries.
 *
 * It never guesses: for anything outside the subset (an anchor, a quote, a tab, a blank line inside a folded
 * scalar, a duplicate key, a scalar that YAML's core schema would read as something other than a word, `true`,
 * `false` or a small integer…) it returns `undefined` and the caller parses the text with the `yaml` library,
 * which remains the parser of record and the source of every error message. On the subset both give equal data
 * (tests compare them on the real file and on variations of it).
 */

type Value = string | number | boolean | Value[] | { [key: string]: Value };

/** Keys: lowercase words with underscores (no `__proto__`, nothing YAML would read as a boolean or null). */
const KEY = /^[a-z][a-z_]*$/;
/** Plain scalars: words of letters, digits and underscores separated by single spaces. */
const WORDS = /^[\p{L}\p{N}_]+(?: [\p{L}\p{N}_]+)*$/u;
/** Words that YAML 1.2's core schema reads as something other than a string (besides the integers handled). */
const NOT_A_STRING = /^(?:~|null|Null|NULL|true|True|TRUE|false|False|FALSE|0o[0-7]+|0x[0-9a-fA-F]+|[0-9]+(?:[eE][0-9]+)?)$/;

/** A plain scalar as YAML's core schema reads it, or `undefined` when outside the subset. */
function scalar(text: string): Value | undefined {
  if (!WORDS.test(text)) return undefined;
  if (text === 'true' || text === 'false') return text === 'true';
  if (/^(?:0|[1-9][0-9]{0,5})$/.test(text)) return Number(text);
  return NOT_A_STRING.test(text) ? undefined : text;
}

/** Adds `key: value` to `target`, refusing a duplicate (the `yaml` library reports it). */
function put(target: Record<string, Value>, key: string, value: Value | undefined): boolean {
  if (value === undefined || !KEY.test(key) || Object.hasOwn(target, key)) return false;
  target[key] = value;
  return true;
}

/** The parsed text, or `undefined` when it is not in the subset. */
export function parseSimpleYaml(text: string): Value | undefined {
  if (/[\t\r\uFEFF]|[ ]$/m.test(text)) return undefined;
  const lines = text.split('\n');
  let at = 0;
  const skippable = (line: string): boolean => line === '' || /^ *#/.test(line);
  const indentOf = (line: string): number => line.length - line.trimStart().length;

  /** The folded block scalar (`>-`) whose content starts at `at`, more indented than `parent`. */
  const folded = (parent: number): string | undefined => {
    const first = lines[at];
    if (first === undefined) return undefined;
    const indent = indentOf(first);
    if (indent <= parent || first.trim() === '') return undefined;
    const parts: string[] = [];
    while (at < lines.length) {
      const line = lines[at]!;
      if (line === '') {
        // A blank line inside the scalar would be a line break, not a space: only trailing ones (dropped by `-`).
        let next = at;
        while (next < lines.length && lines[next] === '') next++;
        if (next < lines.length && indentOf(lines[next]!) >= indent) return undefined;
        break;
      }
      const lineIndent = indentOf(line);
      if (lineIndent < indent) break;
      if (lineIndent > indent) return undefined; // a more-indented line keeps its line break
      parts.push(line.slice(indent));
      at++;
    }
    return parts.join(' ');
  };

  /** `key: value` (or `key: >-` and its block) at `indent` into `target`; false when outside the subset. */
  const entry = (line: string, indent: number, target: Record<string, Value>): boolean => {
    const match = /^([a-z_]+):(?: (.*))?$/.exec(line.slice(indent));
    if (!match) return false;
    const [, key, rest] = match as unknown as [string, string, string | undefined];
    at++;
    if (rest === '>-') return put(target, key, folded(indent));
    if (rest !== undefined) return put(target, key, scalar(rest));
    if (indent !== 0) return false;
    return put(target, key, sequence());
  };

  /** The block sequence of mappings (indented two spaces) that starts at `at`. */
  const sequence = (): Value[] | undefined => {
    const items: Value[] = [];
    for (;;) {
      while (at < lines.length && skippable(lines[at]!) && (lines[at] === '' || indentOf(lines[at]!) >= 2)) at++;
      const line = lines[at];
      if (line === undefined || !line.startsWith('  - '))
        return items.length > 0 && (line === undefined || indentOf(line) === 0) ? items : undefined;
      const item: Record<string, Value> = {};
      const flow = /^ {2}- \{ (.*) \}$/.exec(line);
      if (flow) {
        for (const pair of flow[1]!.split(',')) {
          const kv = /^ *([a-z_]+): +(.*?) *$/.exec(pair);
          if (!kv || !put(item, kv[1]!, scalar(kv[2]!))) return undefined;
        }
        at++;
      } else {
        // `  - key: value` opens a block mapping whose keys sit at column 4: read its first line as if it were there.
        lines[at] = `    ${line.slice(4)}`;
        if (!entry(lines[at]!, 4, item)) return undefined;
        while (at < lines.length && indentOf(lines[at]!) === 4 && !skippable(lines[at]!)) {
          if (!entry(lines[at]!, 4, item)) return undefined;
        }
      }
      items.push(item);
    }
  };

  const root: Record<string, Value> = {};
  while (at < lines.length) {
    const line = lines[at]!;
    if (skippable(line)) {
      if (line !== '' && indentOf(line) !== 0 && Object.keys(root).length > 0) return undefined;
      at++;
      continue;
    }
    if (indentOf(line) !== 0 || !entry(line, 0, root)) return undefined;
  }
  return Object.keys(root).length > 0 ? root : undefined;
}
