/**
 * Says where something is in the table file, for error messages: `a13.yaml:57: row 42 (eat/past_simple/3sg)`.
 * Row and verb-entry numbers are 1-based positions in their list; the line comes from the YAML source, and
 * the key from the entry's own fields, as far as they are strings.
 */
import type { Document, LineCounter, Node, YAMLMap, YAMLSeq } from 'yaml';
import { yamlLibrary } from './yaml-library.js';

// A locator exists only for a table read by `yaml` (the general path), so the library is loaded by then.
const isMap = (node: unknown): node is YAMLMap => yamlLibrary().isMap(node);
const isSeq = (node: unknown): node is YAMLSeq => yamlLibrary().isSeq(node);

/** A path into the parsed file, e.g. `['rows', 41, 'spanish']`. */
export type DataPath = readonly (string | number)[];

/** Formats the location prefix of a problem. */
export interface TableLocator {
  /**
   * `file:line: row N (verb/tense/person)` for a path inside `rows`, `file:line: verbs entry N (verb)` inside
   * `verbs`, `file:line` elsewhere; without `:line` when the path has no node in the source. With
   * `withLabel: false` the `(verb/tense/person)` label is left out, for messages that name the key themselves.
   */
  at(path: DataPath, withLabel?: boolean): string;
  /** `row N (verb/tense/person)` or `verbs entry N (verb)` for a path inside a list, '' otherwise. */
  entry(path: DataPath, withLabel?: boolean): string;
  /** The path of the row or verb entry that contains a source offset (the last one starting at or before it). */
  entryAt(offset: number): DataPath;
  /** The 1-based line of the deepest existing node on the path, if any. */
  lineOf(path: DataPath): number | undefined;
}

/**
 * Builds a locator over a parsed document (`doc`, parsed with `lineCounter`). It works on documents with
 * syntax errors too, as far as the parser recovered their structure.
 */
export function createTableLocator(fileName: string, doc: Document, lineCounter: LineCounter): TableLocator {
  const nodeAt = (path: DataPath): unknown[] => {
    const nodes: unknown[] = [doc.contents];
    for (const segment of path) {
      const next = child(nodes[nodes.length - 1], segment);
      if (next === undefined || next === null) break;
      nodes.push(next);
    }
    return nodes;
  };
  const lineOf = (path: DataPath): number | undefined => {
    const lines = nodeAt(path).map((node) => lineOfNode(node, lineCounter));
    return lines.reverse().find((line) => line !== undefined);
  };
  const entry = (path: DataPath, withLabel = true): string => {
    const [list, index] = path;
    if ((list !== 'rows' && list !== 'verbs') || typeof index !== 'number') return '';
    const node = nodeAt([list, index])[2];
    const label = withLabel ? labelOf(list, isMap(node) ? safeJson(node) : undefined) : '';
    return `${list === 'rows' ? 'row' : 'verbs entry'} ${index + 1}${label}`;
  };
  return {
    lineOf,
    entry,
    at(path, withLabel = true) {
      const line = lineOf(path);
      const file = line === undefined ? fileName : `${fileName}:${line}`;
      const what = entry(path, withLabel);
      return what === '' ? file : `${file}: ${what}`;
    },
    entryAt(offset) {
      for (const list of ['rows', 'verbs'] as const) {
        const seq = child(doc.contents, list);
        if (!isSeq(seq) || !seq.range || offset < seq.range[0] || offset > seq.range[2]) continue;
        let found = -1;
        seq.items.forEach((item, index) => {
          const range = (item as Node | null)?.range;
          if (range && range[0] <= offset) found = index;
        });
        return found < 0 ? [list] : [list, found];
      }
      return [];
    },
  };
}

/** The ` (verb/tense/person)` or ` (verb)` label of an entry, or '' when it has no usable fields. */
function labelOf(list: 'rows' | 'verbs', entry: unknown): string {
  if (typeof entry !== 'object' || entry === null || Array.isArray(entry)) return '';
  const record = entry as Record<string, unknown>;
  const part = (name: string): string => (typeof record[name] === 'string' && record[name] !== '' ? (record[name] as string) : '?');
  const label = list === 'rows' ? `${part('verb')}/${part('tense')}/${part('person')}` : part('verb');
  return label === '?/?/?' || label === '?' ? '' : ` (${label})`;
}

function safeJson(node: Node): unknown {
  try {
    return node.toJSON();
  } catch {
    return undefined; // a node the parser could not fully recover; the entry is then shown without a label
  }
}

function child(node: unknown, segment: string | number): unknown {
  if (isSeq(node) && typeof segment === 'number') return node.items[segment];
  if (isMap(node)) {
    const pair = node.items.find((p) => String((p.key as { value?: unknown } | null)?.value) === String(segment));
    return pair?.value ?? undefined;
  }
  return undefined;
}

function lineOfNode(node: unknown, lineCounter: LineCounter): number | undefined {
  const range = (node as Node | null | undefined)?.range;
  return range ? lineCounter.linePos(range[0]).line : undefined;
}
