/**
 * The MCP registry's `server.json` (schema 2025-12-11) of a server package: its name (`mcpName`), description,
 * version and repository, and the npm package a host installs — once over stdio and, when the server serves
 * Streamable HTTP, once more with the flag and a `{port}` URL — with the arguments and environment variables the
 * host must supply. With a download URL, the `.mcpb` bundle is listed too, with its SHA-256.
 */
import type { ServerArgument, ServerPackage } from './pack-config.js';

/** The schema this file follows; `server.json` names it in `$schema`. */
export const SERVER_SCHEMA_URL = 'https://static.modelcontextprotocol.io/schemas/2025-12-11/server.schema.json';

/** A bundle to list in server.json (`registryType: "mcpb"`). */
export interface BundleEntry {
  /** Where hosts download it (the registry accepts GitHub and GitLab release assets). */
  readonly url: string;
  readonly sha256: string;
}

type Json = Record<string, unknown>;

function repositoryOf(repository: ServerPackage['manifest']['repository']): Json | undefined {
  if (repository === undefined) return undefined;
  const raw = typeof repository === 'string' ? repository : repository.url;
  const url = raw
    .replace(/^git\+/, '')
    .replace(/\.git$/, '')
    .replace(/^github:/, 'https://github.com/');
  let host: string;
  try {
    host = new URL(url).hostname;
  } catch {
    return undefined;
  }
  const source = host === 'github.com' ? 'github' : host === 'gitlab.com' ? 'gitlab' : host;
  const subfolder = typeof repository === 'object' ? repository.directory : undefined;
  return { url, source, ...(subfolder ? { subfolder } : {}) };
}

/** An argument as the registry wants it (the fields it knows, nothing of ours). */
function registryArgument(argument: ServerArgument): Json {
  const { type, name, valueHint, description, format, isRequired, isRepeated, isSecret, value, choices } = argument;
  return {
    type,
    ...(name !== undefined ? { name } : {}),
    ...(valueHint !== undefined ? { valueHint } : {}),
    ...(description !== undefined ? { description } : {}),
    ...(format !== undefined ? { format } : {}),
    ...(isRequired !== undefined ? { isRequired } : {}),
    ...(isRepeated !== undefined ? { isRepeated } : {}),
    ...(isSecret !== undefined ? { isSecret } : {}),
    ...(argument.default !== undefined ? { default: argument.default } : {}),
    ...(choices !== undefined ? { choices: [...choices] } : {}),
    ...(value !== undefined ? { value } : {}),
  };
}

/** Builds the server.json document of `pkg` (an object, written with two-space indentation by the caller). */
export function buildServerJson(pkg: ServerPackage, bundle?: BundleEntry): Json {
  const { manifest, config } = pkg;
  const packageArguments = (config.arguments ?? []).map(registryArgument);
  const environmentVariables = (config.environmentVariables ?? []).map((variable) => ({ ...variable }));
  const npm = (transport: Json, extra: Json[] = []): Json => ({
    registryType: 'npm',
    identifier: manifest.name,
    version: manifest.version,
    runtimeHint: 'npx',
    transport,
    ...(packageArguments.length + extra.length > 0 ? { packageArguments: [...extra, ...packageArguments] } : {}),
    ...(environmentVariables.length > 0 ? { environmentVariables } : {}),
  });
  const packages: Json[] = [npm({ type: 'stdio' })];
  if (config.httpFlag) {
    const port = {
      type: 'named',
      name: config.httpFlag,
      valueHint: 'port',
      description: 'the loopback port to serve on',
      isRequired: true,
      default: '3000',
    };
    packages.push(npm({ type: 'streamable-http', url: `http://127.0.0.1:{port}${config.httpPath ?? '/mcp'}` }, [port]));
  }
  if (bundle) {
    packages.push({
      registryType: 'mcpb',
      identifier: bundle.url,
      version: manifest.version,
      fileSha256: bundle.sha256,
      transport: { type: 'stdio' },
    });
  }
  const repository = repositoryOf(manifest.repository);
  return {
    $schema: SERVER_SCHEMA_URL,
    name: pkg.mcpName,
    ...(config.title ? { title: config.title } : {}),
    description: pkg.description,
    ...(repository ? { repository } : {}),
    version: manifest.version,
    ...(manifest.homepage ? { websiteUrl: manifest.homepage } : {}),
    packages,
  };
}
