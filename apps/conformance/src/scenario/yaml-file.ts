/**
 * Loading a YAML file and validating it against one of the app's JSON Schemas, with every problem located by
 * line and column in the file — the common ground of scenarios, the server registry and the baseline.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Ajv, type ErrorObject, type ValidateFunction } from 'ajv';
import { isMap, isScalar, isSeq, LineCounter, parseDocument, type Document } from 'yaml';
import { SCHEMAS_DIR } from '../paths.js';

/** One problem in a YAML file. `path` is a JSON Pointer into the document (`''` = the whole document). */
export interface YamlProblem {
  readonly path: string;
  readonly message: string;
  readonly line?: number;
  readonly column?: number;
}

/** A parsed YAML file: its data when valid, and the problems found. */
export interface LoadedYaml<T> {
  readonly data: T | undefined;
  readonly problems: YamlProblem[];
  /** Locates a JSON Pointer in the file (for problems found after schema validation). */
  locate(path: string): { line?: number; column?: number };
}

const ajv = new Ajv({ allErrors: true, strict: true, allowUnionTypes: true });
const validators = new Map<string, ValidateFunction>();

function validatorFor(schemaFile: string): ValidateFunction {
  let validator = validators.get(schemaFile);
  if (!validator) {
    const schema = JSON.parse(readFileSync(join(SCHEMAS_DIR, schemaFile), 'utf8')) as Record<string, unknown>;
    validator = ajv.compile(schema);
    validators.set(schemaFile, validator);
  }
  return validator;
}

function segments(path: string): string[] {
  if (path === '') return [];
  return path
    .slice(1)
    .split('/')
    .map((part) => part.replace(/~1/g, '/').replace(/~0/g, '~'));
}

function locator(document: Document, counter: LineCounter): (path: string) => { line?: number; column?: number } {
  return (path) => {
    // Walk as deep as the document goes (a missing key is reported where its parent is); the last segment of
    // a map is located at its key, which is where a reader looks for "this key is wrong".
    let node: unknown = document.contents;
    let range: [number, number, number] | undefined = (node as { range?: [number, number, number] } | null)?.range;
    for (const segment of segments(path)) {
      if (isMap(node)) {
        const pair = node.items.find((item) => isScalar(item.key) && String(item.key.value) === segment);
        if (!pair) break;
        range = (pair.key as { range?: [number, number, number] }).range ?? range;
        node = pair.value;
      } else if (isSeq(node)) {
        const item = node.items[Number(segment)];
        if (item === undefined || item === null) break;
        range = (item as { range?: [number, number, number] }).range ?? range;
        node = item;
      } else {
        break;
      }
    }
    if (!range) return {};
    const { line, col } = counter.linePos(range[0]);
    return { line, column: col };
  };
}

/** Readable text for an Ajv error (the allowed values and the unexpected property are part of the message). */
function describe(error: ErrorObject): { path: string; message: string } {
  const params = error.params as Record<string, unknown>;
  if (error.keyword === 'additionalProperties') {
    return { path: `${error.instancePath}/${String(params['additionalProperty'])}`, message: 'is not allowed here (unknown key)' };
  }
  if (error.keyword === 'enum') return { path: error.instancePath, message: `must be one of ${JSON.stringify(params['allowedValues'])}` };
  if (error.keyword === 'const') return { path: error.instancePath, message: `must be ${JSON.stringify(params['allowedValue'])}` };
  return { path: error.instancePath, message: error.message ?? error.keyword };
}

/**
 * Reads and validates `file` against `schemas/<schemaFile>`. Never throws for a bad file: YAML syntax
 * errors, schema violations and an unreadable file all come back as problems (with line and column where
 * the YAML parser or the document tells them).
 */
export function loadYamlFile<T>(file: string, schemaFile: string): LoadedYaml<T> {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (error) {
    return { data: undefined, problems: [{ path: '', message: `cannot read the file: ${(error as Error).message}` }], locate: () => ({}) };
  }
  return parseYamlText<T>(text, schemaFile);
}

/** Like {@link loadYamlFile}, for text already in memory (tests, inline data). */
export function parseYamlText<T>(text: string, schemaFile: string): LoadedYaml<T> {
  const counter = new LineCounter();
  const document = parseDocument(text, { lineCounter: counter, prettyErrors: false, uniqueKeys: true });
  const locate = locator(document, counter);
  const problems: YamlProblem[] = [];
  for (const error of document.errors) {
    const position = counter.linePos(error.pos[0]);
    problems.push({ path: '', message: `YAML: ${error.message.split('\n')[0]}`, line: position.line, column: position.col });
  }
  if (problems.length > 0) return { data: undefined, problems, locate };
  const data = document.toJS({ maxAliasCount: 100 }) as unknown;
  const validate = validatorFor(schemaFile);
  if (!validate(data)) {
    // oneOf failures repeat each branch's complaint; keep one line per distinct (path, message).
    const seen = new Set<string>();
    for (const error of validate.errors ?? []) {
      const { path, message } = describe(error);
      const key = `${path}\u0000${message}`;
      if (seen.has(key)) continue;
      seen.add(key);
      problems.push({ path, message, ...locate(path) });
    }
    return { data: undefined, problems, locate };
  }
  return { data: data as T, problems, locate };
}

/** `file:line:column path: message`, the one-line form of a problem. */
export function formatProblem(file: string, problem: YamlProblem): string {
  const where = problem.line === undefined ? file : `${file}:${problem.line}:${problem.column ?? 1}`;
  return `${where} ${problem.path === '' ? '(document)' : problem.path}: ${problem.message}`;
}
