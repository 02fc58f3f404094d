/**
 * `x-mcp-header` (2026-07-28, SEP-2243) on the client side: which `tools/call` arguments are mirrored into
 * `Mcp-Param-{Name}` headers, whether a tool's annotations are valid at all (a client on Streamable HTTP must drop
 * a tool whose annotations break a rule), and how a value is written into a header (plain visible ASCII, or
 * `=?base64?…?=` for anything else).
 */

/** One mirrored argument. */
export interface HeaderParam {
  /** The header name: `mcp-param-<annotation, lower-cased>`. */
  readonly header: string;
  /** The chain of `properties` keys from the arguments object to the value. */
  readonly path: readonly string[];
}

/** What {@link scanToolHeaders} found: the mirrored arguments, or why the tool must be dropped. */
export type ToolHeaderScan =
  { readonly valid: true; readonly params: readonly HeaderParam[] } | { readonly valid: false; readonly reason: string };

/** RFC 9110 `token` (`1*tchar`). */
const TOKEN = /^[!#$%&'*+\-.^_`|~0-9A-Za-z]+$/;
const PRIMITIVES = new Set(['string', 'integer', 'boolean']);
const ANNOTATION = 'x-mcp-header';
/** Deeper schemas are refused rather than walked (a tool is dropped, never a stack exhausted). */
const MAX_DEPTH = 64;
const NO_PARAMS: ToolHeaderScan = { valid: true, params: [] };

/**
 * Checks every `x-mcp-header` annotation of an `inputSchema`. Valid ones sit on a property schema reached from the
 * root through `properties` keys only, name a non-empty token unique among the schema's annotations
 * (case-insensitively), and annotate a `string`, `integer` or `boolean` property (optionally nullable). Any
 * annotation anywhere else, or breaking a rule, makes the whole tool invalid.
 */
export function scanToolHeaders(inputSchema: unknown): ToolHeaderScan {
  if (typeof inputSchema !== 'object' || inputSchema === null) return NO_PARAMS;
  const params: HeaderParam[] = [];
  const problem = walk(inputSchema, [], false, 0, params);
  if (problem !== undefined) return { valid: false, reason: problem };
  if (params.length === 0) return NO_PARAMS;
  const seen = new Set<string>();
  for (const param of params) {
    if (seen.has(param.header))
      return { valid: false, reason: `the header name ${param.header.slice(10)} is used twice (names are case-insensitive)` };
    seen.add(param.header);
  }
  return { valid: true, params };
}

/**
 * Walks any JSON value of the schema. `path` is set when `node` is a property schema reached through `properties`
 * chains only (the root itself is not a property); annotations anywhere else are errors.
 */
function walk(node: unknown, path: string[] | undefined, isProperty: boolean, depth: number, out: HeaderParam[]): string | undefined {
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
    const problem = checkAnnotation(schema, isProperty ? path : undefined);
    if (problem !== undefined) return problem;
    out.push({ header: `mcp-param-${(schema[ANNOTATION] as string).toLowerCase()}`, path: path! });
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

function checkAnnotation(schema: Record<string, unknown>, path: string[] | undefined): string | undefined {
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
  return undefined;
}

const SENTINEL_PREFIX = '=?base64?';
const SENTINEL_SUFFIX = '?=';
const encoder = new TextEncoder();

/**
 * The header form of a value: the value itself when it is visible ASCII and spaces with no space at either end
 * (and does not look like the sentinel), else `=?base64?<Base64 of its UTF-8>?=`.
 */
export function encodeHeaderValue(value: string): string {
  if (isPlain(value)) return value;
  const bytes = encoder.encode(value);
  let binary = '';
  for (let i = 0; i < bytes.length; i += 0x8000) binary += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
  return `${SENTINEL_PREFIX}${btoa(binary)}${SENTINEL_SUFFIX}`;
}

function isPlain(value: string): boolean {
  const length = value.length;
  if (length === 0) return true;
  if (value.charCodeAt(0) === 0x20 || value.charCodeAt(length - 1) === 0x20) return false;
  for (let i = 0; i < length; i++) {
    const code = value.charCodeAt(i);
    if (code < 0x20 || code > 0x7e) return false;
  }
  return !(value.startsWith(SENTINEL_PREFIX) && value.endsWith(SENTINEL_SUFFIX));
}

/** The header text of an argument value: strings as they are, integers in decimal, booleans as `true`/`false`. */
export function headerText(value: unknown): string | undefined {
  if (typeof value === 'string') return encodeHeaderValue(value);
  if (typeof value === 'boolean') return value ? 'true' : 'false';
  if (typeof value === 'number' && Number.isFinite(value)) return String(value);
  return undefined;
}
