/**
 * The value an `x-mcp-header` annotation points at: both halves read arguments through the same `properties` path
 * (the client to mirror the value into a header, the server to check the header against it).
 */

/** The value at `path` inside `args`, or `undefined` when a step is missing or not a plain object. */
export function valueAt(args: unknown, path: readonly string[]): unknown {
  let value = args;
  for (const key of path) {
    if (typeof value !== 'object' || value === null || Array.isArray(value)) return undefined;
    value = (value as Record<string, unknown>)[key];
  }
  return value;
}
