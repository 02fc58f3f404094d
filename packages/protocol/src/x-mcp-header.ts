/**
 * `x-mcp-header` (2026-07-28, SEP-2243): which `tools/call` arguments a tool's `inputSchema` asks clients to mirror
 * into `Mcp-Param-{Name}` headers. One reading of the rule serves both ends: a client on Streamable HTTP drops a tool
 * whose annotations break it and mirrors the arguments of the others; a server expects exactly those headers (and
 * none for a tool a client would have dropped). The values themselves are written and read by `header-value.ts`.
 */

import type { MirroredType } from './header-value.js';

/** One mirrored argument. */
export interface MirroredParam {
  /** The full header name, lower-cased: `mcp-param-region`. */
  readonly header: string;
  /** The annotation as written (`Region`), for messages. */
  readonly name: string;
  /** The chain of `properties` keys from the arguments object to the value. */
  readonly path: readonly string[];
  /** The property's JSON type (its non-null type when it is nullable). */
  readonly type: MirroredType;
}

/** What {@link scanToolHeaders} found: the mirrored arguments, or why a client must drop the tool. */
export type ToolHeaderScan =
  { readonly valid: true; readonly params: readonly MirroredParam[] } | { readonly valid: false; readonly reason: string };

/** RFC 9110 `token` (`1*tchar`). */
const TOKEN = /^[!#$%&'*+\-.^_`|~0-9A-Za-z]+$/;
const PRIMITIVES = new Set(['string', 'integer', 'boolean']);
const ANNOTATION = 'x-mcp-header';
/** Deeper schemas are refused rather than walked (a tool is dropped, never a stack exhausted). */
const MAX_DEPTH = 64;
const NO_PARAMS: readonly MirroredParam[] = [];
const VALID_NONE: ToolHeaderScan = { valid: true, params: NO_PARAMS };

/**
 * Checks every `x-mcp-header` annotation of an `inputSchema`. Valid ones sit on a property schema reached from the
 * root through `properties` keys only, name a non-empty token unique among the schema's annotations
 * (case-insensitively), and annotate a `string`, `integer` or `boolean` property (optionally nullable). Any
 * annotation anywhere else, or breaking a rule, makes the whole tool invalid.
 */
export function scanToolHeaders(inputSchema: unknown): ToolHeaderScan {
  if (typeof inputSchema !== 'object' || inputSchema === null) return VALID_NONE;
  const params: MirroredParam[] = [];
  const problem = walk(inputSchema, [], false, 0, params);
  if (problem !== undefined) return { valid: false, reason: problem };
  if (params.length === 0) return VALID_NONE;
  const seen = new Set<string>();
  for (const param of params) {
    if (seen.has(param.header)) return { valid: false, reason: `the header name ${param.name} is used twice (names are case-insensitive)` };
    seen.add(param.header);
  }
  return { valid: true, params };
}

const cache = new WeakMap<object, readonly MirroredParam[]>();

/**
 * The arguments a server expects mirrored for a tool of this `inputSchema`: those of a valid schema, none for an
 * invalid one (clients drop such a tool, so no header for it is ever expected). Read once per schema object.
 */
export function mirroredParams(inputSchema: unknown): readonly MirroredParam[] {
  if (typeof inputSchema !== 'object' || inputSchema === null) return NO_PARAMS;
  let params = cache.get(inputSchema);
  if (params === undefined) {
    const scan = scanToolHeaders(inputSchema);
    params = scan.valid ? scan.params : NO_PARAMS;
    cache.set(inputSchema, params);
  }
  return params;
}

/** The value at `path` inside `args`, or `undefined` when a step is missing or not a plain object. */
export function valueAt(args: unknown, path: readonly string[]): unknown {
  let value = args;
  for (const key of path) {
    if (typeof value !== 'object' || value === null || Array.isArray(value)) return undefined;
    value = (value as Record<string, unknown>)[key];
  }
  return value;
}

/**
 * Walks any JSON value of the schema. `path` is set when `node` is a property schema reached through `properties`
 * chains only (the root itself is not a property); annotations anywhere else are errors.
 */
function walk(node: unknown, path: string[] | undefined, isProperty: boolean, depth: number, out: MirroredParam[]): string | undefined {
  if (typeof node !== 'object' || node === null) return undefined;
  if (depth > MAX_DEPTH) return 'the inputSchema is nested too deeply to check its x-mcp-header annotations';
  if (Array.isArray(node)) {
    for (const item of node) {
      const problem = walk(item, undefined, false, depth + 1, out);
      if (problem !== undefined) return problem;
    }
    return undefined;
  }
  const schema = node as Record<string, unknown>;
  if (Object.hasOwn(schema, ANNOTATION)) {
    const checked = checkAnnotation(schema, isProperty ? path : undefined);
    if (typeof checked === 'string') return checked;
    out.push(checked);
  }
  for (const key of Object.keys(schema)) {
    if (key === ANNOTATION) continue;
    const value = schema[key];
    if (key === 'properties' && path !== undefined && typeof value === 'object' && value !== null && !Array.isArray(value)) {
      for (const [name, property] of Object.entries(value as Record<string, unknown>)) {
        const problem = walk(property, [...path, name], true, depth + 1, out);
        if (problem !== undefined) return problem;
      }
      continue;
    }
    const problem = walk(value, undefined, false, depth + 1, out);
    if (problem !== undefined) return problem;
  }
  return undefined;
}

/** The mirrored argument an annotated property schema stands for, or why the annotation is invalid. */
function checkAnnotation(schema: Record<string, unknown>, path: string[] | undefined): MirroredParam | string {
  const name = schema[ANNOTATION];
  if (path === undefined) return 'an x-mcp-header annotation is not on a property reached through properties alone';
  const where = `x-mcp-header of ${path.join('.')}`;
  if (typeof name !== 'string') return `${where} is not a string`;
  if (name.length === 0) return `${where} is empty`;
  if (!TOKEN.test(name)) return `${where} is not an HTTP token (letters, digits and !#$%&'*+-.^_\`|~ only)`;
  const type = schema.type;
  const types = typeof type === 'string' ? [type] : Array.isArray(type) ? type.filter((t) => t !== 'null') : [];
  if (types.length !== 1 || typeof types[0] !== 'string' || !PRIMITIVES.has(types[0])) {
    return `${where} annotates a property whose type is not string, integer or boolean`;
  }
  return { header: `mcp-param-${name.toLowerCase()}`, name, path, type: types[0] as MirroredType };
}
