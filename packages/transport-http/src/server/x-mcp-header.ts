/**
 * The `x-mcp-header` annotations of a tool's `inputSchema` (2026-07-28, SEP-2243): which arguments a client mirrors
 * into `Mcp-Param-{Name}` headers, so the server can check each header against the body. Read once per schema
 * object and cached.
 */

/** One mirrored argument: its header (lower-cased), the `properties` path to it, and its JSON type. */
export interface MirroredParam {
  /** The full header name, lower-cased: `mcp-param-region`. */
  readonly header: string;
  /** The annotation as written (`Region`), for messages. */
  readonly name: string;
  /** The chain of `properties` keys from the arguments object to the value. */
  readonly path: readonly string[];
  readonly type: 'string' | 'integer' | 'boolean';
}

export { valueAt } from '../value-at.js';

const TOKEN = /^[!#$%&'*+\-.^_`|~0-9A-Za-z]+$/;
const TYPES = new Set(['string', 'integer', 'boolean']);
const cache = new WeakMap<object, readonly MirroredParam[]>();
const NONE: readonly MirroredParam[] = [];

/**
 * The valid annotations of a schema, reached through `properties` chains only (as the spec requires); an
 * annotation that breaks a rule (not a token, a duplicate name, a type other than string, integer or boolean) is
 * skipped: clients drop such tools, so no header for it is ever expected.
 */
export function mirroredParams(schema: unknown): readonly MirroredParam[] {
  if (typeof schema !== 'object' || schema === null) return NONE;
  let params = cache.get(schema);
  if (params === undefined) {
    const found: MirroredParam[] = [];
    collect(schema as Record<string, unknown>, [], found, 0);
    const counts = new Map<string, number>();
    for (const param of found) counts.set(param.header, (counts.get(param.header) ?? 0) + 1);
    params = found.filter((param) => counts.get(param.header) === 1);
    if (params.length === 0) params = NONE;
    cache.set(schema, params);
  }
  return params;
}

function collect(schema: Record<string, unknown>, path: string[], out: MirroredParam[], depth: number): void {
  const properties = schema.properties;
  if (depth > 32 || typeof properties !== 'object' || properties === null || Array.isArray(properties)) return;
  for (const [key, value] of Object.entries(properties as Record<string, unknown>)) {
    if (typeof value !== 'object' || value === null || Array.isArray(value)) continue;
    const property = value as Record<string, unknown>;
    const annotation = property['x-mcp-header'];
    const at = [...path, key];
    if (typeof annotation === 'string' && TOKEN.test(annotation) && typeof property.type === 'string' && TYPES.has(property.type)) {
      out.push({
        header: `mcp-param-${annotation.toLowerCase()}`,
        name: annotation,
        path: at,
        type: property.type as MirroredParam['type'],
      });
    }
    collect(property, at, out, depth + 1);
  }
}

/** True when a decoded header value stands for the body value of a mirrored argument of `type`. */
export function headerMatches(decoded: string, value: unknown, type: MirroredParam['type']): boolean {
  if (type === 'integer' && typeof value === 'number') {
    return /^[+-]?\d+(\.\d+)?$/.test(decoded) && Number(decoded) === value;
  }
  if (type === 'boolean' && typeof value === 'boolean') return decoded === (value ? 'true' : 'false');
  if (typeof value === 'string') return decoded === value;
  return typeof value === 'number' || typeof value === 'boolean' ? decoded === String(value) : false;
}
