/**
 * The `yaml` library, loaded on first use. A table in the plain YAML subset (nearly every start) is read by
 * `parseSimpleYaml` and never needs it, and loading it is a few ms of every server start; it is still the parser of
 * record for anything else and for every message about a broken table. `require` is synchronous, so `parseTable`
 * stays a plain function; `yaml` ships CommonJS for Node.
 */
import { createRequire } from 'node:module';

type YamlLibrary = typeof import('yaml');

let loaded: YamlLibrary | undefined;

/** The `yaml` module (the same one a static import would give). */
export function yamlLibrary(): YamlLibrary {
  loaded ??= createRequire(import.meta.url)('yaml') as YamlLibrary;
  return loaded;
}
