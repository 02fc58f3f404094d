/**
 * The targets of a run: registry servers (the default ones, or those named with `--server`) and the third-party
 * server of `--command` / `--url`, which may turn out to be a registry server under another name.
 */
import { PROTOCOL_VERSIONS } from '@wiremcp/protocol';
import type { CliOptions } from '../cli-options.js';
import { DEFAULT_REGISTRY } from '../paths.js';
import type { ServerIdentity } from '../hosts/warm-up.js';
import { splitCommandLine } from './command-line.js';
import { loadRegistry, type RegistryServer } from './registry.js';
import type { Target, TargetTransport } from './target.js';

/** Thrown for a target selection that cannot work (an unknown server, an empty command). */
export class TargetSelectionError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'TargetSelectionError';
  }
}

function externalTarget(options: CliOptions): Target {
  const transports = options.transports.length > 0 ? options.transports : undefined;
  const common = {
    id: options.name,
    origin: 'external' as const,
    revisions: PROTOCOL_VERSIONS,
    capabilities: undefined,
    features: new Set<string>(),
    limits: {},
  };
  if (options.command !== undefined) {
    const command = splitCommandLine(options.command);
    if (command.length === 0) throw new TargetSelectionError('--command is empty');
    const ids = (transports ?? ['stdio-ndjson']).filter((id) => id === 'stdio-ndjson' || id === 'stdio-content-length');
    if (ids.length === 0)
      throw new TargetSelectionError('--command runs a stdio server: --transport must include stdio-ndjson or stdio-content-length');
    return {
      ...common,
      title: `--command ${options.command}`,
      transports: ids.map((id) => ({ id, kind: 'stdio' as const, command, cwd: process.cwd(), env: {} })),
    };
  }
  const url = options.url!;
  // A ws:// or wss:// URL is a WebSocket endpoint: every revision on one connection per cell.
  const webSocket = /^wss?:\/\//i.test(url);
  if (webSocket) {
    if (transports !== undefined && !transports.includes('websocket'))
      throw new TargetSelectionError('--url is a WebSocket URL (ws://, wss://): --transport must include websocket');
    return { ...common, title: `--url ${url}`, transports: [{ id: 'websocket', kind: 'http' as const, url }] };
  }
  if (transports !== undefined) {
    // A forced transport carries every revision: the user chose the wire.
    const ids = transports.filter((id) => !id.startsWith('stdio') && id !== 'websocket');
    if (ids.length === 0) throw new TargetSelectionError('--url reaches an HTTP server: --transport must name an HTTP transport');
    return { ...common, title: `--url ${url}`, transports: ids.map((id) => ({ id, kind: 'http' as const, url })) };
  }
  return { ...common, title: `--url ${url}`, transports: discoveredWires(url) };
}

/** The 2025 revisions that run on Streamable HTTP sessions. */
export const SESSION_REVISIONS: readonly string[] = PROTOCOL_VERSIONS.filter(
  (revision) => revision !== '2024-11-05' && revision !== '2026-07-28',
);

/**
 * The wires of a `--url` server without `--transport`, as a client reaches one endpoint: `server/discover` first
 * (2026-07-28, stateless requests), then `initialize` (the 2025 revisions, Streamable HTTP sessions). 2024-11-05
 * runs over HTTP+SSE, whose endpoint is another URL: only when asked (`--transport http-sse`).
 */
export function discoveredWires(url: string): TargetTransport[] {
  return [
    { id: 'streamable-http-stateless', kind: 'http', url, revisions: ['2026-07-28'] },
    {
      id: 'streamable-http',
      kind: 'http',
      url,
      revisions: SESSION_REVISIONS,
      elsewhere: {
        revisions: ['2024-11-05'],
        reason:
          '2024-11-05 is served over HTTP+SSE, not at this Streamable HTTP endpoint: run --transport http-sse --url <its SSE endpoint>',
      },
    },
  ];
}

/** The targets of a run, and the registry (to recognise an external target). */
export function chooseTargets(options: CliOptions): { targets: Target[]; registry: RegistryServer[] } {
  const external = options.command !== undefined || options.url !== undefined;
  const registry = loadRegistry(options.registry ?? DEFAULT_REGISTRY);
  const known = new Set(registry.map((server) => server.target.id));
  const unknown = options.servers.filter((id) => !known.has(id));
  if (unknown.length > 0)
    throw new TargetSelectionError(`unknown server ${unknown.join(', ')} (servers.yaml has ${[...known].join(', ')})`);
  const chosen = registry
    .filter((server) => (options.servers.length > 0 ? options.servers.includes(server.target.id) : !external && server.isDefault))
    .map((server) => server.target);
  if (!external) return { targets: chosen, registry };
  if (chosen.some((target) => target.id === options.name))
    throw new TargetSelectionError(`--name ${options.name} is also given with --server: name the --command/--url server differently`);
  const target = externalTarget(options);
  const named = registry.find((server) => server.target.id === options.name)?.target;
  return { targets: [...chosen, named ? recognised(target, named) : target], registry };
}

/** The external target as the registry server it is: that server's baseline entries and features apply. */
export function recognised(target: Target, as: Target): Target {
  return { ...target, knownAs: as.id, features: new Set([...target.features, ...as.features]), limits: { ...as.limits, ...target.limits } };
}

/** The registry server whose `serverInfo` (name, and version when the registry pins one) matches what a server reported. */
export function recogniseByIdentity(registry: readonly RegistryServer[], identity: ServerIdentity | undefined): Target | undefined {
  if (identity === undefined) return undefined;
  return registry.find(({ target }) => {
    const info = target.serverInfo;
    return info !== undefined && info.name === identity.name && (info.version === undefined || info.version === identity.version);
  })?.target;
}
