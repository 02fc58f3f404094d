/**
 * Loading configurations: files (or text) → a {@link HostConfig} with every server resolved. Every problem of every
 * file is collected into one {@link ConfigError}; nothing is connected here.
 */
import { open } from 'node:fs/promises';
import { homedir } from 'node:os';
import { basename, dirname, resolve, sep } from 'node:path';
import { ConfigError, type ConfigIssue } from './config-error.js';
import { MAX_CONFIG_BYTES, parseConfig, type ParsedConfig } from './parse-config.js';
import { resolveServer } from './resolve-server.js';
import type { SubstitutionContext } from './substitute.js';
import type { ConfigFormat, HostConfig, InputDefinition, InputResolver, ServerConfig } from './types.js';

/** Options of {@link loadConfig} and {@link parseConfigText}. */
export interface LoadConfigOptions {
  /** The format of every file (default: detected per file). */
  readonly format?: ConfigFormat;
  /** The environment `${env:NAME}` reads (default `process.env`). */
  readonly env?: Readonly<Record<string, string | undefined>>;
  /** `${userHome}` (default: the user's home directory). */
  readonly home?: string;
  /** `${workspaceFolder}` (default: the folder holding `.vscode`/`.cursor`, else the file's folder). */
  readonly workspaceFolder?: string;
  /** Values of `${input:id}`: a map, or a function asked once per id. Without one, an input's `default` is used. */
  readonly inputs?: InputResolver;
}

/** The folder a file's relative paths and `${workspaceFolder}` refer to. */
export function workspaceFolderOf(file: string): string {
  const folder = dirname(file);
  return ['.vscode', '.cursor'].includes(basename(folder)) ? dirname(folder) : folder;
}

async function readBounded(file: string): Promise<string> {
  let handle;
  try {
    handle = await open(file, 'r');
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    throw new ConfigError([{ file, message: code === 'ENOENT' ? 'does not exist' : `cannot be read (${code ?? 'error'})` }]);
  }
  try {
    const stat = await handle.stat();
    if (!stat.isFile()) throw new ConfigError([{ file, message: 'is not a file' }]);
    if (stat.size > MAX_CONFIG_BYTES) throw new ConfigError([{ file, message: `is larger than ${MAX_CONFIG_BYTES} bytes` }]);
    const buffer = Buffer.alloc(Math.min(stat.size, MAX_CONFIG_BYTES) + 1);
    const { bytesRead } = await handle.read(buffer, 0, buffer.length, 0);
    if (bytesRead > MAX_CONFIG_BYTES) throw new ConfigError([{ file, message: `is larger than ${MAX_CONFIG_BYTES} bytes` }]);
    return buffer.subarray(0, bytesRead).toString('utf8');
  } finally {
    await handle.close();
  }
}

/** Answers `${input:id}` once per id across all files: the resolver, else the definition's default. */
class Inputs {
  readonly #values = new Map<string, Promise<string | undefined>>();
  readonly #definitions = new Map<string, InputDefinition>();
  readonly #resolver: InputResolver | undefined;

  constructor(resolver: InputResolver | undefined) {
    this.#resolver = resolver;
  }

  define(inputs: readonly InputDefinition[]): void {
    for (const input of inputs) if (!this.#definitions.has(input.id)) this.#definitions.set(input.id, input);
  }

  get(id: string, file: string): Promise<string | undefined> {
    let value = this.#values.get(id);
    if (value === undefined) {
      const definition = this.#definitions.get(id) ?? { id, type: 'promptString' as const, file };
      value = this.#ask(definition);
      this.#values.set(id, value);
    }
    return value;
  }

  async #ask(definition: InputDefinition): Promise<string | undefined> {
    const resolver = this.#resolver;
    let value: string | undefined;
    if (typeof resolver === 'function') value = await resolver(definition);
    else if (resolver !== undefined && Object.hasOwn(resolver, definition.id)) value = resolver[definition.id];
    value ??= definition.default;
    if (value !== undefined && definition.type === 'pickString' && definition.options && !definition.options.includes(value))
      return undefined;
    return value;
  }
}

async function resolveParsed(
  parsed: readonly ParsedConfig[],
  options: LoadConfigOptions,
  extraIssues: ConfigIssue[] = [],
): Promise<HostConfig> {
  const issues: ConfigIssue[] = [...extraIssues];
  const warnings: string[] = parsed.flatMap((p) => p.warnings);
  const inputs = new Inputs(options.inputs);
  for (const p of parsed) inputs.define(p.inputs);
  const servers: ServerConfig[] = [];
  const seen = new Map<string, string>();
  for (const file of parsed) {
    const substitution: SubstitutionContext = {
      env: options.env ?? process.env,
      home: options.home ?? homedir(),
      workspaceFolder: options.workspaceFolder ?? workspaceFolderOf(file.file),
      pathSeparator: sep,
      input: (id) => inputs.get(id, file.file),
    };
    for (const [name, entry] of file.entries) {
      const first = seen.get(name);
      if (first !== undefined) {
        warnings.push(`${file.file}: server ${JSON.stringify(name)} is also defined in ${first}; the first definition is used`);
        continue;
      }
      seen.set(name, file.file);
      const server = await resolveServer(name, entry, { file: file.file, format: file.format, substitution, issues, warnings });
      if (server) servers.push(server);
    }
  }
  if (issues.length > 0) throw new ConfigError(issues);
  return { servers, files: parsed.map((p) => p.file), warnings };
}

/**
 * Loads configuration files (a path or several, read in order: a server defined twice keeps its first definition,
 * with a warning). Rejects with a {@link ConfigError} listing every problem: unreadable or oversized files, bad JSON
 * (with line and column), invalid fields, unresolvable references. Messages never contain configuration values.
 */
export async function loadConfig(files: string | readonly string[], options: LoadConfigOptions = {}): Promise<HostConfig> {
  const paths = (typeof files === 'string' ? [files] : files).map((file) => resolve(file));
  const parsed: ParsedConfig[] = [];
  const issues: ConfigIssue[] = [];
  for (const file of paths) {
    try {
      parsed.push(parseConfig(await readBounded(file), file, options.format));
    } catch (error) {
      if (!(error instanceof ConfigError)) throw error;
      issues.push(...error.issues);
    }
  }
  return resolveParsed(parsed, options, issues);
}

/** Like {@link loadConfig} for a configuration given as text; `file` names it in messages (default `<inline>`). */
export function parseConfigText(text: string, options: LoadConfigOptions & { file?: string } = {}): Promise<HostConfig> {
  const file = options.file ?? '<inline>';
  try {
    return resolveParsed([parseConfig(text, file, options.format)], {
      ...options,
      workspaceFolder: options.workspaceFolder ?? (options.file === undefined ? process.cwd() : workspaceFolderOf(file)),
    });
  } catch (error) {
    return Promise.reject(error);
  }
}
