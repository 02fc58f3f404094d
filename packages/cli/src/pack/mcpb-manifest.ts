/**
 * The `manifest.json` of an MCP Bundle (`.mcpb`, manifest_version 0.3) for a server package: a `node` server
 * whose package sits in `server/` of the bundle with its dependencies, started as `node ${__dirname}/server/<bin>`.
 * The registry arguments become the bundle's `user_config` (a host asks the user for them when installing): a
 * `filepath` positional whose label names a directory becomes a directory picker, `isRepeated` allows several,
 * `isSecret` hides the value; environment variables likewise. Optional named flags without a default are left out
 * of the bundle's command line (an unanswered option would be passed as an empty value), so they stay unset.
 */
import type { ServerArgument, ServerEnvironmentVariable, ServerPackage } from './pack-config.js';

/** The manifest version written. */
export const MANIFEST_VERSION = '0.3';

/** A tool or prompt as the server listed it when probed. */
export interface ListedItem {
  readonly name: string;
  readonly description?: string;
}

/** What the server offered when probed (empty when not probed). */
export interface ServerOffer {
  readonly tools: readonly ListedItem[];
  readonly prompts: readonly ListedItem[];
}

type Json = Record<string, unknown>;
type InputLike = ServerArgument | (ServerEnvironmentVariable & { valueHint?: undefined; isRepeated?: undefined; choices?: undefined });

/** A `user_config` key from a label: lower snake case. */
export function configKey(label: string): string {
  return (
    label
      .replace(/^-+/, '')
      .replace(/[^A-Za-z0-9]+/g, '_')
      .replace(/^_+|_+$/g, '')
      .toLowerCase() || 'value'
  );
}

function userConfigEntry(input: InputLike, label: string): Json {
  const type =
    input.format === 'filepath'
      ? /dir|folder/i.test(label)
        ? 'directory'
        : 'file'
      : input.format === 'number'
        ? 'number'
        : input.format === 'boolean'
          ? 'boolean'
          : 'string';
  const title = label.replace(/^-+/, '').replace(/[_-]+/g, ' ');
  return {
    type,
    title: title.charAt(0).toUpperCase() + title.slice(1),
    description: input.description ?? title,
    ...(input.isRequired ? { required: true } : {}),
    ...(input.isRepeated && (type === 'directory' || type === 'file') ? { multiple: true } : {}),
    ...(input.isSecret ? { sensitive: true } : {}),
    ...(input.default !== undefined ? { default: input.default } : {}),
  };
}

/** The bundle's server section and user configuration for `pkg`. */
function serverSection(pkg: ServerPackage): { server: Json; userConfig: Json } {
  const userConfig: Json = {};
  const args = [`\${__dirname}/server/${pkg.binPath}`];
  for (const argument of pkg.config.arguments ?? []) {
    if (argument.value !== undefined) {
      if (argument.type === 'named') args.push(argument.name!);
      args.push(argument.value);
      continue;
    }
    const label = argument.type === 'named' ? argument.name! : argument.valueHint!;
    // A flag a user may leave unset cannot be expressed: mcpb would pass it with an empty value.
    if (argument.type === 'named' && !argument.isRequired && argument.default === undefined) continue;
    const key = configKey(label);
    userConfig[key] = userConfigEntry(argument, label);
    if (argument.type === 'named') args.push(argument.name!);
    args.push(`\${user_config.${key}}`);
  }
  const env: Record<string, string> = {};
  for (const variable of pkg.config.environmentVariables ?? []) {
    const key = configKey(variable.name);
    userConfig[key] = userConfigEntry(variable, variable.name);
    env[variable.name] = `\${user_config.${key}}`;
  }
  return {
    server: { type: 'node', entry_point: `server/${pkg.binPath}`, mcp_config: { command: 'node', args, env } },
    userConfig,
  };
}

function authorOf(author: ServerPackage['manifest']['author']): Json {
  if (author === undefined) return { name: 'unknown' };
  if (typeof author === 'object') return { ...author };
  // npm's "Name <email> (url)" shorthand.
  const match = /^([^<(]+?)\s*(?:<([^>]+)>)?\s*(?:\(([^)]+)\))?$/.exec(author);
  return { name: match?.[1] ?? author, ...(match?.[2] ? { email: match[2] } : {}), ...(match?.[3] ? { url: match[3] } : {}) };
}

/** Builds the bundle manifest of `pkg`. */
export function buildMcpbManifest(pkg: ServerPackage, offer: ServerOffer): Json {
  const { manifest, config } = pkg;
  const { server, userConfig } = serverSection(pkg);
  const repository = manifest.repository;
  const repositoryUrl = typeof repository === 'string' ? repository : repository?.url;
  return {
    manifest_version: MANIFEST_VERSION,
    name: pkg.binName,
    ...(config.title ? { display_name: config.title } : {}),
    version: manifest.version,
    description: pkg.description,
    ...(manifest.description && manifest.description !== pkg.description ? { long_description: manifest.description } : {}),
    author: authorOf(manifest.author),
    ...(repositoryUrl ? { repository: { type: 'git', url: repositoryUrl.replace(/^git\+/, '') } } : {}),
    ...(manifest.homepage ? { homepage: manifest.homepage } : {}),
    server,
    ...(offer.tools.length > 0
      ? { tools: offer.tools.map((tool) => ({ name: tool.name, ...(tool.description ? { description: tool.description } : {}) })) }
      : {}),
    // Prompts in a manifest carry their text, which a prompt's handler makes at run time: they are announced as generated.
    ...(offer.prompts.length > 0 ? { prompts_generated: true } : {}),
    ...(manifest.keywords?.length ? { keywords: [...manifest.keywords] } : {}),
    ...(manifest.license ? { license: manifest.license } : {}),
    compatibility: {
      ...(config.platforms ? { platforms: [...config.platforms] } : {}),
      runtimes: { node: manifest.engines?.node ?? '>=20' },
    },
    ...(Object.keys(userConfig).length > 0 ? { user_config: userConfig } : {}),
  };
}
