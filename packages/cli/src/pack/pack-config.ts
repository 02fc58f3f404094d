/**
 * What `wiremcp pack` reads: a server package's `package.json` — its name, version, description, bin, `engines`,
 * `mcpName` (the registry name, which the registry checks against the published package) — and the optional
 * `"wiremcp": { "server": … }` block that says what the registry and a bundle need beyond that: the command-line
 * arguments and environment variables a host must supply (in the registry's own shapes), the platforms, whether
 * the server also serves Streamable HTTP. Every problem is reported at once, as a usage error naming the field.
 */
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { CLI_EXIT_CODES, CliError } from '../exit-codes.js';

/** A command-line argument, as the registry's `server.json` describes one (`PositionalArgument`/`NamedArgument`). */
export interface ServerArgument {
  readonly type: 'positional' | 'named';
  /** The flag, with its dashes (named arguments). */
  readonly name?: string;
  /** The label of a positional argument (also its `user_config` key in a bundle). */
  readonly valueHint?: string;
  readonly description?: string;
  readonly format?: 'string' | 'number' | 'boolean' | 'filepath';
  readonly isRequired?: boolean;
  readonly isRepeated?: boolean;
  readonly isSecret?: boolean;
  readonly default?: string;
  readonly choices?: readonly string[];
  /** A fixed value (not asked of the user). */
  readonly value?: string;
}

/** An environment variable the server reads (`KeyValueInput`). */
export interface ServerEnvironmentVariable {
  readonly name: string;
  readonly description?: string;
  readonly isRequired?: boolean;
  readonly isSecret?: boolean;
  readonly default?: string;
  readonly format?: 'string' | 'number' | 'boolean' | 'filepath';
}

/** The `"wiremcp": { "server": … }` block of a server's package.json. */
export interface ServerPackConfig {
  /** A display name (registry `title`, bundle `display_name`). */
  readonly title?: string;
  /** At most 100 characters (the registry's limit); default: the package description when it fits. */
  readonly description?: string;
  /** The bin to run when the package has several. */
  readonly bin?: string;
  readonly arguments?: readonly ServerArgument[];
  readonly environmentVariables?: readonly ServerEnvironmentVariable[];
  /** `process.platform` values the server runs on (default: all). */
  readonly platforms?: readonly ('darwin' | 'linux' | 'win32')[];
  /** The flag that serves Streamable HTTP on a port (`--http`): adds a `streamable-http` package to server.json. */
  readonly httpFlag?: string;
  /** The HTTP endpoint path (default `/mcp`). */
  readonly httpPath?: string;
}

/** The package.json fields pack uses. */
export interface PackageManifest {
  readonly name: string;
  readonly version: string;
  readonly description?: string;
  readonly mcpName?: string;
  readonly license?: string;
  readonly keywords?: readonly string[];
  readonly homepage?: string;
  readonly author?: string | { name: string; email?: string; url?: string };
  readonly repository?: string | { type?: string; url: string; directory?: string };
  readonly bin?: string | Record<string, string>;
  readonly engines?: { node?: string };
  readonly dependencies?: Record<string, string>;
  readonly optionalDependencies?: Record<string, string>;
  readonly peerDependencies?: Record<string, string>;
  readonly wiremcp?: { server?: ServerPackConfig };
}

/** A server package ready to pack: its manifest, its config, and the bin chosen. */
export interface ServerPackage {
  readonly dir: string;
  readonly manifest: PackageManifest;
  readonly config: ServerPackConfig;
  /** The registry name (`mcpName`). */
  readonly mcpName: string;
  /** At most 100 characters. */
  readonly description: string;
  readonly binName: string;
  /** The bin's path inside the package, without a leading `./`. */
  readonly binPath: string;
}

/** The registry's name pattern: a reverse-DNS namespace, one slash, a name. */
const MCP_NAME = /^[a-zA-Z0-9.-]+\/[a-zA-Z0-9._-]+$/;
const REGISTRY_DESCRIPTION_MAX = 100;

function usage(problems: string[], dir: string): CliError {
  return new CliError(`${join(dir, 'package.json')} cannot be packed:\n  - ${problems.join('\n  - ')}`, CLI_EXIT_CODES.usage);
}

function checkArgument(argument: ServerArgument, index: number, problems: string[]): void {
  const at = `wiremcp.server.arguments[${index}]`;
  if (argument.type !== 'positional' && argument.type !== 'named') problems.push(`${at}.type must be "positional" or "named"`);
  if (argument.type === 'named' && !/^-{1,2}[A-Za-z0-9][\w-]*$/.test(argument.name ?? ''))
    problems.push(`${at}.name must be a flag such as --port`);
  if (argument.type === 'positional' && !argument.valueHint && argument.value === undefined)
    problems.push(`${at} needs a valueHint or a value`);
  if (argument.format && !['string', 'number', 'boolean', 'filepath'].includes(argument.format))
    problems.push(`${at}.format must be string, number, boolean or filepath`);
}

/** Reads and checks the server package in `dir`. */
export async function readServerPackage(dir: string, binOverride?: string): Promise<ServerPackage> {
  let manifest: PackageManifest;
  try {
    manifest = JSON.parse(await readFile(join(dir, 'package.json'), 'utf8')) as PackageManifest;
  } catch (error) {
    throw new CliError(`no readable package.json in ${dir} (${(error as Error).message})`, CLI_EXIT_CODES.usage);
  }
  const config = manifest.wiremcp?.server ?? {};
  const problems: string[] = [];
  if (typeof manifest.name !== 'string' || typeof manifest.version !== 'string') problems.push('name and version are required');
  if (typeof manifest.mcpName !== 'string' || !MCP_NAME.test(manifest.mcpName)) {
    problems.push(
      'mcpName is required: the registry name, a namespace you can prove (io.github.<user or org>/… for GitHub, ' +
        'or a reverse domain) and a name, e.g. "io.github.example/weather"',
    );
  }
  const description = config.description ?? manifest.description ?? '';
  if (description.length === 0 || description.length > REGISTRY_DESCRIPTION_MAX) {
    problems.push(
      `a description of 1 to ${REGISTRY_DESCRIPTION_MAX} characters is required (the registry's limit): set wiremcp.server.description ` +
        `(the package description has ${description.length})`,
    );
  }
  const bins = typeof manifest.bin === 'string' ? { [manifest.name]: manifest.bin } : (manifest.bin ?? {});
  const binName = binOverride ?? config.bin ?? (Object.keys(bins).length === 1 ? Object.keys(bins)[0] : undefined);
  if (binName === undefined || bins[binName] === undefined) {
    problems.push(
      Object.keys(bins).length === 0
        ? 'a "bin" is required: the command a host runs'
        : `choose the bin to run with wiremcp.server.bin or --bin (one of ${Object.keys(bins).join(', ')})`,
    );
  }
  (config.arguments ?? []).forEach((argument, index) => checkArgument(argument, index, problems));
  (config.environmentVariables ?? []).forEach((variable, index) => {
    if (!/^[A-Za-z_][A-Za-z0-9_]*$/.test(variable.name ?? ''))
      problems.push(`wiremcp.server.environmentVariables[${index}].name is not a variable name`);
  });
  if (problems.length > 0) throw usage(problems, dir);
  return {
    dir,
    manifest,
    config,
    mcpName: manifest.mcpName!,
    description,
    binName: binName!,
    binPath: bins[binName!]!.replace(/^\.\//, ''),
  };
}
