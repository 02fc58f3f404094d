/** JSON types a schema accepts (following `$ref`, `anyOf`, `oneOf`, `allOf`). */
export function acceptedTypes(defs: Record<string, unknown>, schema: unknown): Set<string>;
/** Breaks a valid instance of `defs[name]` deterministically (see break-example.mjs). */
export function breakExample(defs: Record<string, unknown>, name: string, value: unknown): { value: unknown; rule: string };
