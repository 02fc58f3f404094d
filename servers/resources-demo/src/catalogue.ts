/**
 * The catalogue: the documents and images in `data/`, described by `data/catalogue.json` and read once at
 * start-up. Nothing is read from disk after that, so a resource URI can never reach a file the manifest does not
 * name (there is no path to sanitise at request time).
 */
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

/** The bundled data directory: one level above `src/` (tests) and `dist/` (the built server). */
export const DATA_DIR: URL = new URL('../data/', import.meta.url);

/** Who a resource is meant for (the spec's `Role`). */
export type Audience = 'user' | 'assistant';

/** One file of the catalogue, with what a client is told about it and its bytes. */
export interface CatalogueFile {
  /** Path below `data/`, always with `/`: `images/pixel-art/heart.png`. */
  readonly path: string;
  /** The top-level folder (`images`) and the rest of the path (`pixel-art/heart.png`). */
  readonly folder: string;
  readonly name: string;
  readonly title: string;
  readonly description: string;
  readonly mimeType: string;
  readonly audience: readonly Audience[];
  readonly priority: number;
  /** ISO 8601, from the manifest (file times change with every checkout; the manifest does not). */
  readonly lastModified: string;
  /** Size in bytes. */
  readonly size: number;
  /** The contents as text (text MIME types) or base64 (everything else). */
  readonly text?: string;
  readonly blob?: string;
}

/** The loaded catalogue. */
export interface Catalogue {
  /** Files in manifest order. */
  readonly files: readonly CatalogueFile[];
  /** Every folder that holds a file, directly or below, without the root: `docs`, `images`, `images/pixel-art`. */
  readonly folders: readonly string[];
  /** The file at `path`, if the catalogue has it. */
  file(path: string): CatalogueFile | undefined;
}

/** True for MIME types whose contents are sent as `text` (SVG and JSON included), false for a base64 `blob`. */
export function isTextMimeType(mimeType: string): boolean {
  return mimeType.startsWith('text/') || mimeType === 'application/json' || mimeType.endsWith('+xml') || mimeType.endsWith('+json');
}

function fail(manifest: string, message: string): never {
  throw new Error(`${manifest}: ${message}`);
}

function checkEntry(manifest: string, entry: unknown, index: number): Record<string, unknown> {
  const at = `files[${index}]`;
  if (typeof entry !== 'object' || entry === null) fail(manifest, `${at} must be an object`);
  const record = entry as Record<string, unknown>;
  for (const key of ['path', 'title', 'description', 'mimeType', 'lastModified']) {
    if (typeof record[key] !== 'string' || record[key] === '') fail(manifest, `${at}.${key} must be a non-empty string`);
  }
  const path = record.path as string;
  // Paths are relative, with at least a folder and a name, and never climb out of data/.
  if (!/^[a-z0-9-]+(\/[a-z0-9.-]+)+$/.test(path) || path.split('/').includes('..'))
    fail(manifest, `${at}.path is not a catalogue path: ${path}`);
  const audience = record.audience;
  if (!Array.isArray(audience) || audience.length === 0 || !audience.every((role) => role === 'user' || role === 'assistant')) {
    fail(manifest, `${at}.audience must list "user" and/or "assistant"`);
  }
  if (typeof record.priority !== 'number' || record.priority < 0 || record.priority > 1) fail(manifest, `${at}.priority must be in [0, 1]`);
  if (Number.isNaN(Date.parse(record.lastModified as string))) fail(manifest, `${at}.lastModified is not an ISO 8601 date`);
  return record;
}

/**
 * Reads `catalogue.json` and every file it names from `dir` (default {@link DATA_DIR}). Throws an Error naming
 * the manifest and the entry when the manifest is malformed or a file is missing.
 */
export function loadCatalogue(dir: URL = DATA_DIR): Catalogue {
  const manifestUrl = new URL('catalogue.json', dir);
  const manifest = fileURLToPath(manifestUrl);
  let parsed: unknown;
  try {
    parsed = JSON.parse(readFileSync(manifestUrl, 'utf8'));
  } catch (error) {
    fail(manifest, `cannot read the manifest (${(error as Error).message})`);
  }
  const entries = (parsed as { files?: unknown }).files;
  if (!Array.isArray(entries)) fail(manifest, '"files" must be an array');
  const files = entries.map((entry, index): CatalogueFile => {
    const record = checkEntry(manifest, entry, index);
    const path = record.path as string;
    const mimeType = record.mimeType as string;
    let bytes: Buffer;
    try {
      bytes = readFileSync(new URL(path, dir));
    } catch (error) {
      fail(manifest, `files[${index}]: cannot read ${path} (${(error as NodeJS.ErrnoException).code ?? (error as Error).message})`);
    }
    const slash = path.indexOf('/');
    return {
      path,
      folder: path.slice(0, slash),
      name: path.slice(slash + 1),
      title: record.title as string,
      description: record.description as string,
      mimeType,
      audience: record.audience as Audience[],
      priority: record.priority as number,
      lastModified: record.lastModified as string,
      size: bytes.length,
      ...(isTextMimeType(mimeType) ? { text: bytes.toString('utf8') } : { blob: bytes.toString('base64') }),
    };
  });
  const byPath = new Map(files.map((file) => [file.path, file]));
  if (byPath.size !== files.length) fail(manifest, 'a path is listed twice');
  const folders = new Set<string>();
  for (const file of files) {
    const parts = file.path.split('/');
    for (let depth = 1; depth < parts.length; depth++) folders.add(parts.slice(0, depth).join('/'));
  }
  return { files, folders: [...folders].sort(), file: (path) => byPath.get(path) };
}
