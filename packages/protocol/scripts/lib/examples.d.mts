/** One example file: its definition (directory) name, file name and parsed JSON. */
export interface Example {
  type: string;
  file: string;
  value: unknown;
}
/** Every example under `dir/<TypeName>/*.json`, sorted by type then file name. */
export function loadExamples(dir: string): Example[];
/** Top-level keys of `value` that definition `type` does not declare (see examples.mjs). */
export function undeclaredKeys(spec: { defs: Record<string, unknown> }, type: string, value: unknown): string[];
